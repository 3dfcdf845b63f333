// The fast parser (src/lang/fast_parse.hpp) against the PEGTL parser it
// stands in for: on every golden expression, on random expressions with
// random spacing, and on random corruptions of them, either the fast parser
// declines or both give the same tree, offsets included; and wherever PEGTL
// rejects the text, the fast parser declines.
#include <doctest/doctest.h>

#include <random>
#include <sstream>

#include "../src/lang/fast_parse.hpp"
#include "golden_cases.hpp"
#include "layoutx/language.hpp"
#include "test_support.hpp"

namespace layoutx {
namespace {

using lang::Node;

std::string describe(const Node& n) {
  std::ostringstream s;
  s << "{k" << static_cast<int>(n.kind) << "@" << n.offset << " v" << n.value << (n.is_static ? "s" : "") << " '"
    << n.name << "'";
  if (n.has_template_args) {
    s << " <";
    for (std::size_t i = 0; i < n.template_args.size(); ++i)
      s << n.template_args[i] << (i < n.template_types.size() ? n.template_types[i] : "?") << ";";
    s << ">";
  }
  for (const Node& c : n.children) s << " " << describe(c);
  return s.str() + "}";
}

struct Verdict {
  bool fast_declined = false, pegtl_rejected = false;
  std::string fast_tree, pegtl_tree;
};

Verdict compare(const std::string& text) {
  Verdict v;
  const std::optional<Node> fast = lang::parse_common(text);
  v.fast_declined = !fast;
  if (fast) v.fast_tree = describe(*fast);
  try {
    v.pegtl_tree = describe(lang::parse_with_pegtl(text));
  } catch (const SourceError&) {
    v.pegtl_rejected = true;
  }
  return v;
}

// Agreement: the fast parser declines, or it accepts and PEGTL gives the same tree.
bool agree(const Verdict& v) { return v.fast_declined || (!v.pegtl_rejected && v.fast_tree == v.pegtl_tree); }

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
      case 1:
        return head(depth);
      case 2:
        return head(depth) + space() + ":" + space() + head(depth);
      case 3: {
        std::string s = pick<std::string>({"make_layout", "Sw", "get", "o", "oo", "LayoutRight", "x_1", "coalesce",
                                             "recast_layout"});
        if (chance(0.4)) s += space() + "<" + space() + targ() + (chance(0.5) ? space() + "," + targ() : "") + ">";
        if (depth > 0 && chance(0.6)) s += space() + list(depth);
        return s;
      }
      case 4:
        return "_";
      default:
        return depth > 0 ? list(depth) : integer();
    }
  }
  std::string postfix(int depth) {
    std::string s = atom(depth);
    while (depth > 0 && chance(0.2)) s += space() + list(depth - 1);
    return s;
  }

  std::mt19937_64 rng_{97531};
};

TEST_CASE("fast parser: the golden expressions parse to PEGTL's tree") {
  test::Mismatches mismatches;
  int declined = 0;
  for (const auto& c : test::golden_cases()) {
    const Verdict v = compare(c.expr);
    if (v.fast_declined && !v.pegtl_rejected) ++declined;
    if (!agree(v) && mismatches.report()) CHECK_MESSAGE(false, c.expr << "\n fast:  " << v.fast_tree << "\n pegtl: " << v.pegtl_tree);
  }
  CHECK(mismatches.count() == 0);
  CHECK(declined == 0);  // every expression that parses takes the fast path
}

TEST_CASE("fast parser: random expressions and corruptions of them") {
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
          case 0:
            text.erase(at, 1);
            break;
          case 1:
            text.insert(at, 1, text[at]);
            break;
          default:
            text.insert(at, 1, noise[gen.rng()() % noise.size()]);
        }
      }
    }
    const Verdict v = compare(text);
    if (!v.fast_declined) ++accepted;
    if (v.pegtl_rejected) ++rejected;
    if (!agree(v) && mismatches.report())
      CHECK_MESSAGE(false, "'" << text << "'\n fast:  " << v.fast_tree << "\n pegtl: " << v.pegtl_tree);
  }
  CHECK(mismatches.count() == 0);
  CHECK(accepted > 1000);  // both paths were exercised
  CHECK(rejected > 1000);
}

}  // namespace
}  // namespace layoutx
