// explain: the steps CuTe's algorithms take in composition, complement, the
// inverses, divides and products.
#include "driver.hpp"
#include "layoutx/render_analysis.hpp"
#include "io/output.hpp"

namespace layoutx::cli {

namespace {

int run_explain(const Settings& s, const std::vector<std::string>& exprs, bool json) {
  return for_each_expression_text(s, exprs, [&](std::string_view expr) {
    trace::Recorder recorder(notation(s));
    TraceView view{std::string(expr), std::nullopt, std::nullopt, false, json};
    Diagnostics diag(s.strict, notation(s), &recorder);
    try {
      const Value v = evaluate_expression(expr, s.language, diag);
      view.result = render_notation(v, notation(s));
      view.truncated = recorder.truncated();
      out(render_trace(recorder.events(), view));
      flush_out();
      report_warnings(diag);
    } catch (const SourceError& e) {
      // The steps up to the failure are the explanation; a syntax error has none.
      view.error = e.message(notation(s));
      view.truncated = recorder.truncated();
      if (!recorder.events().empty()) out(render_trace(recorder.events(), view));
      throw;
    }
    return kOk;
  });
}

}  // namespace

Command register_explain(CLI::App* sub, Settings& s) {
  auto exprs = std::make_shared<std::vector<std::string>>();
  auto json = std::make_shared<bool>(false);
  add_expressions(sub, *exprs);
  sub->add_flag("--json", *json, "One JSON object per expression, the operations nested");
  return {sub, [&s, exprs, json] { return run_explain(s, *exprs, *json); }};
}

}  // namespace layoutx::cli
