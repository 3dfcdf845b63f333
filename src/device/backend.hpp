// The two places the independent evaluator runs. Both take the same check
// specifications and answer the same way; only the GPU one needs CUDA.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "checks.hpp"
#include "layoutx/device.hpp"
#include "layoutx/parallel.hpp"

namespace layoutx::device_detail {

// How many indices failed, and the first failures in index order.
struct Outcome {
  std::uint64_t failures = 0;
  std::vector<Failure> first;
};

// The most failures a run reports one by one.
constexpr std::size_t kMaxFirst = 64;

// How many parts of at least 2^16 indices a walk of n indices takes: one per
// core, or up to `threads` when it is not 0.
inline int parts_within(std::uint64_t n, int threads) { return parts_for(n, std::uint64_t{1} << 16, threads); }

// Asks `host` for the offsets of the indices [lo, hi) and hands each block on
// as each(index of its first offset, offsets, count); throws Error unless
// exactly hi - lo offsets arrive.
template <class Each>
void host_offsets(const device::OffsetSource& host, std::uint64_t lo, std::uint64_t hi, Each&& each) {
  std::uint64_t next = lo;
  host(lo, hi, [&](const std::int64_t* values, std::size_t n) {
    if (n > hi - next)
      throw Error(fmt::format("the host gave more than the {} offsets of the indices [{}, {})", hi - lo, lo, hi));
    each(next, values, n);
    next += n;
  });
  if (next != hi)
    throw Error(fmt::format("the host gave {} offsets for the {} indices [{}, {})", next - lo, hi - lo, lo, hi));
}

namespace cpu {
// Runs the checks in order over [0, spec.points), on `threads` threads at
// most (0: one per core); they share one bitmap of `bitmap_bits` bits.
std::vector<Outcome> run(const std::vector<CheckSpec>& specs, std::uint64_t bitmap_bits, std::size_t first_limit,
                         int threads);
// HostOffsets against the offsets `host` streams, each part of the indices
// asking for its own.
Outcome compare_host(const CheckSpec& spec, const device::OffsetSource& host, std::size_t first_limit, int threads);
void generate(const FlatLayout& l, std::uint64_t n, const device::OffsetBlocks& sink);
}  // namespace cpu

// With CUDA gpu_module.cpp, which hands each call to the module built from
// gpu_backend.cu; gpu_unavailable.cpp without.
namespace gpu {
std::string unavailable_reason();
std::string description();
std::vector<Outcome> run(const std::vector<CheckSpec>& specs, std::uint64_t bitmap_bits, std::size_t first_limit);
// `threads`: the host's threads producing its offsets, as above.
Outcome compare_host(const CheckSpec& spec, const device::OffsetSource& host, std::size_t first_limit, int threads);
void generate(const FlatLayout& l, std::uint64_t n, const device::OffsetBlocks& sink);
void generate_lines(const FlatLayout& l, std::uint64_t n, const device::TextSink& sink);
}  // namespace gpu

}  // namespace layoutx::device_detail
