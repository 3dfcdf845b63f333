// eq, lookup, coalescing, explain: answers for kernel writers.
#include <fmt/format.h>

#include <charconv>
#include <map>
#include <new>
#include <optional>

#include "driver.hpp"
#include "input_lines.hpp"
#include "layoutx/analysis.hpp"
#include "layoutx/render_analysis.hpp"
#include "output.hpp"

namespace layoutx::cli {

namespace {

// Evaluate one expression, reporting its warnings; on an error report it and return nothing.
std::optional<Value> evaluate_reported(const Settings& s, const std::string& expr) {
  Diagnostics& diag = Diagnostics::current();
  diag.strict = s.strict;
  diag.clear();
  try {
    Value v = evaluate_expression(expr, s.language);
    for (const auto& w : diag.warnings()) report_warning(w.message);
    diag.clear();
    return v;
  } catch (const SourceError& e) {
    report_error(e.what(), expr, e.offset(), true);
  } catch (const Error& e) {
    report_error(e.what(), expr, 0, false);
  } catch (const std::bad_alloc&) {
    report_error("out of memory", expr, 0, false);
  }
  return std::nullopt;
}

std::optional<std::int64_t> parse_integer(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

// ---- eq ------------------------------------------------------------------

struct EqOptions {
  std::vector<std::string> exprs;
  bool structural = false, json = false, quiet = false, no_grid = false;
  std::size_t max_diffs = 8;
  std::int64_t limit = std::int64_t{1} << 26;
};

int run_eq(const Settings& s, const EqOptions& o) {
  std::string problem;
  const std::vector<std::string> exprs = gather(s, o.exprs, 2, problem);
  if (!problem.empty()) {
    report_error(problem, "", 0, false);
    return kUsage;
  }
  if (exprs.size() != 2) {
    report_error(fmt::format("eq compares two layouts, got {} expressions", exprs.size()), "", 0, false);
    return kUsage;
  }
  std::optional<AnyLayout> layouts[2];
  for (int i = 0; i < 2; ++i) {
    const auto v = evaluate_reported(s, exprs[i]);
    if (!v) return kUsage;
    try {
      layouts[i] = require_layout(*v, "eq");
    } catch (const Error& e) {
      report_error(e.what(), exprs[i], 0, false);
      return kUsage;
    }
  }
  const AnyLayout &a = *layouts[0], &b = *layouts[1];
  try {
    bool equal = false;
    if (o.structural) {
      equal = structurally_equal(a, b);
      if (!o.quiet) out(render_structural(equal, a, b, o.json));
    } else {
      const Comparison c = compare_functional(a, b, ComparisonLimits{o.max_diffs, o.limit, o.quiet});
      equal = c.equal;
      if (!o.quiet)
        render_comparison(c, a, b, EqualityView{o.json, use_color(s), !o.no_grid, s.grid.max_cells},
                          [](std::string_view text) { out(text); });
    }
    flush_out();
    return equal ? kOk : kRejected;
  } catch (const Error& e) {
    flush_out();
    report_error(e.what(), "", 0, false);
    return kUsage;
  } catch (const std::bad_alloc&) {
    flush_out();
    report_error("out of memory", "", 0, false);
    return kUsage;
  }
}

// ---- lookup --------------------------------------------------------------

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
      {"--offset", {Query::Offset, &o.offsets}}, {"--index", {Query::Index, &o.indices}}, {"--coord", {Query::Coord, &o.coords}}};
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

void answer(const AnyLayout& l, Query kind, const std::string& text, const Settings& s, const LookupOptions& o) {
  if (kind == Query::Coord) {
    const Value c = evaluate_expression(text, s.language);
    if (!c.is_int_tuple())
      throw Error(fmt::format("a coordinate is an integer or a tuple of them, got a {}", kind_name(c)));
    out(render_location(locate_coordinate(l, c.as_int_tuple()), o.json));
    return;
  }
  const auto n = parse_integer(text);
  if (!n) throw Error(fmt::format("'{}' is not an integer {}", excerpt(text), kind == Query::Offset ? "offset" : "index"));
  if (kind == Query::Index) {
    out(render_location(locate_index(l, *n), o.json));
    return;
  }
  bool any = false;
  const bool truncated = for_each_preimage(l, *n, LookupLimits{o.max_matches}, [&](const Location& loc) {
    any = true;
    out(render_location(loc, o.json));
  });
  if (!any) throw Error(fmt::format("no index maps to offset {}", *n));
  if (truncated)
    report_warning(fmt::format("more than {} indices map to offset {}; the first {} found are shown (raise --max-matches)",
                               o.max_matches, *n, o.max_matches));
}

int run_lookup(const Settings& s, CLI::App* sub, const LookupOptions& o) {
  const auto queries = queries_in_order(sub, o);
  if (queries.empty()) {
    report_error("lookup needs a query: --offset N, --index N or --coord C (each repeatable, '-' reads standard input)",
                 "", 0, false);
    return kUsage;
  }
  if (!integers_where_needed(queries)) return kUsage;
  const auto v = evaluate_reported(s, o.expr);
  if (!v) return kRejected;
  int status = kOk;
  try {
    const AnyLayout l = require_layout(*v, "lookup");
    if (o.header && !o.json) out(render_location_header());
    const auto answer_one = [&](Query kind, const std::string& text) {
      try {
        answer(l, kind, text, s, o);
      } catch (const SourceError& e) {
        flush_out();
        report_error(fmt::format("in the coordinate: {}", e.what()), text, e.offset(), true);
        status = kRejected;
      } catch (const Error& e) {
        flush_out();
        report_error(e.what(), "", 0, false);
        status = kRejected;
      } catch (const std::bad_alloc&) {
        flush_out();
        report_error("out of memory", "", 0, false);
        status = kRejected;
      }
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
  } catch (const Error& e) {
    flush_out();
    report_error(e.what(), o.expr, 0, false);
    status = kRejected;
  }
  flush_out();
  return status;
}

// ---- explain -------------------------------------------------------------

int run_explain(const Settings& s, const std::vector<std::string>& exprs, bool json) {
  int status = kOk;
  Diagnostics& diag = Diagnostics::current();
  diag.strict = s.strict;
  ExpressionSource source(exprs, s.language.max_length);
  while (const auto input = source.next()) {
    const std::string& expr = input->text;
    diag.clear();
    if (!input->problem.empty()) {
      report_error(input->problem, "", 0, false);
      status = kRejected;
      continue;
    }
    trace::Recorder recorder;
    TraceView view{expr, std::nullopt, std::nullopt, false, json};
    try {
      const Value v = evaluate_expression(expr, s.language);
      view.result = render_notation(v);
      view.truncated = recorder.truncated();
      out(render_trace(recorder.events(), view));
      flush_out();
      for (const auto& w : diag.warnings()) report_warning(w.message);
    } catch (const SourceError& e) {
      // The steps up to the failure are the explanation; a syntax error has none.
      view.error = e.what();
      view.truncated = recorder.truncated();
      if (!recorder.events().empty()) out(render_trace(recorder.events(), view));
      flush_out();
      report_error(e.what(), expr, e.offset(), true);
      status = kRejected;
    }
  }
  return status;
}

// ---- coalescing ----------------------------------------------------------

struct CoalescingCli {
  std::vector<std::string> exprs;
  CoalescingOptions options;
  std::int64_t vector = 0;  // 0: the widest usable
  bool json = false;
};

}  // namespace

Command register_eq(CLI::App& app, Settings& s) {
  auto* sub = app.add_subcommand(
      "eq", "Compare two layouts as functions of the index (exit 0 equal, 1 different, 2 usage or bad expression)");
  auto o = std::make_shared<EqOptions>();
  sub->add_option("EXPR", o->exprs, "The two layouts A and B; '-' reads them from standard input")->required();
  sub->add_flag("--structural", o->structural, "CuTe's ==: the same shape and stride (not only the same offsets)");
  sub->add_flag("--json", o->json, "One JSON object");
  sub->add_flag("-q,--quiet", o->quiet, "No output: the exit status says it");
  sub->add_flag("--no-grid", o->no_grid, "Leave out the grid that marks the differing cells");
  sub->add_option("--max-diffs", o->max_diffs, "Differing indices listed (default 8)")->check(integer_range(0, 1000000));
  sub->add_option("--limit", o->limit, "Indices compared one by one at most (default 67108864)")
      ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 40));
  // A failure to write the answer is eq's trouble status, not "different".
  return {sub, [&s, o] {
            try {
              return run_eq(s, *o);
            } catch (const OutputFailure&) {
              return kUsage;
            }
          }};
}

Command register_lookup(CLI::App& app, Settings& s) {
  auto* sub = app.add_subcommand(
      "lookup",
      "Offset -> every index reaching it; index or coordinate -> offset. Lines of index, flat (per-mode) coordinate, "
      "natural coordinate, offset, tab-separated (exit 0 all answered, 1 some not, 2 usage)");
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

Command register_coalescing(CLI::App& app, Settings& s) {
  auto* sub = app.add_subcommand(
      "coalescing",
      "Global-memory sectors and lines per warp instruction of a (thread, value) -> offset layout, against the "
      "minimum (exit 0 ok, 1 rejected, 2 usage)");
  auto c = std::make_shared<CoalescingCli>();
  sub->add_option("EXPR", c->exprs,
                  "Layouts: mode 0 the thread, mode 1 (and up) the value; rank 1: one element per thread. "
                  "'-' reads them from standard input")
      ->required();
  sub->add_option("-e,--element-bytes", c->options.element_bytes, "Bytes per element (default 4)")
      ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 20));
  sub->add_option("-w,--warp", c->options.warp, "Threads per warp (default 32)")
      ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 20));
  sub->add_option("--vector", c->vector, "Elements per access (default: the widest usable)")
      ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 20));
  sub->add_option("--max-vector-bytes", c->options.max_vector_bytes, "Widest access a thread issues (default 16)")
      ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 20));
  sub->add_option("--sector-bytes", c->options.sector_bytes, "Sector size (default 32)")
      ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 20));
  sub->add_option("--line-bytes", c->options.line_bytes, "Cache line size (default 128)")
      ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 20));
  sub->add_flag("--threads", c->options.threads_only, "Every mode is the thread: one element per thread");
  sub->add_option("--limit", c->options.max_elements, "Largest layout analysed, in elements (default 67108864)")
      ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 40));
  sub->add_flag("--json", c->json, "One JSON object per expression");
  return {sub, [&s, c] {
            CoalescingOptions options = c->options;
            if (c->vector > 0) options.vector = c->vector;
            return for_each_expression(s, c->exprs, [&](const Value& v) {
              const AnyLayout l = require_layout(v, "coalescing");
              const std::string report = render_coalescing(analyse_coalescing(l, options), options, c->json);
              out(c->json ? report : fmt::format("layout: {}\n{}", render_notation(Value::of(l)), report));
            });
          }};
}

Command register_explain(CLI::App& app, Settings& s) {
  auto* sub = app.add_subcommand(
      "explain",
      "The steps CuTe's algorithms take in composition, complement, the inverses, divides and products (exit 0 ok, "
      "1 rejected: the steps up to the failure, 2 usage)");
  auto exprs = std::make_shared<std::vector<std::string>>();
  auto json = std::make_shared<bool>(false);
  add_expressions(sub, *exprs);
  sub->add_flag("--json", *json, "One JSON object per expression, the operations nested");
  return {sub, [&s, exprs, json] { return run_explain(s, *exprs, *json); }};
}

}  // namespace layoutx::cli
