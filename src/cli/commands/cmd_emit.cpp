// emit: each value as source code that builds it (CuTe C++ type and
// expression, CuTe Python DSL call); --triton: Triton's linear layout
// attribute (#ttg.linear, or #ttg.shared_linear for shared memory).
#include "driver.hpp"
#include "layoutx/render_code.hpp"
#include "layoutx/triton_cute.hpp"
#include "layoutx/triton_encoding.hpp"
#include "io/output.hpp"

namespace layoutx::cli {

namespace {

// One form alone is printed bare (to paste or pipe); all of them are labelled.
std::string emitted(const Value& v, const std::string& as) {
  if (as == "type") return render_code(v, CodeForm::CppType) + "\n";
  if (as == "cpp") return render_code(v, CodeForm::CppExpression) + "\n";
  if (as == "python") return render_code(v, CodeForm::Python) + "\n";
  std::string text = "type:   " + render_code(v, CodeForm::CppType) + "\n";
  text += "cpp:    " + render_code(v, CodeForm::CppExpression) + "\n";
  if (has_python_form(v)) text += "python: " + render_code(v, CodeForm::Python) + "\n";
  return text;
}

// A Triton layout's own linear layout; a CuTe layout's over --shape: a TV
// layout (thread, value) -> element index (threads past `warps` warps are
// further CTAs), or with --smem an smem layout element -> offset; without
// --shape, the layout's function index -> offset as one thread's registers.
std::string triton_attribute(const Settings& s, std::string_view text, bool smem, std::int64_t warps) {
  if (triton::is_triton_text(text)) return triton::to_attribute_text(read_triton(s, text)) + "\n";
  const AnyLayout l = require_offset_layout(evaluate_reporting_warnings(s, text), "emit --triton", notation(s));
  // Without a tensor shape, the layout's own function (index -> offset) over F2.
  if (s.shape.empty() && !smem && warps == 0) return triton::to_attribute_text(triton::from_cute_layout(l)) + "\n";
  return triton::to_attribute_text(smem ? triton::from_cute_smem(l, s.shape)
                                        : triton::from_cute_tv(l, s.shape, 32, warps)) +
         "\n";
}

}  // namespace

Command register_emit(CLI::App* sub, Settings& s) {
  auto exprs = std::make_shared<std::vector<std::string>>();
  auto as = std::make_shared<std::string>("all");
  sub->add_option("--as", *as,
                  "type (C++ type), cpp (C++ expression), python (CuTe Python DSL) or all (each on a labelled line)")
      ->check(CLI::IsMember({"all", "type", "cpp", "python"}));
  auto triton_form = std::make_shared<bool>(false);
  auto smem = std::make_shared<bool>(false);
  sub->add_flag("--triton", *triton_form, "Triton's linear layout attribute (#ttg.linear, #ttg.shared_linear)");
  sub->add_flag("--smem", *smem,
                "With --triton: the CuTe layout is an smem layout (element -> offset), not a TV layout");
  auto warps = std::make_shared<std::int64_t>(0);
  auto* warps_option =
      sub->add_option(
             "--warps", *warps,
             "With --triton: warps per CTA of a CuTe TV layout; threads past them are further CTAs (block bases)")
          ->check(CLI::IsMember({1, 2, 4, 8, 16, 32}));
  auto* shape_option = add_shape_option(sub, s.shape, "With --triton: the tensor shape the layout covers, e.g. 16,32");
  add_expressions(sub, *exprs);
  auto* as_option = sub->get_option("--as");
  return {sub, [&s, exprs, as, triton_form, smem, warps, warps_option, shape_option, as_option] {
            if (!*triton_form && (*smem || warps_option->count() > 0 || shape_option->count() > 0)) {
              report_error("--smem, --warps and --shape shape emit --triton's attribute: give --triton with them", "",
                           0, false);
              return kUsage;
            }
            if (*triton_form && as_option->count() > 0) {
              report_error("--as picks a CuTe form; emit --triton writes Triton's attribute", "", 0, false);
              return kUsage;
            }
            if (*triton_form)
              return for_each_expression_text(s, *exprs, [&](std::string_view text) {
                out(triton_attribute(s, text, *smem, *warps));
                return kOk;
              });
            return for_each_expression(s, *exprs, [&](const Value& v) { out(emitted(v, *as)); });
          }};
}

}  // namespace layoutx::cli
