// Tensors and tiled operations as values (tests/data/tensor_snippets.tsv: each
// expression with CuTe's own print of the value, or print_tensor of it).
#include <doctest/doctest.h>

#include <string>

#include "golden_cases.hpp"
#include "layoutx/atom_language.hpp"
#include "layoutx/render.hpp"
#include "layoutx/tensor.hpp"
#include "test_support.hpp"

namespace layoutx::test {

namespace {

// The table's text: \n a newline, \\ a backslash, \t a tab.
std::string unescaped(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    const char c = s[++i];
    out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
  }
  return out;
}

// What CuTe's print(v) or print_tensor(v) writes for the expression's value.
std::string printed(const std::string& form, const std::string& expr, bool dynamic) {
  LanguageOptions options;
  options.dynamic = dynamic;
  options.extension = &atom_language();
  const Notation n{.static_marks = dynamic};
  try {
    const Value v = evaluated(expr, options);
    if (form == "print_tensor") {
      REQUIRE(v.kind == Value::Kind::Tensor);
      return print_tensor_text(as_tensor(v), n);
    }
    std::string text = render_notation(v, n);
    if (v.object && v.object->print_ends_line()) text += '\n';
    return masked_addresses(text);
  } catch (const Error& e) {
    return std::string("error: ") + e.what();
  }
}

}  // namespace

TEST_CASE("tensors: values print as CuTe prints them") {
  const auto rows = read_tsv("tensor_snippets.tsv");
  CHECK(rows.size() >= 100);
  for (const auto& row : rows) {
    REQUIRE(row.size() == 4);
    const std::string& expr = row[1];
    const std::string cute = unescaped(row[3]);
    CAPTURE(expr);
    CHECK(printed(row[0], expr, true) == cute);
    CHECK(printed(row[0], expr, false) == unmark(cute));
  }
}

}  // namespace layoutx::test
