// What each operation of the algebra means at one point of its domain: the
// one definition that CuTe's answers are held to by the post-conditions (a
// warning on a wrong answer), by `check` (on the host's cores and on the GPU)
// and by the property tests. The layouts come in as functions of an index (the
// core's evaluate, the device's flat layouts, a test's table), so the same
// lines compile for every caller, nvcc's device code included; no type of the
// core is needed.
#pragma once

#include <cstdint>

#include "layoutx/host_device.hpp"

namespace layoutx::property {

// The property at one point: its two sides, lhs first as the property is
// written (what a report shows), and whether it holds there.
struct Point {
  std::int64_t lhs;
  std::int64_t rhs;
  bool holds;
};

LAYOUTX_HD Point equal(std::int64_t lhs, std::int64_t rhs) { return Point{lhs, rhs, lhs == rhs}; }

// composition: R(i) == A(B(i)). By mode, B(i) is a coordinate of A,
// (B_0(i_0), B_1(i_1), ...), and A takes it as it is.
template <class R, class A, class B, class I>
LAYOUTX_HD Point composition(const R& r, const A& a, const B& b, I i) {
  return equal(r(i), a(b(i)));
}

// coalesce, flatten and any other re-grouping: R(i) == A(i).
template <class R, class A, class I>
LAYOUTX_HD Point same_function(const R& r, const A& a, I i) {
  return equal(r(i), a(i));
}

// right_inverse: A(R(i)) == i, for every i in R's domain.
template <class A, class R, class I>
LAYOUTX_HD Point right_inverse(const A& a, const R& r, I i) {
  return equal(static_cast<std::int64_t>(i), a(r(i)));
}

// left_inverse: R(A(i)) == i, for every i in A's domain (promised only when A
// is injective).
template <class A, class R, class I>
LAYOUTX_HD Point left_inverse(const A& a, const R& r, I i) {
  return right_inverse(r, a, i);
}

// complement, first half: R is ordered, R(i) < R(i + 1).
template <class R, class I>
LAYOUTX_HD Point ordered(const R& r, I i) {
  const std::int64_t lhs = r(i), rhs = r(i + 1);
  return Point{lhs, rhs, lhs < rhs};
}

// complement, second half: A and R share no offset but 0. `find(x, where)`
// says whether R reaches x, and where; rhs is that index, or -1.
template <class A, class Find, class I>
LAYOUTX_HD Point disjoint(const A& a, const Find& find, I i) {
  const std::int64_t x = a(i);
  std::int64_t where = -1;
  const bool shared = x != 0 && find(x, where);
  return Point{x, where, !shared};
}

}  // namespace layoutx::property
