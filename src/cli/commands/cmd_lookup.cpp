// lookup: from an offset to every index reaching it, from an index or a
// coordinate to its offset.
#include <fmt/format.h>

#include <charconv>
#include <map>
#include <optional>

#include "driver.hpp"
#include "io/input_lines.hpp"
#include "layoutx/analysis.hpp"
#include "layoutx/render_analysis.hpp"
#include "io/output.hpp"

namespace layoutx::cli {

namespace {

std::optional<std::int64_t> parse_integer(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

struct LookupOptions {
  std::string expr;
  std::vector<std::string> offsets, indices, coords;
  bool json = false, header = false;
  std::size_t max_matches = 1000;
};

enum class Query { Offset, Index, Coord };

// The queries in command-line order; a '-' value stands for the lines of
// standard input and is kept as it is, to be read while answering.
std::vector<std::pair<Query, std::string>> queries_in_order(CLI::App* sub, const LookupOptions& o) {
  std::vector<std::pair<Query, std::string>> out;
  std::map<std::string, std::size_t> seen;
  const std::map<std::string, std::pair<Query, const std::vector<std::string>*>> options = {
      {"--offset", {Query::Offset, &o.offsets}},
      {"--index", {Query::Index, &o.indices}},
      {"--coord", {Query::Coord, &o.coords}}};
  for (const CLI::Option* opt : sub->parse_order()) {
    const auto it = options.find(opt->get_name());
    if (it == options.end()) continue;
    const auto [kind, all] = it->second;
    const std::vector<std::string>& values = *all;
    const std::size_t i = seen[it->first]++;
    if (i < values.size()) out.emplace_back(kind, values[i]);
  }
  return out;
}

// An --offset or --index on the command line that is no integer is a usage
// error (lines of standard input are data: each is answered or rejected).
bool integers_where_needed(const std::vector<std::pair<Query, std::string>>& queries) {
  for (const auto& [kind, text] : queries) {
    if (kind == Query::Coord || text == "-" || parse_integer(text)) continue;
    report_error(fmt::format("{} '{}': not an integer", kind == Query::Offset ? "--offset" : "--index", text), "", 0,
                 false);
    return false;
  }
  return true;
}

int answer(const AnyLayout& l, Query kind, const std::string& text, const Settings& s, const LookupOptions& o) {
  if (kind == Query::Coord) {
    Diagnostics diag = diagnostics(s);  // a coordinate's warnings are not reported; under --strict they refuse it
    const Value c = evaluate_expression(text, s.language, diag);
    if (!c.is_int_tuple())
      throw Error(fmt::format("a coordinate is an integer or a tuple of them, got {}", a_kind_name(c)));
    out(render_location(locate_coordinate(l, c.as_int_tuple()), o.json));
    return kOk;
  }
  const auto n = parse_integer(text);
  if (!n)
    throw Error(fmt::format("'{}' is not an integer {}", excerpt(text), kind == Query::Offset ? "offset" : "index"));
  if (kind == Query::Index) {
    out(render_location(locate_index(l, *n), o.json));
    return kOk;
  }
  bool any = false;
  const bool json = o.json;
  const bool truncated = for_each_preimage(
      l, *n, LookupLimits{o.max_matches}, [json](const Location& loc) { return render_location(loc, json); },
      [&](std::string_view line) {
        any = true;
        out(line);
      });
  if (!any) throw Error(fmt::format("no index maps to offset {}", *n));
  if (truncated)
    report_warning(
        fmt::format("more than {} indices map to offset {}; the first {} found are shown (raise --max-matches)",
                    o.max_matches, *n, o.max_matches));
  return kOk;
}

int run_lookup(const Settings& s, CLI::App* sub, const LookupOptions& o) {
  const auto queries = queries_in_order(sub, o);
  if (queries.empty()) {
    report_error("lookup needs a query: --offset N, --index N or --coord C (each repeatable, '-' reads standard input)",
                 "", 0, false);
    return kUsage;
  }
  if (!integers_where_needed(queries)) return kUsage;
  std::optional<AnyLayout> l;
  const int found = run_reporting_errors({o.expr}, notation(s), [&] {
    l = require_offset_layout(evaluate_reporting_warnings(s, o.expr), "lookup", notation(s));
    return kOk;
  });
  if (found != kOk) return kRejected;
  int status = kOk;
  if (o.header && !o.json) out(render_location_header());
  const auto answer_one = [&](Query kind, const std::string& text) {
    const ErrorContext shown{text, 0, "in the coordinate: "};
    if (run_reporting_errors(shown, notation(s), [&] { return answer(*l, kind, text, s, o); }) != kOk)
      status = kRejected;
  };
  for (const auto& [kind, text] : queries) {
    if (text != "-") {
      answer_one(kind, text);
      continue;
    }
    ExpressionSource lines({"-"}, s.language.max_length);
    while (const auto line = lines.next()) {
      if (line->problem.empty()) {
        answer_one(kind, line->text);
      } else {
        report_error(line->problem, "", 0, false);
        status = kRejected;
      }
    }
  }
  flush_out();
  return status;
}

}  // namespace

Command register_lookup(CLI::App* sub, Settings& s) {
  auto o = std::make_shared<LookupOptions>();
  sub->add_option("EXPR", o->expr, "The layout")->required();
  sub->add_option("-o,--offset", o->offsets, "Every index whose offset is N; '-' reads offsets from standard input")
      ->allow_extra_args(false);
  sub->add_option("-i,--index", o->indices, "The coordinates and offset of 1-D index N; '-' reads standard input")
      ->allow_extra_args(false);
  sub->add_option("-c,--coord", o->coords, "The index and offset of coordinate C, e.g. '(1,2)' or '((1,0),2)'")
      ->allow_extra_args(false);
  sub->add_flag("--json", o->json, "One JSON object per answer (JSON Lines)");
  sub->add_flag("--header", o->header, "Start with a header line naming the columns");
  sub->add_option("--max-matches", o->max_matches, "Indices listed per offset at most (default 1000)")
      ->check(integer_range(1, 100000000));
  return {sub, [&s, o, sub] { return run_lookup(s, sub, *o); }};
}

}  // namespace layoutx::cli
