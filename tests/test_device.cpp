// The independent evaluator (layoutx/device.hpp) on the CPU: its arithmetic,
// its agreement with the engine, and that every check catches a planted fault.
// The GPU runs the same code (tests/gpu/test_gpu_device.cpp).
#include <doctest/doctest.h>

#include <random>

#include "device/flat_layout_build.hpp"
#include "golden_cases.hpp"
#include "layout_of.hpp"
#include "layoutx/device.hpp"
#include "layoutx/language.hpp"
#include "layoutx/render.hpp"
#include "test_support.hpp"

namespace layoutx {

namespace {

using device::CheckOptions;
using device::Where;

using test::layout_of;

std::vector<std::int64_t> independent(Where where, const AnyLayout& l) {
  std::vector<std::int64_t> out;
  device::generate_offsets(where, l, [&](const std::int64_t* o, std::size_t n) { out.insert(out.end(), o, o + n); });
  return out;
}

device::OffsetSource host_of(const AnyLayout& l) {
  return [l](std::uint64_t lo, std::uint64_t hi, const device::OffsetBlocks& sink) {
    stream_offset_values(l, static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi), sink);
  };
}

// A host whose offsets are `offsets`, handed on in blocks of at most `block`;
// `extra` more (or, negative, fewer) than each range asks for.
device::OffsetSource host_giving(std::vector<std::int64_t> offsets, std::size_t block, int extra = 0) {
  return [offsets = std::move(offsets), block, extra](std::uint64_t lo, std::uint64_t hi,
                                                      const device::OffsetBlocks& sink) {
    const std::uint64_t end = static_cast<std::uint64_t>(static_cast<std::int64_t>(hi) + extra);
    for (std::uint64_t at = lo; at < end; at += block)
      sink(offsets.data() + at, std::min<std::uint64_t>(block, end - at));
  };
}

const CheckOptions cpu{Where::Cpu, 8};

}  // namespace

TEST_CASE("division by an extent is exact for 32- and 64-bit indices") {
  using device_detail::make_divisor;
  using device_detail::quotient;
  std::vector<std::int64_t> divisors;
  for (std::int64_t d = 1; d <= 300; ++d) divisors.push_back(d);
  for (int b = 2; b < 63; ++b)
    for (std::int64_t e : {-1, 0, 1}) divisors.push_back((std::int64_t{1} << b) + e);
  divisors.push_back(INT64_MAX);
  std::mt19937_64 rng(7);
  for (std::int64_t d : divisors) {
    const auto v = make_divisor(d);
    std::vector<std::uint64_t> xs = {
        0, 1, static_cast<std::uint64_t>(d) - 1, static_cast<std::uint64_t>(d), 0xffffffffULL, (1ULL << 63) - 1};
    for (int k = 0; k < 200; ++k) xs.push_back(rng() >> (1 + rng() % 63));
    for (std::uint64_t x : xs) {
      if (x < (1ULL << 63)) REQUIRE(quotient(x, v) == x / static_cast<std::uint64_t>(d));
      const auto x32 = static_cast<std::uint32_t>(x);
      REQUIRE(quotient(x32, v) == x32 / static_cast<std::uint64_t>(d));
    }
  }
}

TEST_CASE("an extent of 2^32 or more leaves a 32-bit index whole") {
  const auto flat = device_detail::flat_of(layout_of("(4294967296,1):(3,0)"));
  REQUIRE(flat.leaves == 2);
  std::uint32_t x[4] = {0, 5, 4294967295u, 7};
  std::int64_t o[4];
  device_detail::offsets_of_indices<std::uint32_t, std::int64_t, 4, 2>(flat, x, o);
  CHECK(o[0] == 0);
  CHECK(o[1] == 15);
  CHECK(o[2] == 3 * std::int64_t{4294967295});
  CHECK(o[3] == 21);
}

TEST_CASE("the independent evaluator agrees with the engine at every index") {
  const char* table[] = {
      "(4,3):(3,1)",
      "((2,3),(4,5)):((1,40),(2,8))",
      "(3,(2,(5,7))):(70,(35,(1,5)))",
      "(2,1,3,1):(1,0,2,0)",
      "(5,4):(-4,1)",
      "Sw<3,4,3> o (8,64):(64,1)",
      "Sw<2,0,-3> o 5 o (16,16):(1,16)",
      "Sw<1,2,2> o 0 o Sw<2,0,3> o 3 o (8,16):(16,1)",
      "zipped_divide((32,32):(32,1), (4:1,(2,4):(1,8)))",
      "logical_divide(8:1, 3:6)",
  };
  for (const char* text : table) {
    CAPTURE(text);
    const AnyLayout l = layout_of(text);
    const std::vector<std::int64_t> got = independent(Where::Cpu, l);
    REQUIRE(got.size() == static_cast<std::size_t>(size(l).value));
    for (std::size_t i = 0; i < got.size(); ++i) {
      CAPTURE(i);
      REQUIRE(got[i] == evaluate(l, IntTuple(static_int(static_cast<std::int64_t>(i)))).value);
    }
    CHECK(device::compare_offsets(cpu, l, host_of(l)).failures == 0);
    // The GPU's batched evaluation, four indices at a time, in 32 and 64 bits.
    const auto flat = device_detail::flat_of(l);
    const bool narrow = device_detail::fits_int32(flat, got.size());
    for (std::size_t i = 0; i + 4 <= got.size(); i += 4) {
      std::uint32_t x32[4] = {std::uint32_t(i), std::uint32_t(i + 1), std::uint32_t(i + 2), std::uint32_t(i + 3)};
      std::uint64_t x64[4] = {i, i + 1, i + 2, i + 3};
      std::int32_t o32[4];
      std::int64_t o64[4];
      device_detail::offsets_of_indices<std::uint32_t, std::int32_t, 4>(flat, x32, o32);
      device_detail::offsets_of_indices<std::uint64_t, std::int64_t, 4>(flat, x64, o64);
      for (std::size_t k = 0; k < 4; ++k) {
        CAPTURE(i + k);
        REQUIRE(device_detail::apply_stages(flat, o64[k]) == got[i + k]);
        if (narrow) REQUIRE(device_detail::apply_stages(flat, o32[k]) == got[i + k]);
      }
    }
  }
}

TEST_CASE("compare_offsets agrees with the host on every golden layout") {
  test::Mismatches shown;
  int compared = 0;
  for (const auto& c : test::golden_cases()) {
    if (c.error || (c.kind != "layout" && c.kind != "composed") || !c.offsets) continue;
    const AnyLayout l = layout_of(c.expr);
    const auto v = device::compare_offsets(cpu, l, host_of(l));
    ++compared;
    if (v.failures && shown.report()) FAIL_CHECK(c.id << " " << c.expr << ": " << v.failures << " mismatches");
  }
  CHECK(shown.count() == 0);
  CHECK(compared > 1000);
}

TEST_CASE("a host offset that disagrees is reported, first ones first") {
  const AnyLayout l = layout_of("(8,8):(8,1)");
  std::vector<std::int64_t> o = independent(Where::Cpu, l);
  o[5] += 1;
  o[40] = -3;
  const auto v = device::compare_offsets(cpu, l, host_giving(o, 20));
  CHECK(v.points == 64);
  REQUIRE(v.failures == 2);
  CHECK(v.first[0].index == 5);
  CHECK(v.first[0].expected == 41);
  CHECK(v.first[0].actual == 40);
  CHECK(v.first[1].index == 40);
  CHECK(v.first[1].expected == -3);
}

TEST_CASE("failures found in parts on several threads come back in index order") {
  // 2^21 points: up to 32 parts, each asking the host for its own offsets.
  const AnyLayout l = layout_of("(2048,1024):(1024,1)");
  const std::vector<std::int64_t> planted = {3, 131073, 1048575, 1048576, 1500000, 2097151};
  std::vector<std::int64_t> o = independent(Where::Cpu, l);
  for (std::int64_t i : planted) o[static_cast<std::size_t>(i)] = -1;
  for (int threads : {1, 2, 3, 8, 32, 0}) {
    CAPTURE(threads);
    const auto v =
        device::compare_offsets(CheckOptions{Where::Cpu, 4, device::kMaxPoints, threads}, l, host_giving(o, 100000));
    CHECK(v.points == 2097152);
    CHECK(v.failures == planted.size());
    REQUIRE(v.first.size() == 4);
    for (std::size_t k = 0; k < 4; ++k) CHECK(v.first[k].index == planted[k]);
  }
}

TEST_CASE("a host that gives too few or too many offsets is an error") {
  for (const char* text : {"(4,4)", "(1024,512)"}) {
    CAPTURE(text);
    const AnyLayout l = layout_of(text);
    std::vector<std::int64_t> o = independent(Where::Cpu, l);
    o.push_back(0);
    for (int threads : {1, 3}) {
      const CheckOptions options{Where::Cpu, 8, device::kMaxPoints, threads};
      CHECK(device::compare_offsets(options, l, host_giving(o, 1000)).failures == 0);
      CHECK_THROWS_AS(device::compare_offsets(options, l, host_giving(o, 1000, -1)), Error);
      CHECK_THROWS_AS(device::compare_offsets(options, l, host_giving(o, 1000, 1)), Error);
    }
  }
}

TEST_CASE("each property holds for CuTe's answers and fails for a planted wrong one") {
  SUBCASE("composition") {
    const AnyLayout a = layout_of("(4,6):(6,1)"), b = layout_of("(2,3):(1,4)");
    CHECK(device::check_composition(cpu, layout_of("composition((4,6):(6,1), (2,3):(1,4))"), a, b).failures == 0);
    const auto v = device::check_composition(cpu, layout_of("(2,3):(6,2)"), a, b);
    REQUIRE(v.failures > 0);
    CHECK(v.first.front().index == 2);  // B(2) = 4 and A(4) = 1, where R(2) = 2
  }
  SUBCASE("composition by mode") {
    const AnyLayout a = layout_of("Sw<2,0,3> o (8,8):(8,1)");
    const std::vector<Layout> tile = {std::get<Layout>(layout_of("4:2")), std::get<Layout>(layout_of("(2,2):(1,4)"))};
    CHECK(device::check_composition(cpu, layout_of("composition(Sw<2,0,3> o (8,8):(8,1), (4:2,(2,2):(1,4)))"), a, tile)
              .failures == 0);
    CHECK(device::check_composition(cpu, layout_of("Sw<2,0,3> o (4,(2,2)):(16,(1,2))"), a, tile).failures > 0);
  }
  SUBCASE("inverses") {
    const AnyLayout l = layout_of("(4,(2,3)):(6,(1,2))");
    CHECK(device::check_inverse(cpu, l, layout_of("right_inverse((4,(2,3)):(6,(1,2)))")).failures == 0);
    CHECK(device::check_inverse(cpu, layout_of("left_inverse((4,(2,3)):(6,(1,2)))"), l).failures == 0);
    CHECK(device::check_inverse(cpu, l, layout_of("(2,3,4):(1,2,6)")).failures > 0);
  }
  SUBCASE("complement") {
    const AnyLayout a = layout_of("(2,4):(1,6)");
    const AnyLayout r = layout_of("complement((2,4):(1,6), 48)");
    CHECK(device::check_ordered(cpu, r).failures == 0);
    CHECK(device::check_disjoint(cpu, a, r).failures == 0);
    CHECK(device::check_ordered(cpu, layout_of("(3,2):(2,1)")).failures > 0);
    const auto v = device::check_disjoint(cpu, a, layout_of("(2,3):(2,6)"));
    CHECK(v.failures > 0);
    CHECK(v.first.front().expected == 6);  // A(2) = 6 = R(2)
  }
  SUBCASE("bijection") {
    const auto ok = device::check_bijection(cpu, layout_of("(4,2):(2,1)"), 8);
    CHECK(ok.outside.failures == 0);
    CHECK(ok.missing.failures == 0);
    const auto bad = device::check_bijection(cpu, layout_of("(4,2):(2,3)"), 8);
    CHECK(bad.outside.failures == 1);  // (3,1) reaches 9
    CHECK(bad.missing.failures == 1);  // 1 is never reached
    CHECK(bad.missing.first.front().index == 1);
  }
}

TEST_CASE("offsets past the device's 64-bit range are refused, not wrapped") {
  const AnyLayout l = layout_of("(8,8):(1,1152921504606846976)");
  CHECK_THROWS_AS(device::compare_offsets(cpu, l, host_of(l)), Error);
  const AnyLayout huge = layout_of("(65536,65536,2):(1,65536,0)");
  CHECK_THROWS_WITH_AS(device::check_ordered(cpu, huge), doctest::Contains("2^32"), Error);
}

TEST_CASE("GPU requests without a usable GPU say why") {
  const std::string why = device::gpu_unavailable_reason();
  if (!why.empty()) {
    CHECK((why.find("without CUDA") != std::string::npos || why.find("no CUDA GPU") != std::string::npos));
    const AnyLayout l = layout_of("(4,3):(3,1)");
    CHECK_THROWS_WITH_AS(device::compare_offsets(CheckOptions{Where::Gpu, 8}, l, host_of(l)), why.c_str(), Error);
    CHECK_THROWS_WITH_AS(independent(Where::Gpu, l), why.c_str(), Error);
    CHECK_THROWS_WITH_AS(device::gpu_description(), why.c_str(), Error);
  }
}

}  // namespace layoutx
