// The two places the independent evaluator runs. Both take the same check
// specifications and answer the same way; only the GPU one needs CUDA.
#pragma once

#include <string>
#include <vector>

#include "checks.hpp"
#include "layoutx/device.hpp"

namespace layoutx::device_detail {

// How many indices failed, and the first failures in index order.
struct Outcome {
  std::uint64_t failures = 0;
  std::vector<Failure> first;
};

// The most failures a run reports one by one.
constexpr std::size_t kMaxFirst = 64;

namespace cpu {
// Runs the checks in order over [0, spec.points); they share one bitmap of `bitmap_bits` bits.
std::vector<Outcome> run(const std::vector<CheckSpec>& specs, std::uint64_t bitmap_bits, std::size_t first_limit);
// HostOffsets against the offsets `host` streams.
Outcome compare_host(const CheckSpec& spec, const device::OffsetSource& host, std::size_t first_limit);
void generate(const FlatLayout& l, std::uint64_t n, const device::OffsetBlocks& sink);
}  // namespace cpu

// gpu_backend.cu with CUDA; gpu_unavailable.cpp without.
namespace gpu {
std::string unavailable_reason();
std::string description();
std::vector<Outcome> run(const std::vector<CheckSpec>& specs, std::uint64_t bitmap_bits, std::size_t first_limit);
Outcome compare_host(const CheckSpec& spec, const device::OffsetSource& host, std::size_t first_limit);
void generate(const FlatLayout& l, std::uint64_t n, const device::OffsetBlocks& sink);
void generate_lines(const FlatLayout& l, std::uint64_t n, const device::TextSink& sink);
}  // namespace gpu

}  // namespace layoutx::device_detail
