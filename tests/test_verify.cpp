// check's oracle: each row of tests/data/verify_cases.tsv evaluated once and
// verified on the CPU, its outcome and a piece of its report compared, and
// its report the same whatever the number of threads.
#include <doctest/doctest.h>

#include "layoutx/language.hpp"
#include "layoutx/verify.hpp"
#include "test_support.hpp"

namespace layoutx {

namespace {

struct Checked {
  std::string outcome, report;
};

// The row's expression checked on the CPU: its outcome and its report (or the message it stops with).
Checked checked(const std::string& text, const verify::Options& o) {
  try {
    Diagnostics diag;
    const Evaluation e = evaluate_with_operands(text, LanguageOptions{}, diag);
    const bool warned = !diag.warnings().empty();
    const verify::Report r = verify::check(e, warned, o, diag);
    return {r.failed ? "fail" : "pass", r.lines};
  } catch (const Error& e) {
    return {"error", e.what()};
  }
}

}  // namespace

TEST_CASE("verify::check: every row of verify_cases.tsv, the same on 1, 2, 3 and 8 threads") {
  for (const auto& row : test::read_tsv("verify_cases.tsv")) {
    REQUIRE(row.size() == 4);
    const std::string& text = row[0];
    CAPTURE(text);
    verify::Options o;
    if (row[1] != "-") o.max_points = std::stoull(row[1]);
    o.threads = 1;
    const Checked one = checked(text, o);
    CAPTURE(one.report);
    CHECK(one.outcome == row[2]);
    if (row[3] != "-") CHECK(one.report.find(row[3]) != std::string::npos);
    for (int threads : {2, 3, 8}) {
      CAPTURE(threads);
      o.threads = threads;
      const Checked many = checked(text, o);
      CHECK(many.outcome == one.outcome);
      CHECK(many.report == one.report);
    }
  }
}

TEST_CASE("evaluate_with_operands keeps the outermost operation's operands") {
  Diagnostics diag;
  struct Row {
    const char* text;
    Property property;
    const char* name;
    std::vector<std::string> operands;
  };
  const std::vector<Row> table = {
      {"logical_divide((8,8):(8,1), (2,4))", Property::Divide, "logical_divide", {"(8,8):(8,1)", "(2,4)"}},
      {"  composition( make_layout(4,2) ,get<1>((3,4)) )  ", Property::Composition, "composition", {"4:2", "4"}},
      {"(4,3):(3,1) o 2:2", Property::Composition, "composition", {"(4,3):(3,1)", "2:2"}},
      {"(8,8) o Sw<3,4,3> o 0 o (8,64):(64,1)",
       Property::Composition,
       "composition",
       {"(8,8)", "Sw<3,4,3> o 0 o (8,64):(64,1)"}},
      {"raked_product(2:1, 3)", Property::BlockProduct, "raked_product", {"2:1", "3"}},
  };
  for (const auto& row : table) {
    CAPTURE(row.text);
    const Evaluation e = evaluate_with_operands(row.text, LanguageOptions{}, diag);
    REQUIRE(e.outer);
    CHECK(e.outer->property == row.property);
    CHECK(e.outer->name == row.name);
    std::vector<std::string> got;
    for (const auto& v : e.outer->operands) got.push_back(to_text(v));
    CHECK(got == row.operands);
  }
  // No operation of a known property: nothing kept.
  for (const char* text : {"(4,3):(3,1)", "make_layout(4)(2)", "size((2,3))", "Sw<3,4,3> o 0 o (8,64):(64,1)"}) {
    CAPTURE(text);
    CHECK_FALSE(evaluate_with_operands(text, LanguageOptions{}, diag).outer);
  }
}

TEST_CASE("the kept operation runs again on other operands") {
  Diagnostics diag;
  const Evaluation e = evaluate_with_operands("logical_divide((8,8):(8,1), (2,4))", LanguageOptions{}, diag);
  REQUIRE(e.outer);
  const Value again =
      e.outer->again({Value::of(make_layout(IntTuple({static_int(8), static_int(8)}))), e.outer->operands[1]}, diag);
  CHECK(to_text(again) == to_text(evaluated("logical_divide((8,8):(1,8), (2,4))", LanguageOptions{})));
}

}  // namespace layoutx
