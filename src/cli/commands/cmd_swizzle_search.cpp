// swizzle-search: the swizzle (or padding) of a shared-memory tile that
// serves its writes and reads best.
#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <optional>

#include "commands/access_options.hpp"
#include "driver.hpp"
#include "layoutx/render_bank.hpp"
#include "layoutx/swizzle_search.hpp"
#include "io/output.hpp"

namespace layoutx::cli {

namespace {

// "st128:(8,4):(8,64)": the instruction, then the pattern layout.
std::optional<AccessPattern> parse_pattern(const Settings& s, Diagnostics& diag, const std::string& role,
                                           const std::string& text) {
  const auto colon = text.find(':');
  const std::string kind = text.substr(0, colon == std::string::npos ? text.size() : colon);
  if (colon == std::string::npos) {
    report_error(
        fmt::format("--{} takes KIND:PATTERN, KIND one of {} or a copy atom", role, fmt::join(access_names(), " ")),
        text, 0, true);
    return std::nullopt;
  }
  std::string why;
  const std::optional<SharedAccess> access = access_named(kind, role == "write", why);
  if (!access) {
    report_error(why, text, 0, true);
    return std::nullopt;
  }
  const std::optional<Value> v = evaluate_option(s, std::string_view(text).substr(colon + 1), {text, colon + 1}, diag);
  if (!v) return std::nullopt;
  std::optional<AccessPattern> pattern;
  run_reporting_errors({text}, notation(s), [&] {
    pattern = AccessPattern{role, *access, require_offset_layout(*v, role.c_str(), notation(s))};
    return kOk;
  });
  return pattern;
}

struct SearchArgs {
  std::string tile;
  ElementSize elem;
  std::vector<std::string> writes, reads;
  SearchOptions options;
  bool no_padding = false, no_swizzle = false, json = false, stats = false;
};

int run_search(const Settings& s, const SearchArgs& args) {
  // The options' warnings are written once the search has run.
  Diagnostics diag = diagnostics(s);
  std::vector<AccessPattern> patterns;
  for (const auto& [role, list] : {std::pair{"write", &args.writes}, std::pair{"read", &args.reads}})
    for (const auto& text : *list) {
      std::optional<AccessPattern> p = parse_pattern(s, diag, role, text);
      if (!p) return kRejected;
      patterns.push_back(std::move(*p));
    }
  if (patterns.empty()) {
    report_error("swizzle-search needs at least one --write or --read pattern", "", 0, false);
    return kUsage;
  }
  const std::optional<Value> v = evaluate_option(s, args.tile, {args.tile}, diag);
  if (!v) return kRejected;
  return run_reporting_errors({args.tile}, notation(s), [&] {
    const AnyLayout tile = require_offset_layout(*v, "swizzle-search", notation(s));
    if (!std::holds_alternative<Layout>(tile))
      throw Error(
          fmt::format("swizzle-search takes the tile without its swizzle, got {}", render_notation(*v, notation(s))));
    SearchOptions options = args.options;
    options.padding = !args.no_padding;
    options.swizzles = !args.no_swizzle;
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    const SearchResult r = search_swizzles(std::get<Layout>(tile), args.elem.in_bits(), patterns, options);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    report_warnings(diag);
    out(render_search(r, std::get<Layout>(tile), args.elem.in_bits(), patterns, args.json, notation(s)));
    if (args.stats)
      out(fmt::format("search: {} candidates in {:.2f} ms ({:.2f} ms CPU), {:.0f} candidates per CPU second\n",
                      r.evaluated, took.count() * 1e3, cpu * 1e3,
                      static_cast<double>(r.evaluated) / std::max(cpu, 1e-6)));
    flush_out();
    return kOk;
  });
}

}  // namespace

Command register_swizzle_search(CLI::App* sub, Settings& s) {
  sub->footer(
      "PATTERN maps lane + 32*i (instruction i) to the tile coordinate where the lane's access starts; the access\n"
      "covers the elements that follow it in the tile's memory. Example, a 16x64 half tile written by 128-bit\n"
      "stores row by row and read by ldmatrix.x4:\n"
      "  layoutx swizzle-search \"(16,64):(64,1)\" --elem-bytes 2 \\\n"
      "    --write \"st128:(8,4,4):(128,1,4)\" --read \"ldsm4:(16,2,4):(1,128,256)\"");
  auto args = std::make_shared<SearchArgs>();
  sub->add_option("TILE", args->tile, "The shared-memory tile layout, unswizzled")->required();
  add_element_size(sub, args->elem);
  sub->add_option("--write", args->writes,
                  "KIND:PATTERN of the instructions that fill the tile (repeatable); KIND may be a copy atom");
  sub->add_option("--read", args->reads,
                  "KIND:PATTERN of the instructions that read it (repeatable); KIND may be a copy atom");
  sub->add_option("--top", args->options.top, "Candidates shown (default 5)")->check(integer_range(1, 1000));
  sub->add_flag("--no-padding", args->no_padding, "Try swizzles only");
  sub->add_flag("--no-swizzle", args->no_swizzle, "Try paddings only");
  sub->add_flag("--json", args->json, "One JSON object");
  sub->add_flag("--stats", args->stats, "Add a line with the search time and candidates per second");
  return {sub, [&s, args] { return run_search(s, *args); }};
}

}  // namespace layoutx::cli
