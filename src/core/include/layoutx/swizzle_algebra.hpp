// The algebra where swizzles and composed layouts take part (CuTe's
// swizzle_layout.hpp and layout_composed.hpp). Most operations on a
// ComposedLayout act on its inner layout and keep the swizzle and offset.
#pragma once

#include <variant>

#include "layoutx/algebra.hpp"
#include "layoutx/swizzle.hpp"

namespace layoutx {

using AnyLayout = std::variant<Layout, ComposedLayout>;

// CuTe's print of either kind.
std::string to_text(const AnyLayout& l, Notation n = {});

// composition(Swizzle, offset, Layout): a swizzle with no bits and a static
// zero offset is the identity, and CuTe returns the plain layout.
AnyLayout compose(const Swizzle& sw, Int offset, const Layout& l);
AnyLayout composition(const Swizzle& sw, const Layout& l);
// Layout o Swizzle: a new swizzle found by passing the masks through the layout.
AnyLayout composition(const Layout& a, const Swizzle& sw);
AnyLayout composition(const Layout& a, const ComposedLayout& b, Diagnostics& diag);
AnyLayout composition(const AnyLayout& a, const Tiler& b, Diagnostics& diag);
AnyLayout composition(const AnyLayout& a, const Layout& b, Diagnostics& diag);
// Both swizzled: CuTe nests the right-hand swizzle inside the left-hand one.
AnyLayout composition(const ComposedLayout& a, const ComposedLayout& b, Diagnostics& diag);
Swizzle composition(const Swizzle& a, const Swizzle& b);

// Whether CuTe's composition(Swizzle<0,M,S>, Int<0>, L) identity shortcut
// applies to c's outer step, so that rebuilding c around a new inner layout
// gives the plain layout.
bool vanishes(const ComposedLayout& c);

// CuTe's composition(c.layout_a(), c.offset(), inner): c's swizzle and offset
// around a new inner layout, or the inner layout alone where they vanish.
AnyLayout rebuild(const ComposedLayout& c, const Layout& inner);

// Apply f to the inner layout, keeping the swizzle and offset (as CuTe's
// functions of a composed layout do, through composition(a, offset, f(b))).
template <class F>
AnyLayout on_inner(const ComposedLayout& c, F f) {
  return rebuild(c, f(c.layout));
}

// Refuse a swizzle-specific operation on a nested composed layout.
void require_single_swizzle(const ComposedLayout& c, const char* operation);

AnyLayout right_inverse(const ComposedLayout& c, trace::Recorder* recorder = nullptr);
AnyLayout left_inverse(const ComposedLayout& c, trace::Recorder* recorder = nullptr);

Swizzle upcast(const Swizzle& sw, std::int64_t n);
Swizzle downcast(const Swizzle& sw, std::int64_t n);
ComposedLayout upcast(const ComposedLayout& c, std::int64_t n, Diagnostics& diag);
ComposedLayout downcast(const ComposedLayout& c, std::int64_t n);
Swizzle recast_layout(const Swizzle& sw, std::int64_t old_bits, std::int64_t new_bits);
ComposedLayout recast_layout(const ComposedLayout& c, std::int64_t old_bits, std::int64_t new_bits, Diagnostics& diag);

// as_position_independent_swizzle_layout(Sw o smem_ptr[Bb](unset) o L): the
// swizzle, which acts on byte addresses behind the pointer, recast to B-bit
// elements, with a zero offset (the plain layout when no swizzle bit is left).
// Refuses a layout without the flag (CuTe has no such overload).
AnyLayout position_independent(const ComposedLayout& c);

Layout max_common_layout(const ComposedLayout& a, const Layout& b, Diagnostics& diag);
Int max_common_vector(const ComposedLayout& a, const Layout& b, Diagnostics& diag);
Int max_common_vector(const ComposedLayout& a, const ComposedLayout& b, Diagnostics& diag);

// logical_product(Layout, Swizzle o 0 o Layout): the tiler's swizzle carried onto the product.
AnyLayout logical_product(const Layout& block, const ComposedLayout& tiler, Diagnostics& diag);

Int size(const AnyLayout& l);
Int cosize(const AnyLayout& l);
const Layout& inner_layout(const AnyLayout& l);
Int evaluate(const AnyLayout& l, const IntTuple& coord);

}  // namespace layoutx
