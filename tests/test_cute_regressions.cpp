// Regression cases where layoutx once answered differently from CuTe
// (tests/data/cute_regressions.jsonl). Each case holds the C++ CuTe computation
// and what CuTe printed for it (tests/tools/cute_answers.py fills that in by
// compiling it), plus whether layoutx must warn about the answer.
#include <doctest/doctest.h>

#include "golden_cases.hpp"
#include "json_lines.hpp"
#include "layoutx/language.hpp"
#include "layoutx/render.hpp"
#include "test_support.hpp"

namespace layoutx::test {

namespace {

struct RegressionCase {
  std::string id, expr;
  bool dynamic = false, error = false, warns = false;
  std::string print;  // CuTe's print text, static marks included
};

std::vector<RegressionCase> regression_cases() {
  std::vector<RegressionCase> cases;
  for (const Json& j : read_json_lines(std::string(LAYOUTX_TEST_DATA) + "/cute_regressions.jsonl")) {
    RegressionCase c;
    c.id = j["id"].string;
    c.expr = j["expr"].string;
    c.dynamic = j["dynamic"].boolean;
    c.error = j["error"].boolean;
    c.warns = j["warns"].boolean;
    if (!c.error) c.print = j["print"].string;
    cases.push_back(std::move(c));
  }
  return cases;
}

// What layoutx prints for the case (marks kept only in --dynamic mode), or why it refused.
std::string answer(const RegressionCase& c, bool& refused, bool& warned) {
  LanguageOptions options;
  options.dynamic = c.dynamic;
  refused = false;
  Diagnostics diag;
  try {
    const Value v = evaluate_expression(c.expr, options, diag);
    warned = !diag.warnings().empty();
    return render_notation(v, Notation{.static_marks = c.dynamic});
  } catch (const Error& e) {
    refused = true;
    return std::string("error: ") + e.what();
  }
}

}  // namespace

TEST_CASE("cute regressions: layoutx answers what CuTe printed, and warns where it should") {
  const auto cases = regression_cases();
  REQUIRE(cases.size() >= 60);
  Mismatches mismatches;
  for (const RegressionCase& c : cases) {
    bool refused = false, warned = false;
    const std::string got = answer(c, refused, warned);
    const std::string want = c.error ? std::string("an error") : c.dynamic ? c.print : unmark(c.print);
    const bool ok = c.error ? refused : (!refused && got == want && warned == c.warns);
    if (!ok && mismatches.report()) {
      INFO("case " << c.id << (c.dynamic ? " (--dynamic): " : ": ") << c.expr);
      INFO("CuTe: " << want << (c.warns ? " (with a warning)" : ""));
      INFO("layoutx: " << got << (warned ? " (with a warning)" : ""));
      CHECK(ok);
    }
  }
  CHECK_MESSAGE(mismatches.count() == 0, mismatches.count() << " of " << cases.size() << " cases differ");
}

}  // namespace layoutx::test
