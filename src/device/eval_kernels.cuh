// The kernels that write every offset of a layout (as numbers, or as the
// lines of the offsets table). Used by the GPU backend and by
// bench/gpu_bench.cu, so only templates and inline functions live here: a
// plain __global__ function would be defined in both.
#pragma once

#include <cuda_runtime.h>

#include <type_traits>

#include "flat_layout.hpp"

namespace layoutx::device_detail {

// How far the first leaf's coordinate of index x is from its extent: the
// next `room - 1` indices differ from x in that coordinate only. With one leaf
// (it takes the whole index) that is never reached.
template <class I>
__device__ __forceinline__ std::uint64_t first_leaf_room(const FlatLayout& l, int leaves, I x) {
  if (leaves == 1) return ~std::uint64_t{0};
  const Divisor& v = l.extent[0];
  I digit;
  if (v.pow2)
    digit = v.shift64 >= 8 * sizeof(I) ? x : x & static_cast<I>(v.d - 1);
  else
    digit = x - quotient(x, v) * static_cast<I>(v.d);
  return static_cast<std::uint64_t>(v.d) - digit;
}

// apply_stages for kN offsets. One stage (the common Sw<B,M,S> o layout) is
// done with its shift's direction chosen once for all of them.
template <class O, int kN>
__device__ __forceinline__ void stages_of_offsets(const FlatLayout& l, O (&o)[kN]) {
  if (l.stages == 0) return;
  if (l.stages == 1) {
    const Stage& st = l.stage[0];
    const O offset = static_cast<O>(st.offset), mask = static_cast<O>(st.yyy_mask);
    if (st.shift >= 0) {
#pragma unroll
      for (int k = 0; k < kN; ++k) {
        const O x = o[k] + offset;
        o[k] = x ^ ((x & mask) >> st.shift);
      }
    } else {
#pragma unroll
      for (int k = 0; k < kN; ++k) {
        const O x = o[k] + offset;
        o[k] = x ^ ((x & mask) << -st.shift);
      }
    }
    return;
  }
#pragma unroll
  for (int k = 0; k < kN; ++k) o[k] = apply_stages(l, o[k]);
}

// The kN offsets of indices first + j .. first + j + kN - 1, swizzles included.
// Consecutive indices differ only in the first leaf's coordinate until it
// wraps, so the first index is split in full and each next one adds the first
// leaf's stride; an index where the coordinate wraps is split in full. The
// sums are done unsigned: each result is an offset of the layout (which fits
// O), but a partial product need not be.
template <class I, class O, int kN, int kLeaves>
__device__ __forceinline__ void offsets_at(const FlatLayout& l, std::uint64_t first, std::uint64_t j, O (&o)[kN]) {
  using U = std::make_unsigned_t<O>;
  const int leaves = kLeaves > 0 ? kLeaves : l.leaves;
  // Where the first extent is short or not a power of two the coordinate
  // wraps inside many threads' kN indices, which would then diverge: there
  // every index is split.
  if (leaves > 1 && !(l.extent[0].pow2 && l.extent[0].d >= kN)) {
    I xs[kN];
#pragma unroll
    for (int k = 0; k < kN; ++k) xs[k] = static_cast<I>(first + j + k);
    offsets_of_indices<I, O, kN, kLeaves>(l, xs, o);
    stages_of_offsets(l, o);
    return;
  }
  I x[1] = {static_cast<I>(first + j)};
  const std::uint64_t room = first_leaf_room(l, leaves, x[0]);
  O head[1];
  offsets_of_indices<I, O, 1, kLeaves>(l, x, head);
  o[0] = head[0];
  const U step = static_cast<U>(l.stride[0]);
#pragma unroll
  for (int k = 1; k < kN; ++k) {
    if (static_cast<std::uint64_t>(k) < room) {
      o[k] = static_cast<O>(static_cast<U>(head[0]) + static_cast<U>(k) * step);
    } else {
      I y[1] = {static_cast<I>(first + j + k)};
      O r[1];
      offsets_of_indices<I, O, 1, kLeaves>(l, y, r);
      o[k] = r[0];
    }
  }
  stages_of_offsets(l, o);
}

// Offsets of indices [first, first + n) into out[0, n). Each thread evaluates
// the kVecs * 16 bytes' worth of consecutive indices it stores with vector
// writes; every index is still split into its own coordinate. kLeaves > 0
// is l.leaves known at compile time (see launch_generate).
template <class I, class O, int kVecs = 1, int kLeaves = 0>
__global__ void __launch_bounds__(256)
    generate_kernel(const __grid_constant__ FlatLayout l, std::uint64_t first, std::uint64_t n, O* __restrict__ out) {
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
template <class I, class O, int kVecs = 1>
void launch_generate(const FlatLayout& l, std::uint64_t first, std::uint64_t n, O* out, unsigned blocks,
                     cudaStream_t stream) {
  switch (l.leaves) {
#define LAYOUTX_CASE(N) \
  case N: return generate_kernel<I, O, kVecs, N><<<blocks, 256, 0, stream>>>(l, first, n, out);
    LAYOUTX_CASE(1)
    LAYOUTX_CASE(2)
    LAYOUTX_CASE(3)
    LAYOUTX_CASE(4)
    LAYOUTX_CASE(5)
    LAYOUTX_CASE(6)
    LAYOUTX_CASE(7)
    LAYOUTX_CASE(8)
#undef LAYOUTX_CASE
    default: return generate_kernel<I, O, kVecs, 0><<<blocks, 256, 0, stream>>>(l, first, n, out);
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
__global__ void __launch_bounds__(256)
    line_length_kernel(const __grid_constant__ FlatLayout l, std::uint64_t first, std::uint64_t n,
                       O* __restrict__ values, unsigned* __restrict__ lengths) {
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

}  // namespace layoutx::device_detail
