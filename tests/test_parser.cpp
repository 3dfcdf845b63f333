// The expression language: every literal form, with the text
// `eval` prints for it, and the inputs it must refuse, with the message and
// the byte offset the caret points at.
#include <doctest/doctest.h>

#include <string>

#include "layoutx/language.hpp"
#include "layoutx/render.hpp"
#include "test_support.hpp"

namespace layoutx::test {

namespace {

// The value's text in the default mode (no static marks), its warnings in `diag`.
std::string eval_text(const std::string& expr, Diagnostics& diag) {
  try {
    return render_notation(evaluate_expression(expr, LanguageOptions{}, diag), Notation{});
  } catch (const Error& e) {
    return std::string("error: ") + e.what();
  }
}

struct Accepted {
  const char* expr;
  const char* eval;
};

// Expected texts are CuTe's print of the same C++ objects, marks removed.
const Accepted kAccepted[] = {
    // integers: static marks, signs
    {"12", "12"},
    {"_12", "12"},
    {"-4", "-4"},
    {"9223372036854775807", "9223372036854775807"},
    {"-9223372036854775808", "-9223372036854775808"},
    // int tuples: a one-element tuple stays a tuple
    {"(3)", "(3)"},
    {"(-3)", "(-3)"},
    {"(4,3)", "(4,3)"},
    {"((2,3),4)", "((2,3),4)"},
    {"(_2,(_3,(4,_5)))", "(2,(3,(4,5)))"},
    // layouts SHAPE:STRIDE
    {"8:1", "8:1"},
    {"-4:-1", "-4:-1"},
    {"(4,3):(3,1)", "(4,3):(3,1)"},
    {"(_5,_4):(_8,_2)", "(5,4):(8,2)"},
    {"(3):(1)", "(3):(1)"},
    {"((2,3),4):((1,2),6)", "((2,3),4):((1,2),6)"},
    // a bare shape where a layout is needed is make_layout(shape)
    {"make_layout((4,3))", "(4,3):(1,4)"},
    {"coalesce((2,4))", "8:1"},
    {"right_inverse((4,3))", "12:1"},
    // tiles: a tuple of shapes or layouts applies mode by mode
    {"(4,3) o (2,2)", "(2,2):(1,4)"},
    {"logical_divide((8,8):(8,1), (2,4))", "((2,4),(4,2)):((8,16),(1,4))"},
    {"(2:1,4:2)", "(2:1,4:2)"},
    {"(2:1,(4,2):(2,1))", "(2:1,(4,2):(2,1))"},
    // swizzles and composed layouts in CuTe's print form
    {"Sw<3,4,3>", "Sw<3,4,3>"},
    {"Swizzle<2,0,2>", "Sw<2,0,2>"},
    {"Sw<3,4,3> o 0 o (8,64):(64,1)", "Sw<3,4,3> o 0 o (8,64):(64,1)"},
    {"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", "Sw<3,4,3> o 0 o (8,64):(64,1)"},
    {"Sw<3,4,3> o (8,64):(64,1)", "Sw<3,4,3> o 0 o (8,64):(64,1)"},
    {"Swizzle<3,4,3> o 16 o (8,64):(64,1)", "Sw<3,4,3> o 16 o (8,64):(64,1)"},
    {"(8,64):(64,1) o Sw<3,4,3>", "Sw<3,1,3> o 0 o (8,64):(64,1)"},
    // A o B o C associates to the left
    {"(4,4):(4,1) o (2,2):(2,1)", "(2,2):(8,4)"},
    {"(4,4):(4,1) o (2,2):(2,1) o 2:1", "2:8"},
    {"composition((4,4):(4,1), (2,2):(2,1))", "(2,2):(8,4)"},
    // template calls and tags
    {"get<1>((4,3):(3,1))", "3:1"},
    {"get<0,1>(((2,3),4):((1,2),6))", "3:2"},
    {"get<1>((4,3))", "3"},
    {"select<1,0>((4,3):(3,1))", "(3,4):(1,3)"},
    {"make_layout((4,3), LayoutRight)", "(4,3):(3,1)"},
    {"make_layout((4,3), LayoutLeft)", "(4,3):(1,4)"},
    {"make_layout((2,3),(3,1))", "(2,3):(3,1)"},
    {"upcast<2>(4:1)", "2:1"},
    {"size(Sw<3,4,3> o (8,64):(64,1))", "512"},
    // evaluation: index, flat and hierarchical coordinates
    {"(4,3):(3,1)(5)", "4"},
    {"(4,3):(3,1)(1,2)", "5"},
    {"((2,2),3):((1,2),4)((1,1),2)", "11"},
    {"((2,2),3):((1,2),4)(3,2)", "11"},
    {"composition(Sw<1,0,1>, (4,4):(1,4))(2,0)", "3"},
    // slicing keeps the modes paired with _
    {"(4,3):(3,1)(_,1)", "(4):(3)"},
    {"(4,3):(3,1)(2,_)", "(3):(1)"},
    {"((2,2),3):((1,2),4)((1,_),_)", "(2,3):(2,4)"},
    // whitespace wherever a token ends
    {" ( 4 , 3 ) : ( 3 , 1 ) ", "(4,3):(3,1)"},
    {"\tget < 1 > ( (4,3) )\n", "3"},
    {"Sw<3,4,3>o(8,64):(64,1)", "Sw<3,4,3> o 0 o (8,64):(64,1)"},
    {"make_layout( (4,3) ,LayoutRight )", "(4,3):(3,1)"},
};

struct Rejected {
  std::string expr;
  const char* message;  // a substring of the message
  std::size_t offset;   // where the caret points
};

std::string nested(int depth) { return std::string(depth, '(') + "1" + std::string(depth, ')'); }

const Rejected kRejected[] = {
    {"", "expected an expression", 0},
    {"   ", "expected an expression", 3},
    {"(4,3", "unbalanced parentheses", 4},
    {"((4,3)", "unbalanced parentheses", 6},
    {"(4,3))", "unexpected text", 5},
    {")", "expected an expression", 0},
    {"(4,3)$", "unexpected text", 5},
    {"4:1:2", "unexpected text", 3},
    {"(4,3):", "expected a stride", 6},
    {"4:1 o", "expected an operand after the composition operator", 5},
    {"(2,3):(1)", "not congruent", 6},
    {"(2,3):((1,2),3)", "not congruent", 6},
    {"foo(4:1)", "unknown function 'foo'", 0},
    {"flter(4:1)", "did you mean 'filter'", 0},
    {"coalese(4:1)", "did you mean 'coalesce'", 0},
    {"make_layout((4,3), LayoutUp)", "unknown name 'LayoutUp'", 19},
    {"logical_divide(8:1)", "takes 2 arguments, got 1", 0},
    {"get<x>(4:1)", "expected an integer template argument", 4},
    {"get<5>((2,3))", "Index out of range", 0},
    {"Sw<3,4>", "three template arguments", 0},
    {"Sw<-1,4,3>", "BBits must be positive", 0},
    {"Sw<3,4,2>", "abs(SShift) must be more than BBits", 0},
    {"99999999999999999999", "does not fit in a signed 64-bit integer", 0},
    {"9223372036854775808", "does not fit in a signed 64-bit integer", 0},
    {"size((4294967296,4294967296))", "overflow", 0},
    {"(4,3):(3,1)(2,1,1)", "Mismatched Ranks", 11},
    {"(4,3)(1)", "only a layout can be evaluated", 5},
    {"composition(8:1, (2,4))", "the tiler has 2 modes", 0},
    {nested(65), "nesting deeper than 64 levels", 64},
    {nested(10000), "nesting deeper than 64 levels", 64},
    // A call is a level too: the 64th parenthesis after "size(" is one too many.
    {"size(" + nested(70) + ")", "nesting deeper than 64 levels", 68},
    {std::string(100001, '1'), "over the limit of 100000", 100000},
};

}  // namespace

TEST_CASE("parser: every literal form evaluates to CuTe's text") {
  for (const Accepted& a : kAccepted) {
    CAPTURE(a.expr);
    Diagnostics diag;
    CHECK(eval_text(a.expr, diag) == a.eval);
    CHECK(diag.warnings().empty());
  }
}

TEST_CASE("parser: bad input is refused with a message and a position") {
  for (const Rejected& r : kRejected) {
    INFO("expression: " << (r.expr.size() > 80 ? r.expr.substr(0, 80) + "..." : r.expr));
    try {
      const Value v = evaluated(r.expr, LanguageOptions{});
      FAIL_CHECK("accepted, gave " << render_notation(v, Notation{}));
    } catch (const SourceError& e) {
      CHECK_MESSAGE(std::string(e.what()).find(r.message) != std::string::npos, "message: " << e.what());
      CHECK(e.offset() == r.offset);
      CHECK(e.offset() <= r.expr.size());
    }
  }
}

TEST_CASE("parser: the limits are options") {
  LanguageOptions deep;
  deep.max_depth = 200;
  // Every pair of parentheses is a one-element tuple.
  CHECK(render_notation(evaluated(nested(150), deep), Notation{}) == nested(150));
  CHECK(render_notation(evaluated(nested(64), LanguageOptions{}), Notation{}) == nested(64));
  LanguageOptions shallow;
  shallow.max_depth = 2;
  CHECK(render_notation(evaluated("((1))", shallow), Notation{}) == "((1))");
  CHECK_THROWS_AS(evaluated("(((1)))", shallow), SourceError);
  LanguageOptions short_text;
  short_text.max_length = 4;
  CHECK_THROWS_AS(evaluated("(4,3)", short_text), SourceError);
}

TEST_CASE("parser: an index outside the domain evaluates as CuTe does, with a warning") {
  // idx2crd(12, (4,3)) = (0,3): the last mode extends.
  Diagnostics outside;
  CHECK(eval_text("(4,3):(3,1)(12)", outside) == "3");
  CHECK(outside.warnings().size() == 1);
  Diagnostics inside;
  CHECK(eval_text("(4,3):(3,1)(11)", inside) == "11");
  CHECK(inside.warnings().empty());

  Diagnostics strict(true);
  CHECK_THROWS_AS(evaluate_expression("(4,3):(3,1)(12)", LanguageOptions{}, strict), Error);
}

TEST_CASE("parser: CuTe-exact mode keeps dynamic and static integers apart") {
  LanguageOptions dynamic;
  dynamic.dynamic = true;
  struct Row {
    const char* expr;
    const char* eval;
  };
  const Row rows[] = {
      {"(4,3):(_3,1)", "(4,3):(_3,1)"},
      {"make_layout((4,3))", "(4,3):(_1,4)"},
      {"make_layout((_4,_3))", "(_4,_3):(_1,_4)"},
      {"Sw<3,4,3> o (_8,_64):(_64,_1)", "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"},
  };
  for (const Row& r : rows) {
    CAPTURE(r.expr);
    CHECK(render_notation(evaluated(r.expr, dynamic), Notation{.static_marks = true}) == r.eval);
  }
}

}  // namespace layoutx::test
