// The golden cases at library level: the same comparisons check_cases.py makes
// through the command line (eval, print, offsets, info, errors), without a
// process per case, so a mismatch points straight at the engine or a renderer.
#include <doctest/doctest.h>

#include <map>
#include <sstream>

#include "layout_of.hpp"
#include "golden_cases.hpp"
#include "layoutx/language.hpp"
#include "layoutx/render.hpp"
#include "test_support.hpp"

namespace layoutx::test {

namespace {

Value evaluate_case(const GoldenCase& c) { return evaluated(c.expr, LanguageOptions{}); }

// What a command printed, or the error it stopped with (so a mismatch shows why).
template <class F>
std::string output_of(F command) {
  try {
    return command();
  } catch (const Error& e) {
    return std::string("error: ") + e.what();
  }
}

using test::as_layout;

std::string joined(const std::vector<std::int64_t>& offsets) {
  std::string s;
  for (auto o : offsets) s += std::to_string(o) + "\n";
  return s;
}

// The "key: value" lines of render_info that the golden case has values for.
std::string expected_info(const GoldenCase& c) {
  std::string s;
  auto line = [&](const char* key, const std::string& value) { s += std::string(key) + ": " + value + "\n"; };
  if (c.shape) line("shape", unmark(*c.shape));
  if (c.stride) line("stride", unmark(*c.stride));
  if (c.size) line("size", std::to_string(*c.size));
  if (c.cosize) line("cosize", std::to_string(*c.cosize));
  if (c.rank) line("rank", std::to_string(*c.rank));
  if (c.depth) line("depth", std::to_string(*c.depth));
  return s;
}

// The same keys picked out of render_info's text, in the same order.
std::string picked_info(const std::string& info, const GoldenCase& c) {
  std::map<std::string, std::string> found;
  std::istringstream in(info);
  for (std::string row; std::getline(in, row);) {
    const auto colon = row.find(": ");
    if (colon != std::string::npos) found.emplace(row.substr(0, colon), row.substr(colon + 2));
  }
  std::string s;
  auto line = [&](const char* key, bool wanted) {
    if (wanted) s += std::string(key) + ": " + (found.count(key) ? found[key] : "<missing>") + "\n";
  };
  line("shape", c.shape.has_value());
  line("stride", c.stride.has_value());
  line("size", c.size.has_value());
  line("cosize", c.cosize.has_value());
  line("rank", c.rank.has_value());
  line("depth", c.depth.has_value());
  return s;
}

// Runs `got` for every case `applies` to, comparing it with `want`.
template <class Applies, class Want, class Got>
void compare_all(Applies applies, Want want, Got got) {
  Mismatches mismatches;
  int compared = 0;
  for (const GoldenCase& c : golden_cases()) {
    if (c.error || !applies(c)) continue;
    ++compared;
    const std::string expected = want(c);
    const std::string actual = output_of([&] { return got(c); });
    if (actual != expected && mismatches.report()) {
      INFO("case " << c.id << ": " << c.expr);
      CHECK(actual == expected);
    }
  }
  CHECK_MESSAGE(mismatches.count() == 0, mismatches.count() << " of " << compared << " cases differ");
  CHECK(compared > 0);
}

}  // namespace

TEST_CASE("golden: the cases file is complete") {
  const auto& cases = golden_cases();
  REQUIRE(cases.size() > 1000);
  for (const GoldenCase& c : cases) {
    INFO("case " << c.id);
    REQUIRE(!c.expr.empty());
    REQUIRE((c.error || c.print.has_value()));
  }
}

TEST_CASE("golden: eval prints CuTe's print text without marks") {
  compare_all([](const GoldenCase& c) { return c.print.has_value(); },
              [](const GoldenCase& c) { return unmark(*c.print); },
              [](const GoldenCase& c) { return render_notation(evaluate_case(c), Notation{}); });
}

TEST_CASE("golden: print is CuTe's print_layout byte for byte") {
  compare_all([](const GoldenCase& c) { return c.print_layout.has_value(); },
              [](const GoldenCase& c) { return unmark(*c.print_layout); },
              [](const GoldenCase& c) { return render_grid(evaluate_case(c), GridOptions{}); });
}

TEST_CASE("golden: offsets lists layout(i) for every index") {
  compare_all([](const GoldenCase& c) { return c.offsets.has_value(); },
              [](const GoldenCase& c) { return joined(*c.offsets); },
              [](const GoldenCase& c) {
                std::string text;
                render_offsets(as_layout(evaluate_case(c)), OffsetFormat::Plain,
                               [&](std::string_view chunk) { text += chunk; });
                return text;
              });
}

TEST_CASE("golden: info has CuTe's shape, stride, size, cosize, rank and depth") {
  compare_all([](const GoldenCase& c) { return c.size || c.cosize || c.rank || c.depth; },
              [](const GoldenCase& c) { return expected_info(c); },
              [](const GoldenCase& c) { return picked_info(render_info(evaluate_case(c), InfoOptions{}), c); });
}

TEST_CASE("golden: what CuTe refuses at compile time is an Error") {
  Mismatches mismatches;
  int compared = 0;
  for (const GoldenCase& c : golden_cases()) {
    if (!c.error) continue;
    ++compared;
    std::string accepted;
    try {
      accepted = render_notation(evaluate_case(c), Notation{});
    } catch (const Error&) {
      continue;
    }
    if (mismatches.report()) {
      INFO("case " << c.id << ": " << c.expr << " gave " << accepted);
      CHECK_MESSAGE(false, "accepted an input CuTe refuses");
    }
  }
  CHECK_MESSAGE(mismatches.count() == 0, mismatches.count() << " of " << compared << " error cases accepted");
  CHECK(compared > 0);
}

}  // namespace layoutx::test
