// The independent evaluator on the GPU (ctest label gpu): the same answers
// as its CPU backend and the engine, at sizes that exercise the chunking,
// the 32/64-bit paths and the search for the first failures. Without a GPU
// the program exits 77, which ctest counts as skipped.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <random>

#include "../golden_cases.hpp"
#include "layoutx/device.hpp"
#include "layoutx/language.hpp"
#include "layoutx/render.hpp"

namespace layoutx {

namespace {

using device::CheckOptions;
using device::Where;

const CheckOptions gpu{Where::Gpu, 8};
const CheckOptions cpu{Where::Cpu, 8};

AnyLayout layout_of(const std::string& text) {
  Diagnostics diag;
  const Value v = evaluate_expression(text, LanguageOptions{}, diag);
  return *v.as_layout();
}

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

}  // namespace

TEST_CASE("GPU offsets equal the CPU backend's and the host's, 32- and 64-bit") {
  const char* table[] = {
      "(4,3):(3,1)",
      "Sw<3,4,3> o (8,64):(64,1)",
      "Sw<1,2,2> o 0 o Sw<2,0,3> o 3 o (8,16):(16,1)",
      "(5,4):(-4,1)",
      "zipped_divide((4096,4096):(4096,1), ((4,32):(32,1),(8,8):(8,1)))",  // 2^24, 32-bit offsets
      "(8192,4097):(1,1048576)",                                           // 64-bit offsets, odd size
      "Sw<3,4,3> o 0 o ((8,2048),(8,257)):((65536,524288),(1,8))",
  };
  for (const char* text : table) {
    CAPTURE(text);
    const AnyLayout l = layout_of(text);
    const auto g = independent(Where::Gpu, l);
    REQUIRE(g == independent(Where::Cpu, l));
    CHECK(device::compare_offsets(gpu, l, host_of(l)).failures == 0);
  }
}

TEST_CASE("every golden layout: host offsets and properties on the GPU") {
  int compared = 0, failed = 0;
  for (const auto& c : test::golden_cases()) {
    if (c.error || (c.kind != "layout" && c.kind != "composed")) continue;
    const AnyLayout l = layout_of(c.expr);
    if (size(l).value <= 0) continue;
    const auto v = device::compare_offsets(gpu, l, host_of(l));
    ++compared;
    if (v.failures && ++failed <= 5) FAIL_CHECK(c.id << " " << c.expr);
  }
  CHECK(failed == 0);
  CHECK(compared > 1000);
}

TEST_CASE("the first failures come back in index order past the log's capacity") {
  // 2^22 points, a wrong host offset at every 1000th index from 123 on.
  const AnyLayout l = layout_of("(2048,2048):(2048,1)");
  std::vector<std::int64_t> o = independent(Where::Cpu, l);
  for (std::size_t i = 123; i < o.size(); i += 1000) o[i] ^= 1;
  const auto v = device::compare_offsets(CheckOptions{Where::Gpu, 20}, l,
                                         [&](std::uint64_t lo, std::uint64_t hi, const device::OffsetBlocks& sink) {
                                           for (std::uint64_t at = lo; at < hi; at += 77777)
                                             sink(o.data() + at, std::min<std::uint64_t>(77777, hi - at));
                                         });
  CHECK(v.failures == (4194304 - 123 + 999) / 1000);
  REQUIRE(v.first.size() == 20);
  for (std::size_t k = 0; k < 20; ++k) CHECK(v.first[k].index == static_cast<std::int64_t>(123 + 1000 * k));
}

TEST_CASE("properties on the GPU give the CPU backend's verdicts") {
  const AnyLayout a = layout_of("(64,(32,16)):(512,(1,32))");
  const AnyLayout b = layout_of("(16,(8,4)):(4,(64,2048))");
  const AnyLayout r = layout_of("composition((64,(32,16)):(512,(1,32)), (16,(8,4)):(4,(64,2048)))");
  const AnyLayout wrong = layout_of("(16,(8,4)):(4,(64,2049))");
  for (const auto* x : {&r, &wrong}) {
    const auto g = device::check_composition(gpu, *x, a, b), c = device::check_composition(cpu, *x, a, b);
    CHECK(g.failures == c.failures);
    REQUIRE(g.first.size() == c.first.size());
    for (std::size_t k = 0; k < g.first.size(); ++k) CHECK(g.first[k].index == c.first[k].index);
  }
  const AnyLayout inv = layout_of("right_inverse((64,(32,16)):(512,(1,32)))");
  CHECK(device::check_inverse(gpu, a, inv).failures == 0);
  const AnyLayout comp = layout_of("complement((64,(32,16)):(512,(1,32)), 1048576)");
  CHECK(device::check_ordered(gpu, comp).failures == 0);
  CHECK(device::check_disjoint(gpu, a, comp).failures == 0);
  const auto bij = device::check_bijection(gpu, layout_of("(4096,2,512):(1,2097152,4096)"), 4194304);
  CHECK(bij.outside.failures == 0);
  CHECK(bij.missing.failures == 0);
  const auto dup = device::check_bijection(gpu, layout_of("(4096,2,512):(1,4096,4096)"), 4194304);
  CHECK(dup.missing.failures == 2097152 - 4096);
}

}  // namespace layoutx

int main(int argc, char** argv) {
  // Skipped without a GPU or without CUDA; a CUDA build whose GPU module
  // cannot be opened is a broken build, not a machine without a GPU.
  const std::string why = layoutx::device::gpu_unavailable_reason();
  if (why.find("no CUDA GPU") != std::string::npos || why.find("without CUDA") != std::string::npos) {
    std::printf("skipped: %s\n", why.c_str());
    return 77;
  }
  if (!why.empty()) {
    std::printf("%s\n", why.c_str());
    return 1;
  }
  std::printf("%s\n", layoutx::device::gpu_description().c_str());
  doctest::Context context(argc, argv);
  return context.run();
}
