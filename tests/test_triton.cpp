// Triton's linear layouts: every encoding in tests/data/triton/golden.jsonl
// (computed by Triton 3.6 itself, scripts/triton/generate_golden.py) must
// derive the bases Triton derived, in Triton's order.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include "json_lines.hpp"
#include "layoutx/language.hpp"
#include "layoutx/triton_cute.hpp"
#include "layoutx/triton_encoding.hpp"
#include "test_support.hpp"

namespace layoutx::test {

namespace {

struct TritonCase {
  std::string encoding;
  std::vector<std::int64_t> shape;
  std::vector<std::pair<std::string, std::vector<triton::Basis>>> bases;  // per input dimension
};

std::vector<TritonCase> triton_cases() {
  std::vector<TritonCase> cases;
  for (const Json& j : read_json_lines(std::string(LAYOUTX_TEST_DATA) + "/triton/golden.jsonl")) {
    TritonCase c;
    c.encoding = j["encoding"].string;
    for (const auto& e : j["shape"].array) c.shape.push_back(e.integer);
    for (const char* in : {"register", "lane", "warp", "offset", "block"}) {
      if (j[in].is_null()) continue;
      std::vector<triton::Basis> bases;
      for (const auto& b : j[in].array) {
        triton::Basis basis;
        for (const auto& x : b.array) basis.push_back(x.integer);
        bases.push_back(std::move(basis));
      }
      c.bases.emplace_back(in, std::move(bases));
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

std::string bases_text(const std::vector<triton::Basis>& bases) {
  std::vector<std::string> parts;
  for (const auto& b : bases) parts.push_back(fmt::format("[{}]", fmt::join(b, ", ")));
  return fmt::format("[{}]", fmt::join(parts, ", "));
}

}  // namespace

TEST_CASE("Triton encodings derive Triton 3.6's linear layouts") {
  const auto cases = triton_cases();
  REQUIRE(cases.size() >= 200);
  int failures = 0;
  for (const auto& c : cases) {
    std::string got;
    std::string want;
    try {
      const triton::LinearLayout l = triton::linear_layout_of(c.encoding, c.shape);
      for (const auto& [in, bases] : c.bases) {
        got += fmt::format("{} = {}; ", in, bases_text(l.bases(in)));
        want += fmt::format("{} = {}; ", in, bases_text(bases));
      }
      if (triton::covered_shape(l) != c.shape)
        got += fmt::format("covers [{}]", fmt::join(triton::covered_shape(l), ", "));
    } catch (const Error& e) {
      got = std::string("error: ") + e.what();
    }
    if (got != want && ++failures <= 12) {
      INFO(c.encoding, " shape [", fmt::format("{}", fmt::join(c.shape, ", ")), "]");
      CHECK(got == want);
    }
  }
  CHECK(failures == 0);
}

TEST_CASE("Triton's linear layout texts read back to the same layout") {
  for (const auto& c : triton_cases()) {
    const triton::LinearLayout l = triton::linear_layout_of(c.encoding, c.shape);
    INFO(c.encoding);
    CHECK(triton::linear_layout_of(triton::to_attribute_text(l), c.shape) == l);
    CHECK(triton::linear_layout_of(triton::to_layout_text(l), {}) == l);
  }
}

TEST_CASE("Triton layouts convert to CuTe layouts and back") {
  for (const auto& c : triton_cases()) {
    const triton::LinearLayout l = triton::linear_layout_of(c.encoding, c.shape);
    INFO(c.encoding);
    const AnyLayout cute = triton::to_cute(l);
    INFO(to_text(cute));
    const triton::LinearLayout back = triton::is_shared(l)
                                          ? triton::from_cute_smem(cute, c.shape)
                                          : triton::from_cute_tv(cute, c.shape, 32, l.input_size("warp"));
    CHECK(back == l);
  }
}

TEST_CASE("Earlier Triton's CTAsPerCGA/CTASplitNum/CTAOrder read as Triton 3.6's CGALayout") {
  // Along CTAOrder (minor first) each dimension gets its split CTAs as block
  // bases, then zero bases for the CTAs that hold copies.
  struct Pair {
    const char* older;
    const char* cga;
    std::vector<std::int64_t> shape;
  };
  const std::string blocked = "sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]";
  const std::string mma = "versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2]";
  const Pair pairs[] = {
      {"CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [1, 0]", "CGALayout = [[1, 0]]", {64, 32}},
      {"CTAsPerCGA = [2, 2], CTASplitNum = [1, 2], CTAOrder = [1, 0]", "CGALayout = [[0, 1], [0, 0]]", {32, 64}},
      {"CTAsPerCGA = [2, 2], CTASplitNum = [2, 2], CTAOrder = [0, 1]", "CGALayout = [[1, 0], [0, 1]]", {64, 64}},
      {"CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0]", "CGALayout = []", {16, 32}},
  };
  for (const auto& p : pairs) {
    INFO(p.older);
    CHECK(triton::linear_layout_of("#ttg.blocked<{" + blocked + ", " + p.older + "}>", p.shape) ==
          triton::linear_layout_of("#ttg.blocked<{" + blocked + ", " + p.cga + "}>", p.shape));
    CHECK(triton::linear_layout_of("#ttg.nvidia_mma<{" + mma + ", " + p.older + ", instrShape = [16, 8]}>", p.shape) ==
          triton::linear_layout_of("#ttg.nvidia_mma<{" + mma + ", " + p.cga + ", instrShape = [16, 8]}>", p.shape));
  }
  CHECK_THROWS_WITH_AS(triton::linear_layout_of("#ttg.blocked<{" + blocked +
                                                    ", CTAsPerCGA = [2, 1], CTASplitNum = [4, 1], "
                                                    "CTAOrder = [1, 0]}>",
                                                {64, 32}),
                       "CTAsPerCGA[0] = 2 is not a multiple of CTASplitNum[0] = 4", Error);
  CHECK_THROWS_WITH_AS(
      triton::linear_layout_of("#ttg.blocked<{" + blocked + ", CGALayout = [[1, 0], [3, 0]]}>", {64, 32}),
      "CGALayout coordinates must be 0 or powers of two", Error);
}

TEST_CASE("Layouts Triton refuses are refused") {
  // tests/data/triton/refused.jsonl: encodings Triton 3.6 itself rejected
  // (its message kept beside each), which layoutx must not derive either.
  const auto cases = read_json_lines(std::string(LAYOUTX_TEST_DATA) + "/triton/refused.jsonl");
  REQUIRE(!cases.empty());
  for (const Json& j : cases) {
    std::vector<std::int64_t> shape;
    for (const auto& e : j["shape"].array) shape.push_back(e.integer);
    INFO(j["encoding"].string, " (Triton: ", j["triton_error"].string, ")");
    CHECK_THROWS_AS(triton::linear_layout_of(j["encoding"].string, shape), Error);
  }
}

TEST_CASE("CuTe layouts that are not linear over F2 are refused, naming the mode") {
  struct Refused {
    const char* what;
    Layout tv;
    const char* message;
  };
  const auto L = [](IntTuple s, IntTuple d) { return make_layout(s, d); };
  const Refused cases[] = {
      {"extent 3", L(IntTuple::tuple({static_int(3), static_int(4)}), IntTuple::tuple({static_int(4), static_int(1)})),
       "thread mode 0 (3:4) is not linear over F2: its extent 3 is not a power of two"},
      {"carries",
       L(IntTuple::tuple({IntTuple::tuple({static_int(2), static_int(2)}), static_int(2)}),
         IntTuple::tuple({IntTuple::tuple({static_int(1), static_int(1)}), static_int(4)})),
       "thread mode 1 (2:1) is not linear over F2: its offsets add with carries into those of other modes (an image 1 "
       "overlaps)"},
  };
  for (const auto& r : cases) {
    INFO(r.what);
    CHECK_THROWS_WITH_AS(triton::from_cute_tv(r.tv, {4, 4}), r.message, Error);
  }
}

TEST_CASE("CuTe layouts become linear layouts, or the mode that is not linear is named") {
  // tests/data/triton/from_cute.tsv: a CuTe TV layout (tv) or smem layout
  // (smem) over a shape, and its linear layout attribute or the message.
  const auto rows = read_tsv("triton/from_cute.tsv");
  REQUIRE(rows.size() >= 10);
  for (const auto& r : rows) {
    REQUIRE(r.size() == 5);
    const std::string& id = r[0];
    INFO(id, ": ", r[3]);
    std::vector<std::int64_t> shape;
    if (r[2] != "-") {
      std::stringstream ss(r[2]);
      for (std::string e; std::getline(ss, e, ',');) shape.push_back(std::stoll(e));
    }
    std::string got;
    try {
      const auto layout = evaluated(r[3], LanguageOptions{}).as_layout();
      REQUIRE(layout.has_value());
      const triton::LinearLayout l =
          r[1] == "smem" ? triton::from_cute_smem(*layout, shape) : triton::from_cute_tv(*layout, shape);
      got = triton::to_attribute_text(l);
    } catch (const Error& e) {
      got = std::string("error: ") + e.what();
    }
    CHECK(got == r[4]);
  }
}

}  // namespace layoutx::test
