// Evaluation of layouts by an evaluator independent of the host's: on a CUDA
// GPU, or the same code on the CPU. `layoutx check` compares the host's
// offsets with it and verifies the defining properties of the algebra's
// results at every point; `layoutx offsets --device` streams from the GPU.
//
// Nothing here names a CUDA type. Built without CUDA, or run without a GPU,
// every Where::Gpu request throws Error saying which.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "layoutx/swizzle_algebra.hpp"

namespace layoutx::device {

// Where the independent evaluator runs: the GPU, or the same code on the CPU.
enum class Where { Cpu, Gpu };

// The most indices one check evaluates.
constexpr std::uint64_t kMaxPoints = std::uint64_t{1} << 32;

// Why a GPU request would fail ("layoutx was built without CUDA", "no CUDA
// GPU found: ..."), or empty when a GPU is there.
std::string gpu_unavailable_reason();
// "NVIDIA H200 (132 SMs, 140 GB)"; throws Error with the reason above when there is none.
std::string gpu_description();

// Offsets in index order, a block at a time.
using OffsetBlocks = std::function<void(const std::int64_t* offsets, std::size_t count)>;
// Something that streams a layout's offsets of the indices [lo, hi), lo first,
// through the sink it is given. The checks ask for disjoint ranges from
// several threads at once, so that the host's offsets too are produced on
// every core.
using OffsetSource = std::function<void(std::uint64_t lo, std::uint64_t hi, const OffsetBlocks&)>;

// Every offset of l, index 0 to size-1, computed by the independent evaluator.
void generate_offsets(Where where, const AnyLayout& l, const OffsetBlocks& sink);

// The plain offsets table of l (one decimal offset per line), digits and all
// written by the GPU; the host only passes the text on, a chunk at a time.
using TextSink = std::function<void(std::string_view text)>;
void generate_offset_lines(const AnyLayout& l, const TextSink& sink);

struct Mismatch {
  std::int64_t index;     // where the property fails (for Verdict::missing: the value)
  std::int64_t expected;  // what the property asks for
  std::int64_t actual;    // what was found (-1: not found)
};

// How a property fared: the points tested, how many failed, and the first
// failures in index order (at most `first_limit`).
struct Verdict {
  std::uint64_t points = 0;
  std::uint64_t failures = 0;
  std::vector<Mismatch> first;
};

struct CheckOptions {
  Where where = Where::Cpu;
  std::size_t first_limit = 8;
  std::uint64_t max_points = kMaxPoints;  // indices one check evaluates at most (at most kMaxPoints)
  int threads = 0;  // the CPU's threads at most (0: one per core); the answer is the same for any number
};

// r(i) == host offset i for every index; `host` streams the host evaluator's offsets of r.
Verdict compare_offsets(const CheckOptions& o, const AnyLayout& r, const OffsetSource& host);

// r(i) == a(b(i)) for every index of r.
Verdict check_composition(const CheckOptions& o, const AnyLayout& r, const AnyLayout& a, const AnyLayout& b);
// By mode: r(c_0, c_1, ...) == a(tile[0](c_0), tile[1](c_1), ...), one tile
// layout for each of the first tile.size() top-level modes of a (of a's
// inner layout when swizzled).
Verdict check_composition(const CheckOptions& o, const AnyLayout& r, const AnyLayout& a,
                          const std::vector<Layout>& tile);

// outer(inner(i)) == i for every index of inner.
Verdict check_inverse(const CheckOptions& o, const AnyLayout& outer, const AnyLayout& inner);

// r(i) < r(i+1): r is strictly increasing.
Verdict check_ordered(const CheckOptions& o, const AnyLayout& r);

// No a(i) other than 0 is an offset of r. @pre r is ordered (check_ordered)
Verdict check_disjoint(const CheckOptions& o, const AnyLayout& a, const AnyLayout& r);

// The offsets of d are exactly 0..n-1: none outside, none left out.
struct Bijection {
  Verdict outside;  // indices whose offset is outside [0, n)
  Verdict missing;  // values in [0, n) no index reaches (Mismatch::index is the value)
};
Bijection check_bijection(const CheckOptions& o, const AnyLayout& d, std::int64_t n);

}  // namespace layoutx::device
