// A layout as the device evaluates it: its leaves (extent, stride) in CuTe's
// column-major order, grouped by the top-level modes that a by-mode
// composition needs, and the swizzle stages of a composed layout. Plain data,
// passed to kernels by value.
//
// Evaluation is written from CuTe's definition, independently of the host's
// odometer: every index is split into a coordinate by division (each leaf but
// the last takes `x mod extent`, the last takes what is left, which is how
// CuTe extends the last mode), and the coordinate is dotted with the strides.
// The same functions compile for the GPU (nvcc) and for the CPU (the host
// backend and the unit tests), so the CPU build tests the device arithmetic.
#pragma once

#include <cstdint>

#include "layoutx/host_device.hpp"
#include "layoutx/wide_integer.hpp"

namespace layoutx::device_detail {

constexpr int kMaxLeaves = 96;
constexpr int kMaxGroups = 32;
constexpr int kMaxStages = 16;

LAYOUTX_HD std::uint32_t mulhi(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __umulhi(a, b);
#else
  return static_cast<std::uint32_t>((std::uint64_t{a} * b) >> 32);
#endif
}

LAYOUTX_HD std::uint64_t mulhi(std::uint64_t a, std::uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(a, b);
#else
  return static_cast<std::uint64_t>((static_cast<UInt128>(a) * b) >> 64);
#endif
}

// Division by an extent d >= 1 fixed before the launch: q = (mulhi(x, magic) + x) >> shift
// (Granlund and Montgomery's round-up method), exact for every 32-bit x and
// every 64-bit x below 2^63. Hardware division would cost tens of instructions.
struct Divisor {
  std::int64_t d = 1;
  std::uint64_t magic64 = 1;
  std::uint32_t magic32 = 1;
  std::uint8_t shift64 = 0;
  std::uint8_t shift32 = 0;
  bool pow2 = true;  // d == 2^shift64: a shift and a mask do
};

LAYOUTX_HD std::uint32_t quotient(std::uint32_t x, const Divisor& v) {
  return static_cast<std::uint32_t>((std::uint64_t{mulhi(x, v.magic32)} + x) >> v.shift32);
}

// @pre x < 2^63, so the sum stays below 2^64
LAYOUTX_HD std::uint64_t quotient(std::uint64_t x, const Divisor& v) { return (mulhi(x, v.magic64) + x) >> v.shift64; }

// One "offset, then swizzle" step: x + offset, then the YYY bits XORed onto ZZZ.
struct Stage {
  std::int64_t offset = 0;
  std::int64_t yyy_mask = 0;
  std::int32_t shift = 0;
};

struct FlatLayout {
  std::int32_t leaves = 0;
  std::int32_t groups = 0;
  std::int32_t stages = 0;
  Divisor extent[kMaxLeaves];
  std::int64_t stride[kMaxLeaves];
  std::int32_t group_end[kMaxGroups];  // one past each group's last leaf
  Divisor group_size[kMaxGroups];      // to split an index over the groups
  Stage stage[kMaxStages];             // innermost first
};

// The 1-D index x (>= 0) through the leaves. I is the index type (uint32 or
// uint64), O the offset type (int32 where the host proved every sum fits).
template <class I, class O>
LAYOUTX_HD O offset_of_index(const FlatLayout& l, I x) {
  O offset = 0;
  const int last = l.leaves - 1;
  for (int k = 0; k < last; ++k) {
    const I q = quotient(x, l.extent[k]);
    const I r = x - q * static_cast<I>(l.extent[k].d);
    offset += static_cast<O>(r) * static_cast<O>(l.stride[k]);
    x = q;
  }
  return offset + static_cast<O>(x) * static_cast<O>(l.stride[last]);
}

// One leaf (not the last) for kN indices: x <- x / extent, offset += (x mod extent) * stride.
template <class I, class O, int kN>
LAYOUTX_HD void leaf_step(const Divisor& v, std::int64_t stride64, I (&x)[kN], O (&offset)[kN]) {
  const I d = static_cast<I>(v.d);
  const O stride = static_cast<O>(stride64);
  if (v.pow2) {
    for (int k = 0; k < kN; ++k) {
      if (v.shift64 >= 8 * sizeof(I)) {  // every index is below the extent: all of x is this leaf's digit
        offset[k] += static_cast<O>(x[k]) * stride;
        x[k] = 0;
        continue;
      }
      offset[k] += static_cast<O>(x[k] & (d - 1)) * stride;
      x[k] >>= v.shift64;
    }
    return;
  }
  for (int k = 0; k < kN; ++k) {
    const I q = quotient(x[k], v);
    offset[k] += static_cast<O>(x[k] - q * d) * stride;
    x[k] = q;
  }
}

// offset_of_index for kN indices at once: each leaf's divisor and stride are
// read once for all of them; every index still divides on its own. With
// kLeaves > 0 (= l.leaves) the loop unrolls and the layout's fields become
// constant operands.
template <class I, class O, int kN, int kLeaves = 0>
LAYOUTX_HD void offsets_of_indices(const FlatLayout& l, I (&x)[kN], O (&offset)[kN]) {
  for (int k = 0; k < kN; ++k) offset[k] = 0;
  const int last = kLeaves > 0 ? kLeaves - 1 : l.leaves - 1;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int j = 0; j < (kLeaves > 0 ? kLeaves - 1 : last); ++j) leaf_step<I, O, kN>(l.extent[j], l.stride[j], x, offset);
  const O stride = static_cast<O>(l.stride[last]);
  for (int k = 0; k < kN; ++k) offset[k] += static_cast<O>(x[k]) * stride;
}

// x through the leaves of group g alone (a coordinate of top-level mode g),
// where x may lie outside the mode: negative values divide as C++ (and CuTe's
// integer arithmetic) do, truncating.
LAYOUTX_HD std::int64_t offset_in_group(const FlatLayout& l, int g, std::int64_t x) {
  const int begin = g > 0 ? l.group_end[g - 1] : 0;
  const int last = l.group_end[g] - 1;
  std::int64_t offset = 0;
  for (int k = begin; k < last; ++k) {
    const std::int64_t d = l.extent[k].d;
    const std::int64_t q =
        x >= 0 ? static_cast<std::int64_t>(quotient(static_cast<std::uint64_t>(x), l.extent[k])) : x / d;
    offset += (x - q * d) * l.stride[k];
    x = q;
  }
  return offset + x * l.stride[last];
}

template <class O>
LAYOUTX_HD O apply_stages(const FlatLayout& l, O x) {
  for (int s = 0; s < l.stages; ++s) {
    const Stage& st = l.stage[s];
    x += static_cast<O>(st.offset);
    const O y = x & static_cast<O>(st.yyy_mask);
    x ^= st.shift >= 0 ? (y >> st.shift) : (y << -st.shift);
  }
  return x;
}

// l(i) for a 1-D index, swizzles included.
template <class I, class O>
LAYOUTX_HD O evaluate_index(const FlatLayout& l, I i) {
  return apply_stages(l, offset_of_index<I, O>(l, i));
}

// l(x) for any 64-bit x (an offset of another layout used as an index).
LAYOUTX_HD std::int64_t evaluate_any(const FlatLayout& l, std::int64_t x) {
  if (x >= 0) return apply_stages(l, offset_of_index<std::uint64_t, std::int64_t>(l, static_cast<std::uint64_t>(x)));
  std::int64_t offset = 0;
  for (int g = 0; g + 1 < l.groups; ++g) {
    const std::int64_t size = l.group_size[g].d;
    offset += offset_in_group(l, g, x % size);
    x /= size;
  }
  return apply_stages(l, offset + offset_in_group(l, l.groups - 1, x));
}

// B(i) by mode, a coordinate of A: the index split over B's groups (the
// last group takes what is left), each part through its group of B. It is
// kept as the index and worked out as A consumes it, part by part, so no
// array of parts is held. One group: B(i).
struct ModeCoordinate {
  const FlatLayout* b;
  std::uint64_t index;
};

LAYOUTX_HD ModeCoordinate coordinate_by_mode(const FlatLayout& b, std::uint64_t i) { return ModeCoordinate{&b, i}; }

// A at such a coordinate: each part through the same-numbered group of A,
// summed, then A's swizzle stages. One group each: A(B(i)).
LAYOUTX_HD std::int64_t evaluate_by_mode(const FlatLayout& a, ModeCoordinate c) {
  const FlatLayout& b = *c.b;
  std::uint64_t i = c.index;
  std::int64_t sum = 0;
  const int last = b.groups - 1;
  for (int g = 0; g <= last; ++g) {
    std::uint64_t part = i;
    if (g < last) {
      const std::uint64_t q = quotient(i, b.group_size[g]);
      part = i - q * static_cast<std::uint64_t>(b.group_size[g].d);
      i = q;
    }
    const std::int64_t x = apply_stages(b, offset_in_group(b, g, static_cast<std::int64_t>(part)));
    sum += offset_in_group(a, g, x);
  }
  return apply_stages(a, sum);
}

}  // namespace layoutx::device_detail
