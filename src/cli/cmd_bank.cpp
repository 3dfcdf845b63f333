// bank: the wavefronts a warp's shared-memory access takes; swizzle-search:
// the swizzle (or padding) of a tile that serves its writes and reads best.
#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <optional>

#include "driver.hpp"
#include "layoutx/atoms.hpp"
#include "layoutx/render_bank.hpp"
#include "layoutx/swizzle_search.hpp"
#include "output.hpp"

namespace layoutx::cli {

namespace {

struct ElementSize {
  std::int64_t bytes = 0;
  std::int64_t bits = 0;
  std::int64_t in_bits() const { return bits ? bits : bytes * 8; }
};

void add_element_size(CLI::App* sub, ElementSize& e) {
  auto* group = sub->add_option_group("element size", "The size of one element of the layout (one of the two)");
  group->add_option("--elem-bytes", e.bytes, "Bytes per element (2 for half, 4 for float)")->check(integer_range(1, 1024));
  group->add_option("--elem-bits", e.bits, "Bits per element, for sub-byte types (4 for int4)")->check(integer_range(1, 8192));
  group->require_option(1);
}

std::vector<std::string> access_names() {
  std::vector<std::string> names;
  for (const auto& a : all_accesses()) names.emplace_back(a.name);
  return names;
}

// An expression given to an option: errors are reported like EXPR's, caret included.
std::optional<Value> evaluate_option(const Settings& s, const std::string& text, std::size_t shown_from = 0,
                                     const std::string& shown = "") {
  const std::string& context = shown.empty() ? text : shown;
  try {
    return evaluate_expression(text, s.language);
  } catch (const SourceError& e) {
    report_error(e.what(), context, shown_from + e.offset(), true);
  } catch (const Error& e) {
    report_error(e.what(), context, 0, false);
  }
  return std::nullopt;
}

// KIND of --access / KIND:PATTERN: an instruction name, or a copy atom whose instruction it is.
std::optional<SharedAccess> access_named(const std::string& kind, bool store, std::string& why) {
  if (const auto a = find_access(kind)) return a;
  const Atom* atom = find_atom(kind);
  if (!atom) {
    why = fmt::format("'{}' is neither an access ({}) nor an atom (layoutx atom --list)", kind,
                      fmt::join(access_names(), " "));
    return std::nullopt;
  }
  try {
    return shared_access_of(*atom, store);
  } catch (const Error& e) {
    why = e.what();
  }
  return std::nullopt;
}

int run_bank(const Settings& s, const std::vector<std::string>& exprs, const std::string& access_name,
             const std::string& atom_name, const ElementSize& elem, const std::string& smem_text, bool tv,
             BankFormat format) {
  if (access_name.empty() == atom_name.empty()) {
    report_error("bank needs --access or --atom (one of the two)", "", 0, false);
    return kUsage;
  }
  std::string why;
  const std::optional<SharedAccess> found =
      access_name.empty() ? access_named(atom_name, false, why) : find_access(access_name);
  if (!found) {
    report_error(why, "", 0, false);
    return kRejected;
  }
  const SharedAccess access = *found;
  std::optional<AnyLayout> smem;
  if (!smem_text.empty()) {
    const std::optional<Value> v = evaluate_option(s, smem_text);
    if (!v) return kRejected;
    try {
      smem = require_layout(*v, "--smem");
    } catch (const Error& e) {
      report_error(e.what(), smem_text, 0, false);
      return kRejected;
    }
  }
  const bool color = format == BankFormat::Grid && use_color(s);
  return for_each_expression(s, exprs, [&](const Value& v) {
    const AnyLayout threads = require_layout(v, "bank");
    if (tv && !std::holds_alternative<Layout>(threads))
      throw Error(fmt::format("--tv takes a plain (thread, value) layout, got {}", render_notation(v)));
    const BankAnalysis a = tv ? analyze_tv_banks(access, std::get<Layout>(threads), *smem, elem.in_bits())
                              : analyze_banks(access, threads, elem.in_bits(), smem ? &*smem : nullptr);
    out(render_bank(a, format, color));
  });
}

// "st128:(8,4):(8,64)": the instruction, then the pattern layout.
std::optional<AccessPattern> parse_pattern(const Settings& s, const std::string& role, const std::string& text) {
  const auto colon = text.find(':');
  const std::string kind = text.substr(0, colon == std::string::npos ? text.size() : colon);
  if (colon == std::string::npos) {
    report_error(fmt::format("--{} takes KIND:PATTERN, KIND one of {} or a copy atom", role,
                             fmt::join(access_names(), " ")), text, 0, true);
    return std::nullopt;
  }
  std::string why;
  const std::optional<SharedAccess> access = access_named(kind, role == "write", why);
  if (!access) {
    report_error(why, text, 0, true);
    return std::nullopt;
  }
  const std::optional<Value> v = evaluate_option(s, text.substr(colon + 1), colon + 1, text);
  if (!v) return std::nullopt;
  try {
    return AccessPattern{role, *access, require_layout(*v, role.c_str())};
  } catch (const Error& e) {
    report_error(e.what(), text, 0, false);
    return std::nullopt;
  }
}

struct SearchArgs {
  std::string tile;
  ElementSize elem;
  std::vector<std::string> writes, reads;
  SearchOptions options;
  bool no_padding = false, no_swizzle = false, json = false, stats = false;
};

int run_search(const Settings& s, const SearchArgs& args) {
  Diagnostics& diag = Diagnostics::current();
  diag.clear();
  diag.strict = s.strict;
  std::vector<AccessPattern> patterns;
  for (const auto& [role, list] : {std::pair{"write", &args.writes}, std::pair{"read", &args.reads}})
    for (const auto& text : *list) {
      std::optional<AccessPattern> p = parse_pattern(s, role, text);
      if (!p) return kRejected;
      patterns.push_back(std::move(*p));
    }
  if (patterns.empty()) {
    report_error("swizzle-search needs at least one --write or --read pattern", "", 0, false);
    return kUsage;
  }
  const std::optional<Value> v = evaluate_option(s, args.tile);
  if (!v) return kRejected;
  try {
    const AnyLayout tile = require_layout(*v, "swizzle-search");
    if (!std::holds_alternative<Layout>(tile))
      throw Error(fmt::format("swizzle-search takes the tile without its swizzle, got {}", render_notation(*v)));
    SearchOptions options = args.options;
    options.padding = !args.no_padding;
    options.swizzles = !args.no_swizzle;
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    const SearchResult r = search_swizzles(std::get<Layout>(tile), args.elem.in_bits(), patterns, options);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    for (const auto& w : diag.warnings()) report_warning(w.message);
    out(render_search(r, std::get<Layout>(tile), args.elem.in_bits(), patterns, args.json));
    if (args.stats)
      out(fmt::format("search: {} candidates in {:.2f} ms ({:.2f} ms CPU), {:.0f} candidates per CPU second\n",
                      r.evaluated, took.count() * 1e3, cpu * 1e3, static_cast<double>(r.evaluated) / std::max(cpu, 1e-6)));
  } catch (const Error& e) {
    flush_out();
    report_error(e.what(), args.tile, 0, false);
    return kRejected;
  }
  flush_out();
  return kOk;
}

}  // namespace

Command register_bank(CLI::App& app, Settings& s) {
  auto* sub = app.add_subcommand(
      "bank", "Shared-memory bank conflicts: the wavefronts one warp's access takes, as an H200 counts them");
  sub->footer(
      "THREADS maps lane 0..31 to the element offset the lane accesses (its first element for vectors; for\n"
      "ldmatrix/stmatrix the start of the row it supplies). With --smem, THREADS maps lanes to coordinates of\n"
      "that layout instead; with --tv, THREADS is a CuTe TV layout into --smem. More than 32 lanes: lane + 32*i\n"
      "is instruction i's lane. Example:\n"
      "  layoutx bank \"Sw<3,3,3> o 32:64\" --elem-bytes 2 --access ld128 --json\n"
      "The model, checked against Nsight Compute on an H200: 32 banks of 4 bytes; a phase of lanes takes as many\n"
      "wavefronts as the most distinct words one bank holds (a word read by several lanes is broadcast); 16- and\n"
      "32-bit accesses are one phase, 64-bit ones half-warps, 128-bit ones quarter-warps, ldmatrix/stmatrix one\n"
      "8x16-byte matrix per phase; a 64/128-bit load whose lanes n and n^1 (or n and n^2) all share addresses\n"
      "packs two lanes per slot: phases twice as wide. ideal counts the phases.");
  auto exprs = std::make_shared<std::vector<std::string>>();
  auto access = std::make_shared<std::string>();
  auto elem = std::make_shared<ElementSize>();
  auto smem = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto grid = std::make_shared<bool>(false);
  auto tv = std::make_shared<bool>(false);
  auto* access_option =
      sub->add_option("--access", *access, "The shared-memory instruction (ld128: 128-bit loads, ldsm4: ldmatrix.x4, ...)")
          ->check(CLI::IsMember(access_names()));
  auto atom = std::make_shared<std::string>();
  sub->add_option("--atom", *atom, "The copy atom whose load is the access, e.g. SM75_U32x4_LDSM_N (instead of --access)")
      ->excludes(access_option);
  add_element_size(sub, *elem);
  auto* smem_option =
      sub->add_option("--smem", *smem, "Shared-memory layout the THREADS coordinates index (plain or swizzled)");
  sub->add_flag("--tv", *tv,
                "THREADS is a (thread, value) -> coordinate layout of --smem; each thread accesses its values a "
                "vector at a time")
      ->needs(smem_option);
  auto* json_flag = sub->add_flag("--json", *json, "One JSON object per THREADS");
  sub->add_flag("--grid", *grid, "Bank of every lane and the wavefront schedule, coloured by bank")->excludes(json_flag);
  sub->add_option("THREADS", *exprs, "Lane-to-offset layouts; '-' reads one per line from standard input")->required();
  return {sub, [&s, exprs, access, atom, elem, smem, tv, json, grid] {
            const BankFormat format = *json ? BankFormat::Json : *grid ? BankFormat::Grid : BankFormat::Text;
            return run_bank(s, *exprs, *access, *atom, *elem, *smem, *tv, format);
          }};
}

Command register_swizzle_search(CLI::App& app, Settings& s) {
  auto* sub = app.add_subcommand("swizzle-search",
                                 "Rank Swizzle<B,M,S> and paddings of a shared-memory tile by the wavefronts of its accesses");
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
