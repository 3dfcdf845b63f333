// Layout: a shape and a congruent stride, CuTe's layout.hpp minus the algebra.
#pragma once

#include <vector>

#include "layoutx/int_tuple.hpp"

namespace layoutx {

struct Layout {
  IntTuple shape;
  IntTuple stride;

  bool operator==(const Layout& o) const { return shape == o.shape && stride == o.stride; }
  bool operator!=(const Layout& o) const { return !(*this == o); }
};

// The size-1, stride-0 layout CuTe returns for "nothing" (Layout<_1,_0>).
Layout trivial_layout();

Layout make_layout(const IntTuple& shape);                          // LayoutLeft (compact column-major)
Layout make_layout(const IntTuple& shape, const IntTuple& stride);  // checks congruence
Layout make_layout_right(const IntTuple& shape);                    // LayoutRight (compact row-major)
Layout make_ordered_layout(const IntTuple& shape, const IntTuple& order);
// make_layout(L0, L1, ...): one mode per layout (a single layout becomes a rank-1 tuple).
Layout make_layout(const std::vector<Layout>& modes);

int rank(const Layout& l);
int depth(const Layout& l);
Int size(const Layout& l);
IntTuple coshape(const Layout& l);
Int cosize(const Layout& l);

Layout get(const Layout& l, int i);
Layout select(const Layout& l, const std::vector<int>& modes, Diagnostics& diag);
Layout take(const Layout& l, int b, int e);
Layout flatten(const Layout& l);
Layout append_to_rank(const Layout& l, int n);  // append<N>(l) with _1:_0 modes
Layout append(const Layout& l, const Layout& x);
Layout prepend(const Layout& l, const Layout& x);
Layout group(const Layout& l, int b, int e);
Layout zip(const Layout& l);
Layout zip(const Layout& a, const Layout& b);

// L(i) with i a 1-D index, L(c) with c a (hierarchical or flat) coordinate.
Int evaluate(const Layout& l, const IntTuple& coord);

}  // namespace layoutx
