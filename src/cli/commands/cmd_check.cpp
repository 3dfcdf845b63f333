// check: each expression evaluated once, then verify::check's findings
// (host offsets against the independent evaluator, the outermost
// operation's defining property) written out; a failure is exit 1.
#include <fmt/format.h>

#include "driver.hpp"
#include "layoutx/device.hpp"
#include "layoutx/triton_encoding.hpp"
#include "layoutx/verify.hpp"
#include "io/output.hpp"

namespace layoutx::cli {

namespace {

int check_expression(const Settings& s, const verify::Options& o, const std::string& text) {
  Diagnostics diag = diagnostics(s);
  // A Triton layout is a literal: its CuTe form, no operation to check.
  const Evaluation e = triton::is_triton_text(text) ? Evaluation{evaluate_input(s, text, diag), std::nullopt}
                                                    : evaluate_with_operands(text, s.language, diag);
  const bool warned = report_warnings(diag);
  // The checks' own evaluations warn into diag too; those warnings are not the expression's.
  const verify::Report r = verify::check(e, warned, o, diag);
  out(fmt::format("check {}\n  R = {}\n{}", text, to_text(e.value, notation(s)), r.lines));
  if (r.failed) {
    flush_out();
    report_error(fmt::format("check failed for {}", text), text, 0, false);
    return kRejected;
  }
  return kOk;
}

int run_check(const Settings& s, const verify::Options& o, const std::vector<std::string>& expressions) {
  if (o.where == device::Where::Gpu) {
    const std::string why = device::gpu_unavailable_reason();
    if (!why.empty()) {
      report_error(fmt::format("check --device: {}", why), "", 0, false);
      return kRejected;
    }
    out(fmt::format("device: {}\n", device::gpu_description()));
  }
  return for_each_expression_text(s, expressions,
                                  [&](std::string_view expr) { return check_expression(s, o, std::string(expr)); });
}

}  // namespace

Command register_check(CLI::App* sub, Settings& s) {
  auto exprs = std::make_shared<std::vector<std::string>>();
  auto o = std::make_shared<verify::Options>();
  auto on_gpu = std::make_shared<bool>(false);
  sub->add_flag("--device", *on_gpu, "Run the independent evaluator on the CUDA GPU (else the same code on the CPU)");
  sub->add_option("--first", o->first, "Failures listed per property (default 5)")->check(CLI::Range(1, 64));
  sub->add_option(
         "--limit", o->max_points,
         fmt::format("Points evaluated per property at most (default {}; at most 2^32)", verify::kDefaultMaxPoints))
      ->check(CLI::Range(std::uint64_t{1}, device::kMaxPoints));
  add_expressions(sub, *exprs);
  return {sub, [&s, exprs, o, on_gpu] {
            o->where = *on_gpu ? device::Where::Gpu : device::Where::Cpu;
            return run_check(s, *o, *exprs);
          }};
}

}  // namespace layoutx::cli
