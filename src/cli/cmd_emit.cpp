// emit: each value as source code that builds it (CuTe C++ type and
// expression, CuTe Python DSL call).
#include "driver.hpp"
#include "layoutx/render_code.hpp"
#include "output.hpp"

namespace layoutx::cli {

namespace {

// One form alone is printed bare (to paste or pipe); all of them are labelled.
std::string emitted(const Value& v, const std::string& as) {
  if (as == "type") return render_code(v, CodeForm::CppType) + "\n";
  if (as == "cpp") return render_code(v, CodeForm::CppExpression) + "\n";
  if (as == "python") return render_code(v, CodeForm::Python) + "\n";
  std::string text = "type:   " + render_code(v, CodeForm::CppType) + "\n";
  text += "cpp:    " + render_code(v, CodeForm::CppExpression) + "\n";
  if (v.kind != Value::Kind::LayoutLeft && v.kind != Value::Kind::LayoutRight)
    text += "python: " + render_code(v, CodeForm::Python) + "\n";
  return text;
}

}  // namespace

Command register_emit(CLI::App* sub, Settings& s) {
  auto exprs = std::make_shared<std::vector<std::string>>();
  auto as = std::make_shared<std::string>("all");
  sub->add_option("--as", *as,
                  "type (C++ type), cpp (C++ expression), python (CuTe Python DSL) or all (each on a labelled line)")
      ->check(CLI::IsMember({"all", "type", "cpp", "python"}));
  add_expressions(sub, *exprs);
  return {sub, [&s, exprs, as] {
            return for_each_expression(s, *exprs, [&](const Value& v) { out(emitted(v, *as)); });
          }};
}

}  // namespace layoutx::cli
