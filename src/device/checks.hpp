// The properties `layoutx check` verifies, one index at a time: the
// algebra's defining properties (layoutx/algebra_properties.hpp) on flat
// layouts, and the bitmap tests that count a layout's image. Each test says,
// for index i, whether the property holds there and, when it does not, the
// two values that disagree. The GPU kernels and the CPU backend run the same
// tests.
#pragma once

#include "flat_layout.hpp"
#include "layoutx/algebra_properties.hpp"

namespace layoutx::device_detail {

struct Failure {
  std::int64_t index;
  std::int64_t expected;
  std::int64_t actual;
};

enum class CheckKind {
  HostOffsets,  // r(i) == the host's offset i
  Composition,  // r(i) == a(b(i)), by mode when a and b have several groups
  Inverse,      // a(b(i)) == i
  Ordered,      // r(i) < r(i + 1)
  Disjoint,     // a(i) == 0 or a(i) not in the image of r (r ordered)
  InRange,      // 0 <= r(i) < n, marking r(i) in the bitmap
  Covered,      // value i is marked in the bitmap
};

struct CheckSpec {
  CheckKind kind = CheckKind::HostOffsets;
  std::uint64_t points = 0;  // the indices i tested: [0, points)
  std::uint64_t range = 0;   // Disjoint: size(r); InRange: n
  FlatLayout r, a, b;
};

// One integer's bit in a bitmap, set by many threads at once (on the device,
// and on the CPU's cores).
LAYOUTX_HD void mark(std::uint64_t* bits, std::uint64_t v) {
#if defined(__CUDA_ARCH__)
  atomicOr(reinterpret_cast<unsigned long long*>(bits + (v >> 6)), 1ULL << (v & 63));
#else
  __atomic_fetch_or(bits + (v >> 6), std::uint64_t{1} << (v & 63), __ATOMIC_RELAXED);
#endif
}

LAYOUTX_HD bool marked(const std::uint64_t* bits, std::uint64_t v) { return (bits[v >> 6] >> (v & 63)) & 1; }

// Whether an ordered (strictly increasing) layout r of size n reaches v, by bisection.
LAYOUTX_HD bool reaches(const FlatLayout& r, std::uint64_t n, std::int64_t v, std::int64_t& where) {
  std::uint64_t lo = 0, hi = n;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    const std::int64_t x = evaluate_index<std::uint64_t, std::int64_t>(r, mid);
    if (x == v) {
      where = static_cast<std::int64_t>(mid);
      return true;
    }
    if (x < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return false;
}

// The failure a property's point makes, if it does not hold.
LAYOUTX_HD bool held(const property::Point& p, std::uint64_t i, Failure& f) {
  f.index = static_cast<std::int64_t>(i);
  f.expected = p.lhs;
  f.actual = p.rhs;
  return p.holds;
}

// @return true when the property holds at i; otherwise `f` says why.
// `host` is the host's offsets from index `host_base` on (HostOffsets only).
LAYOUTX_HD bool holds(const CheckSpec& s, std::uint64_t i, const std::int64_t* host, std::uint64_t host_base,
                      std::uint64_t* bits, Failure& f) {
  const auto r = [&](std::uint64_t x) { return evaluate_index<std::uint64_t, std::int64_t>(s.r, x); };
  const auto b = [&](std::uint64_t x) { return evaluate_index<std::uint64_t, std::int64_t>(s.b, x); };
  const auto a = [&](std::int64_t x) { return evaluate_any(s.a, x); };
  switch (s.kind) {
    case CheckKind::HostOffsets: return held(property::equal(host[i - host_base], r(i)), i, f);
    case CheckKind::Composition:
      return held(property::composition(
                      r, [&](ModeCoordinate c) { return evaluate_by_mode(s.a, c); },
                      [&](std::uint64_t x) { return coordinate_by_mode(s.b, x); }, i),
                  i, f);
    case CheckKind::Inverse: return held(property::right_inverse(a, b, i), i, f);
    case CheckKind::Ordered: return held(property::ordered(r, i), i, f);
    case CheckKind::Disjoint:
      return held(
          property::disjoint([&](std::uint64_t x) { return evaluate_index<std::uint64_t, std::int64_t>(s.a, x); },
                             [&](std::int64_t x, std::int64_t& where) { return reaches(s.r, s.range, x, where); }, i),
          i, f);
    case CheckKind::InRange: {
      f.index = static_cast<std::int64_t>(i);
      f.expected = static_cast<std::int64_t>(s.range);
      f.actual = r(i);
      const bool inside = f.actual >= 0 && static_cast<std::uint64_t>(f.actual) < s.range;
      if (inside) mark(bits, static_cast<std::uint64_t>(f.actual));
      return inside;
    }
    case CheckKind::Covered:
      f.index = static_cast<std::int64_t>(i);
      f.expected = static_cast<std::int64_t>(i);
      f.actual = -1;
      return marked(bits, i);
  }
  return false;
}

}  // namespace layoutx::device_detail
