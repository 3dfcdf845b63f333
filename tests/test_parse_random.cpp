// The parser on random expressions with random spacing, and on random
// corruptions of them: it gives a tree or a SourceError (never another
// exception), a caret inside the text, and every node's offset on a
// character that can start a node of its kind.
#include <doctest/doctest.h>

#include <cctype>
#include <random>

#include "golden_cases.hpp"
#include "lang/ast.hpp"
#include "lang/plain_forms.hpp"
#include "layoutx/language.hpp"
#include "test_support.hpp"

namespace layoutx {
namespace {

using lang::Node;

bool can_start(const Node& n, char c) {
  const auto u = static_cast<unsigned char>(c);
  switch (n.kind) {
    case Node::Kind::Integer: return std::isdigit(u) || c == '-' || c == '_';
    case Node::Kind::Tuple:
    case Node::Kind::Apply: return c == '(';
    case Node::Kind::Layout:
    case Node::Kind::Compose: return std::isdigit(u) || c == '-' || c == '_' || c == '(' || std::isalpha(u);
    case Node::Kind::Name:
    case Node::Kind::Call:
    case Node::Kind::PointerFlag: return std::isalpha(u);
    case Node::Kind::Underscore: return c == '_';
  }
  return false;
}

// The first node whose offset is misplaced, described; empty when all are right.
std::string misplaced(const Node& n, const std::string& text) {
  if (n.offset >= text.size() || !can_start(n, text[n.offset]))
    return "node of kind " + std::to_string(static_cast<int>(n.kind)) + " at offset " + std::to_string(n.offset);
  for (const Node& c : n.children())
    if (std::string m = misplaced(c, text); !m.empty()) return m;
  return "";
}

bool same_tree(const Node& a, const Node& b) {
  if (a.kind != b.kind || a.offset != b.offset || a.value != b.value || a.is_static != b.is_static ||
      a.basis != b.basis || a.name != b.name || a.template_args() != b.template_args() ||
      a.template_types() != b.template_types() || a.has_template_args != b.has_template_args ||
      a.children().size() != b.children().size())
    return false;
  auto bi = b.children().begin();
  for (const Node& ai : a.children()) {
    if (!same_tree(ai, *bi)) return false;
    ++bi;
  }
  return true;
}

// The tree, or the error's message and caret, as text.
std::string outcome(const std::string& text, std::size_t max_depth, lang::Tree (*parse)(std::string_view, std::size_t),
                    lang::Tree& tree) {
  try {
    tree = parse(text, max_depth);
    return "tree";
  } catch (const SourceError& e) {
    return std::string(e.what()) + " at " + std::to_string(e.offset());
  }
}

// The parser (plain forms by hand, the rest by the grammar) against the
// grammar alone: the same tree, or the same message at the same caret.
struct ParsersCompared {
  test::Mismatches mismatches;
  int plain = 0;  // texts the hand reader took

  void compare(const std::string& text, std::size_t max_depth = 64) {
    if (read_plain_forms_after_prescan(text, max_depth)) ++plain;
    lang::Tree mixed, grammar;
    const std::string a = outcome(text, max_depth, lang::parse, mixed),
                      b = outcome(text, max_depth, lang::parse_by_grammar, grammar);
    if ((a != b || (a == "tree" && !same_tree(mixed.root(), grammar.root()))) && mismatches.report())
      CHECK_MESSAGE(false, "'" << text << "': parse gives " << a << ", the grammar " << b);
  }

  static bool read_plain_forms_after_prescan(const std::string& text, std::size_t max_depth) {
    try {
      lang::parse_by_grammar(text, max_depth);  // the pre-scan's and the grammar's errors
    } catch (const SourceError&) {
      return false;
    }
    return lang::read_plain_forms(text, max_depth).has_value();
  }
};

class RandomExpressions {
 public:
  std::string expression(int depth) {
    std::string e = postfix(depth);
    while (chance(0.15)) e += space() + "o" + space() + postfix(depth - 1);
    return e;
  }

  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  template <class T>
  const T& pick(const std::vector<T>& xs) {
    return xs[std::uniform_int_distribution<std::size_t>(0, xs.size() - 1)(rng_)];
  }
  std::mt19937_64& rng() { return rng_; }

 private:
  std::string space() { return chance(0.7) ? "" : pick<std::string>({" ", "  ", "\t", "\n", " \r\n "}); }
  std::string integer() {
    return pick<std::string>({"", "", "_"}) + pick<std::string>({"", "", "-"}) +
           pick<std::string>({"0", "1", "4", "12", "007", "9223372036854775807", "9223372036854775808", "64"});
  }
  // A template argument: an integer, a type, or a name that is no type.
  std::string targ() { return chance(0.7) ? integer() : pick<std::string>({"half_t", "uint128_t", "float", "halfx"}); }
  std::string list(int depth) {
    std::string s = "(";
    s += space();
    const int n = static_cast<int>(std::uniform_int_distribution<int>(0, 3)(rng_));
    for (int i = 0; i < n; ++i) {
      if (i) {
        s += ',';
        s += space();
      }
      s += expression(depth - 1);
      s += space();
    }
    return s + ")";
  }
  std::string head(int depth) { return depth > 0 && chance(0.5) ? list(depth) : integer(); }
  std::string atom(int depth) {
    switch (std::uniform_int_distribution<int>(0, 5)(rng_)) {
      case 0:
      case 1: return head(depth);
      case 2: return head(depth) + space() + ":" + space() + head(depth);
      case 3: {
        std::string s = pick<std::string>(
            {"make_layout", "Sw", "get", "o", "oo", "LayoutRight", "x_1", "coalesce", "recast_layout"});
        if (chance(0.4)) s += space() + "<" + space() + targ() + (chance(0.5) ? space() + "," + targ() : "") + ">";
        if (depth > 0 && chance(0.6)) s += space() + list(depth);
        return s;
      }
      case 4: return "_";
      default: return depth > 0 ? list(depth) : integer();
    }
  }
  std::string postfix(int depth) {
    std::string s = atom(depth);
    while (depth > 0 && chance(0.2)) s += space() + list(depth - 1);
    return s;
  }

  std::mt19937_64 rng_{97531};
};

TEST_CASE("parser: random expressions and corruptions of them") {
  RandomExpressions gen;
  test::Mismatches mismatches;
  int accepted = 0, rejected = 0;
  for (int t = 0; t < 6000; ++t) {
    std::string text = gen.expression(3);
    if (t % 2) {  // corrupt: delete, duplicate or insert a character
      const std::string noise = "(),:<>_-o 0x";
      for (int k = 0; k < 2 && !text.empty(); ++k) {
        const std::size_t at = std::uniform_int_distribution<std::size_t>(0, text.size() - 1)(gen.rng());
        switch (gen.rng()() % 3) {
          case 0: text.erase(at, 1); break;
          case 1: text.insert(at, 1, text[at]); break;
          default: text.insert(at, 1, noise[gen.rng()() % noise.size()]);
        }
      }
    }
    std::string problem;
    try {
      const lang::Tree tree = lang::parse(text, 64);
      ++accepted;
      problem = misplaced(tree.root(), text);
    } catch (const InternalError& e) {
      problem = e.what();
    } catch (const SourceError& e) {
      ++rejected;
      if (e.offset() > text.size()) problem = "caret at " + std::to_string(e.offset()) + " past the end";
    }
    if (!problem.empty() && mismatches.report()) CHECK_MESSAGE(false, "'" << text << "': " << problem);
  }
  CHECK(mismatches.count() == 0);
  CHECK(accepted > 1000);  // both outcomes were exercised
  CHECK(rejected > 1000);
}

TEST_CASE("parser: the plain forms read by hand give the grammar's trees and errors") {
  ParsersCompared parsers;
  RandomExpressions gen;
  for (int t = 0; t < 6000; ++t) {
    std::string text = gen.expression(3);
    if (t % 2) {  // corrupt: delete or insert a character
      const std::string noise = "(),:_-@{}<o 9x";
      const std::size_t at = std::uniform_int_distribution<std::size_t>(0, text.size())(gen.rng());
      if (gen.rng()() % 2 && at < text.size())
        text.erase(at, 1);
      else
        text.insert(at, 1, noise[gen.rng()() % noise.size()]);
    }
    parsers.compare(text);
  }
  for (const test::GoldenCase& c : test::golden_cases()) parsers.compare(c.expr);
  for (const char* text : {"complement((8,4):(1,32), 256)",
                           " coalesce( ((4,4),4) : ((4,16),1) ) ",
                           "f()",
                           "()",
                           "_",
                           "(_,1)",
                           "x(1)(2)",
                           "f (1)",
                           "f\n(\t1 ,2\r)",
                           "999999999999999999",
                           "-999999999999999999",
                           "9223372036854775807",
                           "-9223372036854775808",
                           "_-0",
                           "(1,)",
                           "(,1)",
                           "4:",
                           ":4",
                           "4::3",
                           "4:3:2",
                           "f(1) o g(2)",
                           "f o",
                           "4 {}",
                           "_4 {}",
                           "4@1",
                           "cute::f(1)",
                           "Int(4)",
                           "Layout",
                           "Sw<3,4,3> o (8,64):(64,1)",
                           "Sw<3,4,3>o_0o(8,64):(64,1)",
                           "take< 0 , _2 >(1)",
                           "get<_-1>(1)",
                           "Sw<1,2,3>",
                           "(Sw<1,2,3>) o 4",
                           "f<1,>(2)",
                           "f<>(2)",
                           "f<1 2>(3)",
                           "f<1>",
                           "f<1>{}",
                           "f<1>(2)(3)",
                           "Int<4>",
                           "Shape<_4>(1)",
                           "smem_sparse<2>(1)",
                           "smem_sparse<2>_ptr[16b](unset)",
                           "f<half_t>(1)",
                           "f<cute::_1>(1)",
                           "f<1>::g",
                           "4 o",
                           "4 o5",
                           "4 o 5 o",
                           "_ o _",
                           "x_1 o 4",
                           "o(1) o o(2)",
                           "4 o (1,2)(3)",
                           "Sw<1,2,3> : 4",
                           "a<1>b",
                           "f<1234567890123456789>(2)",
                           "4 o\f5"})
    parsers.compare(text);
  // Bytes the pre-scan refuses, inside what the hand reader reads.
  parsers.compare(std::string("(1\0 2)", 6));
  parsers.compare(std::string("Sw<1,\0 2,3>", 11));
  // Nesting at the limit and past it: template arguments are a level, as the pre-scan counts them.
  for (const char* text : {"f<1>(2)", "(Sw<1,2,3>)", "((1))", "f(g<1>(2))", "Sw<1,2,3> o (1)"})
    for (std::size_t depth = 0; depth < 3; ++depth) parsers.compare(text, depth);
  CHECK(parsers.mismatches.count() == 0);
  CHECK(parsers.plain > 1000);  // the hand reader was exercised
}

}  // namespace
}  // namespace layoutx
