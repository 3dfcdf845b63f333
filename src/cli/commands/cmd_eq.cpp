// eq: two layouts compared as functions of the index, or as CuTe's == does.
#include <fmt/format.h>

#include <optional>

#include "driver.hpp"
#include "layoutx/analysis.hpp"
#include "layoutx/render_analysis.hpp"
#include "io/output.hpp"

namespace layoutx::cli {

namespace {

struct EqOptions {
  std::vector<std::string> exprs;
  bool structural = false, json = false, quiet = false, no_grid = false;
  std::size_t max_diffs = 8;
  std::int64_t limit = std::int64_t{1} << 26;
};

int run_eq(const Settings& s, const EqOptions& o) {
  std::string problem;
  const std::vector<std::string> exprs = read_expressions(s, o.exprs, 2, problem);
  if (!problem.empty()) {
    report_error(problem, "", 0, false);
    return kUsage;
  }
  if (exprs.size() != 2) {
    report_error(
        fmt::format("eq compares two layouts, got {} expression{}", exprs.size(), exprs.size() == 1 ? "" : "s"), "", 0,
        false);
    return kUsage;
  }
  std::optional<AnyLayout> layouts[2];
  for (int i = 0; i < 2; ++i) {
    const int status = run_reporting_errors({exprs[i]}, notation(s), [&] {
      layouts[i] = require_layout(evaluate_reporting_warnings(s, exprs[i]), "eq", notation(s));
      return kOk;
    });
    if (status != kOk) return kUsage;
  }
  const AnyLayout &a = *layouts[0], &b = *layouts[1];
  bool equal = false;
  const int status = run_reporting_errors({}, notation(s), [&] {
    if (o.structural) {
      equal = structurally_equal(a, b);
      if (!o.quiet) out(render_structural(equal, a, b, o.json, notation(s)));
    } else {
      const Comparison c = compare_functional(a, b, ComparisonLimits{o.max_diffs, o.limit, o.quiet});
      equal = c.equal;
      if (!o.quiet)
        render_comparison(c, a, b, EqualityView{o.json, use_color(s), !o.no_grid, s.grid.max_cells, notation(s)},
                          [](std::string_view text) { out(text); });
    }
    flush_out();
    return kOk;
  });
  if (status != kOk) return kUsage;
  return equal ? kOk : kRejected;
}

}  // namespace

Command register_eq(CLI::App* sub, Settings& s) {
  auto o = std::make_shared<EqOptions>();
  sub->add_option("EXPR", o->exprs, "The two layouts A and B; '-' reads them from standard input")->required();
  sub->add_flag("--structural", o->structural, "CuTe's ==: the same shape and stride (not only the same offsets)");
  sub->add_flag("--json", o->json, "One JSON object");
  sub->add_flag("-q,--quiet", o->quiet, "No output: the exit status says it");
  sub->add_flag("--no-grid", o->no_grid, "Leave out the grid that marks the differing cells");
  sub->add_option("--max-diffs", o->max_diffs, "Differing indices listed (default 8)")
      ->check(integer_range(0, 1000000));
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

}  // namespace layoutx::cli
