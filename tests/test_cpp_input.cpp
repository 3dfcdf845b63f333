// The expression language read as pasted CuTe C++ (tests/data/cpp_snippets.tsv:
// each snippet with CuTe's own print of it), and the language cases of
// tests/data/expression_cases.tsv: what an expression evaluates to, or the
// message and caret position it is refused with.
#include <doctest/doctest.h>

#include <string>

#include "golden_cases.hpp"
#include "layoutx/language.hpp"
#include "layoutx/render.hpp"
#include "test_support.hpp"

namespace layoutx::test {

namespace {

std::string eval_text(const std::string& expr, const LanguageOptions& options) {
  fresh_diagnostics();
  try {
    return render_notation(evaluate_expression(expr, options));
  } catch (const Error& e) {
    return std::string("error: ") + e.what();
  }
}

LanguageOptions dynamic_mode() {
  LanguageOptions o;
  o.dynamic = true;
  return o;
}

}  // namespace

TEST_CASE("C++ input: pasted CuTe snippets print as CuTe prints them") {
  const auto rows = read_tsv("cpp_snippets.tsv");
  CHECK(rows.size() >= 50);
  for (const auto& row : rows) {
    REQUIRE(row.size() == 3);
    const std::string& snippet = row[1];
    const std::string& cute = row[2];
    CAPTURE(snippet);
    {
      const StaticMarks marks(true);  // CuTe-exact: plain integers dynamic, marks shown
      CHECK(eval_text(snippet, dynamic_mode()) == cute);
    }
    const StaticMarks marks(false);  // the default mode
    CHECK(eval_text(snippet, LanguageOptions{}) == unmark(cute));
  }
}

TEST_CASE("expression cases: values, and refusals with their message and caret") {
  const StaticMarks marks(false);
  for (const auto& row : read_tsv("expression_cases.tsv")) {
    REQUIRE(row.size() >= 3);
    const std::string& expr = row[1];
    CAPTURE(expr);
    if (row[0] == "value") {
      CHECK(eval_text(expr, LanguageOptions{}) == row[2]);
      continue;
    }
    REQUIRE(row[0] == "error");
    REQUIRE(row.size() == 4);
    fresh_diagnostics();
    try {
      const Value v = evaluate_expression(expr, LanguageOptions{});
      FAIL_CHECK("accepted, gave " << render_notation(v));
    } catch (const SourceError& e) {
      CHECK(std::string(e.what()) == row[2]);
      CHECK(e.offset() == std::stoul(row[3]));
    }
  }
}

}  // namespace layoutx::test
