#include "layoutx/layout.hpp"

#include <fmt/format.h>

#include <cstdint>

#include "layoutx/notation.hpp"

namespace layoutx {

Layout trivial_layout() { return Layout{static_int(1), static_int(0)}; }

Layout make_layout(const IntTuple& shape) { return Layout{shape, compact_col_major(shape)}; }

Layout make_layout(const IntTuple& shape, const IntTuple& stride) {
  if (!congruent(shape, stride)) {
    const bool ranks_differ = shape.is_tuple() && stride.is_tuple() && shape.rank() != stride.rank();
    throw naming_values([&](Notation shown) {
      return fmt::format("{}: shape {} and stride {} are not congruent (they need the same nesting)",
                         ranks_differ ? "Mismatched ranks" : "incongruent shape and stride", to_text(shape, shown),
                         to_text(stride, shown));
    });
  }
  return Layout{shape, stride};
}

Layout make_layout_right(const IntTuple& shape) { return Layout{shape, compact_row_major(shape)}; }

Layout make_ordered_layout(const IntTuple& shape, const IntTuple& order) {
  return Layout{shape, compact_order(shape, order)};
}

Layout make_layout(const std::vector<Layout>& modes) {
  std::vector<IntTuple> shapes, strides;
  for (const auto& m : modes) {
    shapes.push_back(m.shape);
    strides.push_back(m.stride);
  }
  return Layout{IntTuple(std::move(shapes)), IntTuple(std::move(strides))};
}

int rank(const Layout& l) { return l.shape.rank(); }
int depth(const Layout& l) { return depth(l.shape); }
Int size(const Layout& l) { return product(l.shape); }

IntTuple coshape(const Layout& l) {
  IntTuple m1 = transform_leaf(l.shape, [](Int s) { return s - static_int(1); });
  IntTuple a = transform_leaf(l.stride, [](Int d) { return abs(d); });
  return inner_product(m1, a) + static_int(1);
}

namespace {

// Whether cosize_terms may stand for coshape: plain integers on a shape and a
// stride of one nesting, none of whose s - 1 or |d| overflows (coshape takes
// those of every leaf before any product, so their error would come first).
bool cosize_by_leaves(const IntTuple& s, const IntTuple& d) {
  if (s.is_leaf() || d.is_leaf()) {
    if (!s.is_leaf() || !d.is_leaf()) return false;
    const Int a = s.value(), b = d.value();
    return !a.is_scaled_basis() && !b.is_scaled_basis() && a.value != INT64_MIN && b.value != INT64_MIN;
  }
  if (s.rank() != d.rank()) return false;
  for (int i = 0; i < s.rank(); ++i)
    if (!cosize_by_leaves(s.elems()[i], d.elems()[i])) return false;
  return true;
}

Int cosize_term(Int s, Int d) { return (s - static_int(1)) * abs(d); }

// sum + (s - 1) * |d| leaf after leaf of a tuple: the partial sums of
// coshape's inner product, whose nested modes add their own sums in the same order.
void add_cosize_terms(const IntTuple& s, const IntTuple& d, Int& sum) {
  for (int i = 0; i < s.rank(); ++i) {
    const IntTuple& si = s.elems()[i];
    const IntTuple& di = d.elems()[i];
    if (si.is_leaf())
      sum = sum + cosize_term(si.value(), di.value());
    else
      add_cosize_terms(si, di, sum);
  }
}

}  // namespace

// product(coshape(l)) without building coshape's tuples.
Int cosize(const Layout& l) {
  if (!cosize_by_leaves(l.shape, l.stride)) return product(coshape(l));
  Int sum = static_int(0);
  if (l.shape.is_leaf())
    sum = sum + cosize_term(l.shape.value(), l.stride.value());
  else
    add_cosize_terms(l.shape, l.stride, sum);
  return sum + static_int(1);
}

Layout get(const Layout& l, int i) { return Layout{l.shape[i], l.stride[i]}; }

Layout select(const Layout& l, const std::vector<int>& modes, Diagnostics& diag) {
  std::vector<IntTuple> shapes, strides;
  for (int i : modes) {
    shapes.push_back(select_element(l.shape, i, diag));
    strides.push_back(select_element(l.stride, i, diag));
  }
  return Layout{IntTuple(std::move(shapes)), IntTuple(std::move(strides))};
}

Layout take(const Layout& l, int b, int e) {
  if (!(b < e) || b < 0 || e > rank(l))
    throw Error(fmt::format("take<{},{}>: range out of bounds for rank {}", b, e, rank(l)));
  return Layout{take(l.shape, b, e), take(l.stride, b, e)};
}

Layout flatten(const Layout& l) { return Layout{flatten(l.shape), flatten(l.stride)}; }

Layout append_to_rank(const Layout& l, int n) {
  return Layout{append_to_rank(l.shape, n, static_int(1)), append_to_rank(l.stride, n, static_int(0))};
}

Layout append(const Layout& l, const Layout& x) { return Layout{append(l.shape, x.shape), append(l.stride, x.stride)}; }

Layout prepend(const Layout& l, const Layout& x) {
  return Layout{prepend(l.shape, x.shape), prepend(l.stride, x.stride)};
}

static IntTuple group_modes(const IntTuple& t, int b, int e) {
  const IntTuple w = wrap(t);
  std::vector<IntTuple> out(w.elems().begin(), w.elems().begin() + b);
  if (b < e) out.push_back(take(w, b, e));  // an empty range groups nothing: no empty mode
  out.insert(out.end(), w.elems().begin() + e, w.elems().end());
  return IntTuple(std::move(out));
}

Layout group(const Layout& l, int b, int e) {
  if (e == -1) e = rank(l);
  if (b < 0 || b > e || e > rank(l))
    throw Error(fmt::format("group<{},{}>: range out of bounds for rank {}", b, e, rank(l)));
  return Layout{group_modes(l.shape, b, e), group_modes(l.stride, b, e)};
}

Layout zip(const Layout& l) { return Layout{zip(l.shape), zip(l.stride)}; }

Layout zip(const Layout& a, const Layout& b) { return Layout{zip(a.shape, b.shape), zip(a.stride, b.stride)}; }

Int evaluate(const Layout& l, const IntTuple& coord) { return crd2idx(coord, l.shape, l.stride); }

}  // namespace layoutx
