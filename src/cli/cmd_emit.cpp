// emit: each layout in another notation; --triton: Triton's linear layout
// attribute (#ttg.linear, or #ttg.shared_linear for shared memory).
#include "driver.hpp"
#include "layoutx/triton_cute.hpp"
#include "layoutx/triton_encoding.hpp"
#include "output.hpp"

namespace layoutx::cli {

namespace {

// A Triton layout's own linear layout; a CuTe layout's over --shape: a TV
// layout (thread, value) -> element index, or with --smem an smem layout
// element -> offset.
std::string triton_attribute(const Settings& s, std::string_view text, bool smem) {
  if (triton::is_triton_text(text)) return triton::to_attribute_text(read_triton(s, text)) + "\n";
  const AnyLayout l = require_layout(evaluate_warning(s, text), "emit --triton");
  return triton::to_attribute_text(smem ? triton::from_cute_smem(l, s.shape) : triton::from_cute_tv(l, s.shape)) + "\n";
}

}  // namespace

Command register_emit(CLI::App* sub, Settings& s) {
  auto exprs = std::make_shared<std::vector<std::string>>();
  auto triton_form = std::make_shared<bool>(false);
  auto smem = std::make_shared<bool>(false);
  sub->add_flag("--triton", *triton_form, "Triton's linear layout attribute (#ttg.linear, #ttg.shared_linear)")->required();
  sub->add_flag("--smem", *smem, "The CuTe layout is an smem layout (element -> offset), not a TV layout");
  sub->add_option("--shape", s.shape, "Tensor shape the layout covers, e.g. 16,32")
      ->delimiter(',')
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 24));
  add_expressions(sub, *exprs);
  return {sub, [&s, exprs, smem] {
            return for_each_expression_text(s, *exprs, [&](std::string_view text) {
              out(triton_attribute(s, text, *smem));
              report_warnings();
              return kOk;
            });
          }};
}

}  // namespace layoutx::cli
