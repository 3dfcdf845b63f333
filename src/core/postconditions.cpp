#include "layoutx/postconditions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <type_traits>
#include <unordered_set>
#include <utility>

#include "layoutx/algebra.hpp"
#include "layoutx/algebra_properties.hpp"
#include "layoutx/leaf_list.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/wide_integer.hpp"

namespace layoutx {

namespace {

std::int64_t at(const AnyLayout& l, std::int64_t i) { return evaluate(l, IntTuple(static_int(i))).value; }
std::int64_t at(const Layout& l, std::int64_t i) { return evaluate(l, IntTuple(static_int(i))).value; }

// Indices 0..n-1, or an even sample of the budget's size when n is larger
// (k * step <= n for every k below the budget, so no index leaves 64 bits).
template <class F>
void for_each_point(std::int64_t n, F f) {
  const std::int64_t points = std::min(n, kPostconditionBudget);
  const std::int64_t step = n <= kPostconditionBudget ? 1 : n / kPostconditionBudget;
  for (std::int64_t k = 0; k < points; ++k)
    if (!f(k * step)) return;
}

using Wide = Int128;

// Whether one leaf s:d of B (s > 1, d > 0) meets every mode boundary P of A
// (the product of A's first modes) evenly: P divides d, or d divides P and the
// part of the leaf below P is whole (P/d divides s, or the leaf ends below P).
bool leaf_meets_boundaries(const LeafList& boundaries, Wide s, Wide d) {
  for (const Int boundary : boundaries) {
    const Wide p = boundary.value;
    if (d >= p) {
      if (d % p != 0) return false;
    } else if (p % d != 0 || (d * s > p && s % (p / d) != 0)) {
      return false;
    }
  }
  return true;
}

// Whether CuTe's mode-by-mode composition is A o B everywhere, without
// evaluating a point. It is when every leaf of B meets A's mode boundaries
// evenly (then each leaf's part is exactly A on that leaf's offsets) and the
// leaves, sorted by stride, do not overlap (d' >= s*d for consecutive
// leaves): then the offsets of different leaves never carry into a mode of A
// together, and A of their sum is the sum of the parts.
bool composition_is_exact(const Layout& a, const Layout& b) {
  LeafList shape, flat_stride;
  coalesce_x_modes(a, shape, flat_stride);
  LeafList boundaries;  // each fits 64 bits
  Wide p = 1;
  for (std::size_t j = 0; j + 1 < shape.size(); ++j) {
    if (shape[j].value <= 0) return false;
    p *= shape[j].value;
    if (p > INT64_MAX) break;  // no offset of B reaches past this boundary
    boundaries.push_back(Int{static_cast<std::int64_t>(p)});
  }
  const LeafList s = leaf_list(b.shape), d = leaf_list(b.stride);
  LeafList used_stride, used_shape;  // the leaves that move, in (stride, shape) order
  for (std::size_t k = 0; k < s.size(); ++k) {
    if (s[k].value == 1) continue;
    if (s[k].value <= 0 || d[k].value <= 0) return false;
    if (!leaf_meets_boundaries(boundaries, s[k].value, d[k].value)) return false;
    used_stride.push_back(d[k]);
    used_shape.push_back(s[k]);
    for (std::size_t i = used_stride.size() - 1; i > 0; --i) {
      const auto key = [&](std::size_t at) { return std::pair(used_stride[at].value, used_shape[at].value); };
      if (!(key(i) < key(i - 1))) break;
      std::swap(used_stride[i], used_stride[i - 1]);
      std::swap(used_shape[i], used_shape[i - 1]);
    }
  }
  for (std::size_t k = 0; k + 1 < used_stride.size(); ++k)
    if (Wide{used_stride[k + 1].value} < Wide{used_stride[k].value} * used_shape[k].value) return false;
  return true;
}

bool has_warning(const Diagnostics& diag, const char* condition) {
  for (const auto& w : diag.warnings())
    if (w.condition == condition) return true;
  return false;
}

// A is a Layout or an AnyLayout: the swizzle, when there is one, changes
// nothing of what makes the inner composition exact.
template <class A>
void check_composition_of(const A& a, const Layout& b, const AnyLayout& r, Diagnostics& diag) {
  if (has_warning(diag, "Stride Divisibility Condition")) return;  // already explained where it went wrong
  if constexpr (std::is_same_v<A, Layout>) {
    if (composition_is_exact(a, b)) return;
  } else {
    if (composition_is_exact(inner_layout(a), b)) return;
  }
  const std::int64_t domain = size(a).value;
  const auto fb = [&](std::int64_t i) { return at(b, i); };
  const auto fa = [&](std::int64_t x) { return at(a, x); };
  const auto fr = [&](std::int64_t i) { return at(r, i); };
  for_each_point(size(b).value, [&](std::int64_t i) {
    const std::int64_t bi = fb(i);
    if (bi < 0 || bi >= domain) return true;  // A o B is promised on A's domain only
    const property::Point p = property::composition(fr, fa, fb, i);
    if (p.holds) return true;
    const std::int64_t want = p.rhs, got = p.lhs;
    diag.warn("composition",
              fmt::format("composition({}, {}) = {} is CuTe's answer but not A o B: at index {}, A(B({})) = A({}) = {} "
                          "while the result gives {} (CuTe composes mode by mode, which is exact only when B's modes "
                          "divide A's modes evenly)",
                          to_text(a, diag.notation()), to_text(b, diag.notation()), to_text(r, diag.notation()), i, i,
                          bi, want, got));
    return false;
  });
}

}  // namespace

void check_composition(const AnyLayout& a, const Layout& b, const AnyLayout& r, Diagnostics& diag) {
  check_composition_of(a, b, r, diag);
}

void check_composition(const Layout& a, const Layout& b, const AnyLayout& r, Diagnostics& diag) {
  check_composition_of(a, b, r, diag);
}

void check_right_inverse(const AnyLayout& l, const AnyLayout& r, Diagnostics& diag) {
  const auto fl = [&](std::int64_t x) { return at(l, x); };
  const auto fr = [&](std::int64_t x) { return at(r, x); };
  for_each_point(size(r).value, [&](std::int64_t i) {
    const property::Point p = property::right_inverse(fl, fr, i);
    if (p.holds) return true;
    const std::int64_t got = p.rhs;
    diag.warn("right_inverse", fmt::format("right_inverse({}) = {} is CuTe's answer but not a right inverse: "
                                           "L(R({})) = {}, not {}",
                                           to_text(l, diag.notation()), to_text(r, diag.notation()), i, got, i));
    return false;
  });
}

void check_left_inverse(const AnyLayout& l, const AnyLayout& r, Diagnostics& diag) {
  const std::int64_t n = size(l).value;
  if (n > kPostconditionBudget) return;
  std::unordered_set<std::int64_t> seen;
  for (std::int64_t i = 0; i < n; ++i)
    if (!seen.insert(at(l, i)).second) return;  // not injective: no left inverse is promised
  const auto fl = [&](std::int64_t x) { return at(l, x); };
  const auto fr = [&](std::int64_t x) { return at(r, x); };
  for_each_point(n, [&](std::int64_t i) {
    const property::Point p = property::left_inverse(fl, fr, i);
    if (p.holds) return true;
    const std::int64_t got = p.rhs;
    diag.warn("left_inverse", fmt::format("left_inverse({}) = {} is CuTe's answer but not a left inverse: "
                                          "R(L({})) = {}, not {}",
                                          to_text(l, diag.notation()), to_text(r, diag.notation()), i, got, i));
    return false;
  });
}

}  // namespace layoutx
