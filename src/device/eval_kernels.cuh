// The kernels: every offset of a layout (as numbers, or as the lines of the
// offsets table), and every point of a check. Used by the GPU backend and by
// bench/gpu_bench.cu.
#pragma once

#include <cuda_runtime.h>

#include "checks.hpp"

namespace layoutx::device_detail {

// The kN offsets of indices first + j .. first + j + kN - 1, swizzles included.
template <class I, class O, int kN, int kLeaves>
__device__ __forceinline__ void offsets_at(const FlatLayout& l, std::uint64_t first, std::uint64_t j, O (&o)[kN]) {
  I x[kN];
#pragma unroll
  for (int k = 0; k < kN; ++k) x[k] = static_cast<I>(first + j + k);
  offsets_of_indices<I, O, kN, kLeaves>(l, x, o);
  if (l.stages > 0) {
#pragma unroll
    for (int k = 0; k < kN; ++k) o[k] = apply_stages(l, o[k]);
  }
}

// Offsets of indices [first, first + n) into out[0, n). Each thread evaluates
// the kVecs * 16 bytes' worth of consecutive indices it stores with vector
// writes; every index is still split into its own coordinate. kLeaves > 0
// is l.leaves known at compile time (see launch_generate).
template <class I, class O, int kVecs = 1, int kLeaves = 0>
__global__ void __launch_bounds__(256) generate_kernel(const __grid_constant__ FlatLayout l, std::uint64_t first,
                                                       std::uint64_t n, O* __restrict__ out) {
  constexpr int kPer = kVecs * 16 / sizeof(O);
  struct alignas(16) Vec {
    O v[kPer];
  };
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x * kPer;
  for (std::uint64_t j = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) * kPer; j < n; j += stride) {
    if (j + kPer <= n) {
      Vec vec;
      offsets_at<I, O, kPer, kLeaves>(l, first, j, vec.v);
      *reinterpret_cast<Vec*>(out + j) = vec;
    } else {
      for (std::uint64_t k = j; k < n; ++k) out[k] = evaluate_index<I, O>(l, static_cast<I>(first + k));
    }
  }
}

// generate_kernel with the leaf loop unrolled for the common small leaf counts.
template <class I, class O>
void launch_generate(const FlatLayout& l, std::uint64_t first, std::uint64_t n, O* out, unsigned blocks,
                     cudaStream_t stream) {
  switch (l.leaves) {
#define LAYOUTX_CASE(N) \
  case N:               \
    return generate_kernel<I, O, 1, N><<<blocks, 256, 0, stream>>>(l, first, n, out);
    LAYOUTX_CASE(1)
    LAYOUTX_CASE(2)
    LAYOUTX_CASE(3)
    LAYOUTX_CASE(4)
    LAYOUTX_CASE(5)
    LAYOUTX_CASE(6)
    LAYOUTX_CASE(7)
    LAYOUTX_CASE(8)
#undef LAYOUTX_CASE
    default:
      return generate_kernel<I, O, 1, 0><<<blocks, 256, 0, stream>>>(l, first, n, out);
  }
}

// The offsets table as text, in two passes over a chunk: the length of each
// line ("-12\n" is 4), then, at the positions an exclusive sum of the lengths
// gives, the digits.
__device__ __forceinline__ unsigned line_length(std::int64_t v) {
  std::uint64_t m = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  unsigned digits = 1;
  while (m >= 10) {
    m /= 10;
    ++digits;
  }
  return digits + (v < 0) + 1;
}

template <class I, class O>
__global__ void __launch_bounds__(256) line_length_kernel(const __grid_constant__ FlatLayout l, std::uint64_t first,
                                                          std::uint64_t n, O* __restrict__ values,
                                                          unsigned* __restrict__ lengths) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t j = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; j < n; j += stride) {
    const O v = evaluate_index<I, O>(l, static_cast<I>(first + j));
    values[j] = v;
    lengths[j] = line_length(v);
  }
}

template <class O>
__global__ void __launch_bounds__(256) line_text_kernel(const O* __restrict__ values, const unsigned* __restrict__ at,
                                                        std::uint64_t n, char* __restrict__ text) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t j = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; j < n; j += stride) {
    const std::int64_t v = values[j];
    char* p = text + at[j + 1] - 1;  // the line ends where the next begins
    *p-- = '\n';
    std::uint64_t m = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    do {
      *p-- = static_cast<char>('0' + m % 10);
      m /= 10;
    } while (m);
    if (v < 0) *p = '-';
  }
}

constexpr int kLogCapacity = 64;

// Failures found by a launch: how many, and up to kLogCapacity of them in no particular order.
struct FailureLog {
  unsigned long long count;
  Failure record[kLogCapacity];
};

// One atomic per warp, not per failing thread.
__device__ inline void note_failure(FailureLog* log, const Failure& f) {
  const unsigned mask = __activemask();
  const int lane = threadIdx.x & 31;
  const int leader = __ffs(mask) - 1;
  unsigned long long base = 0;
  if (lane == leader) base = atomicAdd(&log->count, static_cast<unsigned long long>(__popc(mask)));
  base = __shfl_sync(mask, base, leader);
  const unsigned long long slot = base + __popc(mask & ((1u << lane) - 1));
  if (slot < kLogCapacity) log->record[slot] = f;
}

__global__ void __launch_bounds__(256) check_kernel(const __grid_constant__ CheckSpec spec, std::uint64_t lo,
                                                    std::uint64_t hi, const std::int64_t* host,
                                                    std::uint64_t host_base, std::uint64_t* bits, FailureLog* log) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = lo + std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < hi; i += stride) {
    Failure f;
    if (!holds(spec, i, host, host_base, bits, f)) note_failure(log, f);
  }
}

}  // namespace layoutx::device_detail
