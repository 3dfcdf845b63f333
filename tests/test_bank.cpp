// The bank model against what Nsight Compute measured on an H200 (every row
// of tests/data/bank_measured*.tsv), its refusals, and the swizzle search.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "layout_of.hpp"
#include "layoutx/bank.hpp"
#include "layoutx/language.hpp"
#include "layoutx/render_bank.hpp"
#include "layoutx/swizzle_search.hpp"
#include "test_support.hpp"

namespace layoutx::test {

namespace {

using test::layout_of;

SharedAccess access_named(const std::string& name) {
  const auto a = find_access(name);
  REQUIRE_MESSAGE(a.has_value(), "unknown access " << name);
  return *a;
}

std::vector<std::int64_t> numbers(const std::string& csv) {
  std::vector<std::int64_t> out;
  std::stringstream ss(csv);
  for (std::string f; std::getline(ss, f, ',');) out.push_back(std::stoll(f));
  return out;
}

}  // namespace

TEST_CASE("bank model: every layout pattern measured on the H200") {
  Diagnostics diag;
  const auto rows = test::read_tsv("bank_measured.tsv");
  REQUIRE(rows.size() >= 40);
  Mismatches mismatches;
  for (const auto& r : rows) {
    REQUIRE(r.size() >= 5);
    const BankAnalysis a = analyze_banks(access_named(r[2]), layout_of(r[0]), std::stoll(r[1]) * 8, diag);
    const int wavefronts = std::stoi(r[3]), ideal = std::stoi(r[4]);
    if ((a.wavefronts != wavefronts || a.ideal != ideal) && mismatches.report())
      FAIL_CHECK("layoutx bank \"" << r[0] << "\" --elem-bytes " << r[1] << " --access " << r[2] << ": model "
                                   << a.wavefronts << " wavefronts (ideal " << a.ideal << "), measured " << wavefronts
                                   << " (ideal " << ideal << ")");
  }
  CHECK(mismatches.count() == 0);
}

TEST_CASE("bank model: every raw address table measured on the H200") {
  const auto rows = test::read_tsv("bank_measured_addresses.tsv");
  REQUIRE(rows.size() >= 100);
  Mismatches mismatches;
  for (const auto& r : rows) {
    REQUIRE(r.size() >= 5);
    std::vector<std::int64_t> offsets = numbers(r[2]);
    offsets.resize(std::stoul(r[1]));
    const WavefrontCount c = count_wavefronts(access_named(r[0]), offsets);
    const InstructionBanks detail = analyze_instruction(access_named(r[0]), offsets);
    CHECK(detail.wavefronts == c.wavefronts);
    const int wavefronts = std::stoi(r[3]), ideal = std::stoi(r[4]);
    if ((c.wavefronts != wavefronts || c.ideal != ideal) && mismatches.report())
      FAIL_CHECK(r[0] << " over " << r[1] << " lanes at " << r[2] << ": model " << c.wavefronts << " (ideal " << c.ideal
                      << "), measured " << wavefronts << " (ideal " << ideal << ")");
  }
  CHECK(mismatches.count() == 0);
}

TEST_CASE("bank model: who collides where") {
  Diagnostics diag;
  // 128-byte rows of halves read down a column with 16-byte vectors: each
  // quarter-warp's 8 lanes all land in banks 0-3.
  const BankAnalysis a = analyze_banks(SharedAccess::Ld128, layout_of("32:64"), 16, diag);
  REQUIRE(a.instructions.size() == 1);
  const InstructionBanks& r = a.instructions[0];
  CHECK(r.wavefronts == 32);
  CHECK(r.ideal == 4);
  CHECK(r.conflict_degree == 8);
  REQUIRE(r.phases.size() == 4);
  CHECK(r.phases[1].lanes == std::vector<int>{8, 9, 10, 11, 12, 13, 14, 15});
  REQUIRE(r.phases[1].banks[2].size() == 8);
  CHECK(r.phases[1].banks[2][0].word == (8 * 128 + 8) / 4);
  CHECK(r.phases[1].banks[2][0].lanes == std::vector<int>{8});
  CHECK(r.phases[1].banks[4].empty());

  // Lane pairs on one address pack: 64-bit loads in one phase, stores not.
  const std::vector<std::int64_t> pairs = [] {
    std::vector<std::int64_t> v;
    for (int lane = 0; lane < 32; ++lane) v.push_back(lane / 2 * 8);
    return v;
  }();
  const InstructionBanks ld = analyze_instruction(SharedAccess::Ld64, pairs);
  CHECK(ld.packed);
  CHECK(ld.pair_distance == 1);
  CHECK(ld.wavefronts == 1);
  CHECK(ld.phases[0].banks[0][0].lanes == std::vector<int>{0, 1});
  CHECK(count_wavefronts(SharedAccess::St64, pairs).wavefronts == 2);
}

TEST_CASE("bank model: THREADS forms") {
  Diagnostics diag;
  struct Case {
    const char* threads;
    const char* smem;
    SharedAccess access;
    std::int64_t elem_bits;
    int wavefronts, ideal, instructions;
  };
  const Case cases[] = {
      {"Sw<3,3,3> o 32:64", nullptr, SharedAccess::Ld128, 16, 4, 4, 1},
      {"32:64", nullptr, SharedAccess::Ld128, 16, 32, 4, 1},
      // lanes as coordinates of a (32,64) row-major tile, plain and swizzled
      {"32:1", "(32,64):(64,1)", SharedAccess::Ld128, 16, 32, 4, 1},
      {"32:1", "Sw<3,3,3> o (32,64):(64,1)", SharedAccess::Ld128, 16, 4, 4, 1},
      // two instructions: lanes 32..63 are the second's
      {"(32,2):(32,1)", nullptr, SharedAccess::Ld32, 32, 64, 2, 2},
      {"(32,2):(1,32)", nullptr, SharedAccess::Ld32, 32, 2, 2, 2},
      // int4 elements: 8 per 32-bit word
      {"32:8", nullptr, SharedAccess::Ld32, 4, 1, 1, 1},
      {"32:256", nullptr, SharedAccess::Ld32, 4, 32, 1, 1},
      // ldmatrix.x1 reads lanes 0..7 only
      {"8:8", nullptr, SharedAccess::Ldsm1, 16, 1, 1, 1},
      {"(8,4):(8,1)", nullptr, SharedAccess::Ldsm1, 16, 1, 1, 1},
  };
  for (const auto& c : cases) {
    const std::string what = c.threads;
    CAPTURE(what);
    const AnyLayout smem = c.smem ? layout_of(c.smem) : AnyLayout{};
    const BankAnalysis a = analyze_banks(c.access, layout_of(c.threads), c.elem_bits, diag, c.smem ? &smem : nullptr);
    CHECK(a.wavefronts == c.wavefronts);
    CHECK(a.ideal == c.ideal);
    CHECK(a.instructions.size() == static_cast<std::size_t>(c.instructions));
  }
}

TEST_CASE("bank model: TV layouts into a shared-memory tile") {
  Diagnostics diag;
  struct Case {
    const char* tv;
    const char* smem;
    SharedAccess access;
    int wavefronts, ideal, instructions;
  };
  // 32 threads, each 8 halves along a row of an 8x64 row-major tile.
  const Case cases[] = {
      {"((8,4),8):((64,1),8)", "(8,64):(64,1)", SharedAccess::Ld128, 4, 4, 1},
      {"((8,4),8):((64,1),8)", "(8,64):(64,1)", SharedAccess::Ld64, 8, 4, 2},
      {"((8,4),8):((64,1),8)", "(8,64):(64,1)", SharedAccess::St32, 16, 4, 4},  // 4 rows share banks
      // columns of 8 threads down the rows: conflicts until swizzled
      {"((4,8),8):((1,32),4)", "(4,128):(128,1)", SharedAccess::Ld128, 16, 4, 1},
      {"((4,8),8):((1,32),4)", "Sw<2,3,4> o (4,128):(128,1)", SharedAccess::Ld128, 8, 4, 1},
      // two warps: 64 threads
      {"((8,8),8):((64,1),8)", "(8,64):(64,1)", SharedAccess::Ld128, 8, 8, 2},
  };
  for (const auto& c : cases) {
    const std::string what = std::string(c.tv) + " into " + c.smem;
    CAPTURE(what);
    const AnyLayout smem = layout_of(c.smem);
    const BankAnalysis a = analyze_tv_banks(c.access, std::get<Layout>(layout_of(c.tv)), smem, 16, diag);
    CHECK(a.wavefronts == c.wavefronts);
    CHECK(a.ideal == c.ideal);
    CHECK(a.instructions.size() == static_cast<std::size_t>(c.instructions));
  }
  const AnyLayout swizzled = layout_of("Sw<3,2,3> o (8,64):(64,1)");
  CHECK_THROWS_WITH_AS(
      analyze_tv_banks(SharedAccess::Ld128, std::get<Layout>(layout_of("((8,4),8):((64,1),8)")), swizzled, 16, diag),
      doctest::Contains("not contiguous"), Error);
  CHECK_THROWS_WITH_AS(
      analyze_tv_banks(SharedAccess::Ldsm4, std::get<Layout>(layout_of("(32,8):(1,32)")), swizzled, 16, diag),
      doctest::Contains("row address"), Error);
}

TEST_CASE("bank model: refusals") {
  Diagnostics diag;
  struct Case {
    const char* threads;
    SharedAccess access;
    std::int64_t elem_bits;
    const char* message;  // a piece of the error
  };
  const Case cases[] = {
      {"32:1", SharedAccess::Ld128, 16, "not a multiple of 16"},
      {"32:-1", SharedAccess::Ld32, 32, "not negative"},
      {"40:1", SharedAccess::Ld32, 32, "multiple of 32"},
      {"8:8", SharedAccess::Ldsm4, 16, "lanes 0..31"},
      {"32:1", SharedAccess::Ld32, 3, "whole byte"},
      {"32:1", SharedAccess::Ld32, 0, "positive"},
      {"(32,100000):(1,32)", SharedAccess::Ld32, 32, "at most 65536"},
      {"32:2147483648", SharedAccess::Ld32, 32, "32-bit shared address space"},
      {"32:4611686018427387904", SharedAccess::Ld32, 32, "overflow"},
  };
  for (const auto& c : cases) {
    const std::string what = c.threads;
    CAPTURE(what);
    try {
      analyze_banks(c.access, layout_of(c.threads), c.elem_bits, diag);
      FAIL_CHECK("accepted");
    } catch (const Error& e) {
      CHECK_MESSAGE(std::string(e.what()).find(c.message) != std::string::npos, e.what());
    }
  }
  // Past 227 KB: answered, with a warning.
  Diagnostics d;
  CHECK(analyze_banks(SharedAccess::Ld32, layout_of("32:65536"), 32, d).wavefronts == 32);
  CHECK(d.warnings().size() == 1);
}

TEST_CASE("bank renderers: JSON keys, text, grid") {
  Diagnostics diag;
  const BankAnalysis a = analyze_banks(SharedAccess::Ld128, layout_of("Sw<3,4,3> o 32:64"), 16, diag);
  const std::string json = render_bank(a, BankFormat::Json, false);
  CHECK(json.find("\"wavefronts\": 8") != std::string::npos);
  CHECK(json.find("\"ideal\": 4") != std::string::npos);
  CHECK(json.find("\"conflicts\": [{\"bank\": ") != std::string::npos);
  CHECK(std::count(json.begin(), json.end(), '\n') == 1);
  const std::string text = render_bank(a, BankFormat::Text, false);
  CHECK(text.find("wavefronts: 8\nideal: 4\nconflict degree: 2-way\n") != std::string::npos);
  CHECK(text.find("phase 0 (lanes 0-7): 2 wavefronts") != std::string::npos);
  const std::string grid = render_bank(a, BankFormat::Grid, false);
  CHECK(grid.find("p0 w1") != std::string::npos);
  CHECK(grid.find("\x1b[") == std::string::npos);
  CHECK(render_bank(a, BankFormat::Grid, true).find("\x1b[48;5;") != std::string::npos);
}

TEST_CASE("swizzle search: 128-bit stores and ldmatrix.x4 over a 16x64 half tile") {
  Diagnostics diag;
  const Layout tile = std::get<Layout>(layout_of("(16,64):(64,1)"));
  const std::vector<AccessPattern> patterns = {
      {"write", SharedAccess::St128, layout_of("(8,4,4):(128,1,4)")},
      {"read", SharedAccess::Ldsm4, layout_of("(16,2,4):(1,128,256)")},
  };
  const SearchResult r = search_swizzles(tile, 16, patterns, SearchOptions{});
  CHECK(r.evaluated > 100);
  CHECK(r.base.wavefronts == 4 * 4 + 4 * 32);  // rows written cleanly, every ldmatrix 8-way
  REQUIRE(r.ranked.size() == 5);
  const SearchCandidate& best = r.ranked[0];
  CHECK(best.wavefronts == best.ideal);
  CHECK(best.wavefronts == 32);
  CHECK(best.scores[0].vector_bytes == 16);
  CHECK(best.scores[1].vector_bytes == 16);
  REQUIRE(best.swizzle.has_value());
  CHECK(*best.swizzle == Swizzle{3, 3, 3});
  for (std::size_t i = 1; i < r.ranked.size(); ++i) CHECK(r.ranked[i - 1].wavefronts <= r.ranked[i].wavefronts);

  // The search's score of a candidate is what `bank` says of the same accesses.
  const AnyLayout read_lanes = layout_of("(16,2,4):(1,128,256)");
  const BankAnalysis check = analyze_banks(SharedAccess::Ldsm4, read_lanes, 16, diag, &best.layout);
  CHECK(check.wavefronts == best.scores[1].wavefronts);

  // Paddings alone: a 16-byte pad per 128-byte row.
  SearchOptions pads;
  pads.swizzles = false;
  const SearchResult p = search_swizzles(tile, 16, patterns, pads);
  REQUIRE(!p.ranked.empty());
  CHECK(p.ranked[0].wavefronts == 32);
  CHECK(p.ranked[0].padding == 8);
  CHECK(p.ranked[0].extra_bytes == (15 * 72 + 64 - 1024) * 2);  // cosize grows by 15 pads
  CHECK(std::get<Layout>(p.ranked[0].layout) == std::get<Layout>(layout_of("(16,64):(72,1)")));
}

TEST_CASE("swizzle search: vectors a swizzle breaks are split, ldmatrix rows are not") {
  const Layout tile = std::get<Layout>(layout_of("(8,64):(64,1)"));
  // 128-bit loads down the rows; Sw<3,1,3> keeps only 2-element (4-byte) runs.
  const std::vector<AccessPattern> loads = {{"read", SharedAccess::Ld128, layout_of("(8,4):(1,64)")}};
  SearchOptions all;
  all.top = 1000;
  const SearchResult r = search_swizzles(tile, 16, loads, all);
  bool seen = false;
  for (const auto& c : r.ranked)
    if (c.swizzle && *c.swizzle == Swizzle{3, 1, 3}) {
      seen = true;
      CHECK(c.scores[0].vector_bytes == 4);
      CHECK(c.scores[0].access == SharedAccess::Ld32);
      CHECK(c.scores[0].instructions == 4);
    }
  CHECK(seen);
  const std::vector<AccessPattern> matrices = {{"read", SharedAccess::Ldsm1, layout_of("8:64")}};
  const SearchResult m = search_swizzles(tile, 16, matrices, all);
  CHECK(m.infeasible > 0);
  for (const auto& c : m.ranked) CHECK(c.scores[0].vector_bytes == 16);
}

TEST_CASE("swizzle search: refusals") {
  const Layout tile = std::get<Layout>(layout_of("(8,64):(64,1)"));
  auto refuses = [&](const char* pattern, SharedAccess access, std::int64_t bits, const char* message) {
    const std::string what = pattern;
    CAPTURE(what);
    try {
      search_swizzles(tile, bits, {{"read", access, layout_of(pattern)}}, SearchOptions{});
      FAIL_CHECK("accepted");
    } catch (const Error& e) {
      CHECK_MESSAGE(std::string(e.what()).find(message) != std::string::npos, e.what());
    }
  };
  refuses("32:1", SharedAccess::Ld128, 16, "not aligned");
  refuses("32:64", SharedAccess::Ld32, 16, "outside the tile");
  refuses("40:1", SharedAccess::Ld16, 16, "multiple of 32");
  refuses("32:2", SharedAccess::Ld16, 32, "whole number");
  CHECK_THROWS_AS(search_swizzles(tile, 16, {}, SearchOptions{}), Error);
}

}  // namespace layoutx::test
