// Every input the fuzzer (or a hand-made hardening probe) ever broke layoutx
// with, kept in fuzz/regressions/, goes through the fuzzer's own pipeline
// (fuzz/pipeline.hpp): evaluation in both integer modes, every renderer, the
// notation's round trip and the streamed offsets against L(i). Under the
// sanitizer build this is the fuzzer's check without libFuzzer.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../fuzz/pipeline.hpp"
#include "../fuzz/program_pipeline.hpp"
#include "test_support.hpp"

namespace layoutx::test {

namespace {

namespace fs = std::filesystem;

const fs::path kFuzzDir = fs::path(LAYOUTX_TEST_DATA) / ".." / ".." / "fuzz";

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<fs::path> regression_inputs(const char* folder = "regressions") {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(kFuzzDir / folder))
    if (e.is_regular_file() && e.path().filename().string().front() != '.' && e.path().extension() != ".md")
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("every fuzz regression input passes the fuzzing pipeline") {
  const auto inputs = regression_inputs();
  REQUIRE(inputs.size() >= 10);
  for (const auto& path : inputs) {
    const std::string input = read_bytes(path);
    INFO("fuzz/regressions/" << path.filename().string() << ": " << input.substr(0, 200));
    CHECK_NOTHROW(fuzz::run_pipeline(input));
  }
}

TEST_CASE("every program the fuzzer broke layoutx run with passes the program pipeline") {
  const auto inputs = regression_inputs("program_regressions");
  REQUIRE(inputs.size() >= 5);
  for (const auto& path : inputs) {
    const std::string input = read_bytes(path);
    INFO("fuzz/program_regressions/" << path.filename().string() << ": " << input.substr(0, 200));
    CHECK_NOTHROW(fuzz::run_program_pipeline(input));
  }
}

TEST_CASE("the fuzzing dictionary names every function of the language") {
  const std::string dict = read_bytes(kFuzzDir / "layoutx.dict");
  REQUIRE(!dict.empty());
  for (const auto& name : function_names()) {
    INFO("function " << name << " is missing from fuzz/layoutx.dict");
    CHECK(dict.find("\"" + name + "(\"") != std::string::npos);
  }
}

// The deepest nesting the command line accepts (--max-depth 256) must parse and
// evaluate within the default stack, sanitizers included: the parser recurses per level.
TEST_CASE("nesting at the largest --max-depth evaluates without exhausting the stack") {
  LanguageOptions o;
  o.max_depth = 256;
  struct Case {
    std::string open, inner, close;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"(", "4", ")", ""},
      {"size(", "4", ")", "4"},
      {"coalesce(", "(4,2):(1,4)", ")", "8:1"},
      {"get<0>(", "((4))", ")", ""},
  };
  // Nesting as the language counts it: '(' and '<' open a level.
  const auto depth_of = [](const std::string& t) {
    std::size_t d = 0, deepest = 0;
    for (char ch : t) {
      if (ch == '(' || ch == '<') deepest = std::max(deepest, ++d);
      if ((ch == ')' || ch == '>') && d > 0) --d;
    }
    return deepest;
  };
  for (const auto& c : cases) {
    std::string text = c.inner;
    while (depth_of(c.open + text + c.close) <= 256) text = c.open + text + c.close;
    REQUIRE(depth_of(text) == 256);
    INFO(c.open << " nested to depth 256");
    Value v;
    CHECK_NOTHROW(v = evaluated(text, o));
    if (!c.want.empty()) CHECK(render_notation(v, Notation{}) == c.want);
    CHECK_THROWS_AS(evaluated(c.open + text + c.close, o), SourceError);  // one level too many
  }
}

}  // namespace layoutx::test
