#include "layoutx/layout.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "layoutx/leaf_list.hpp"
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

// product(coshape(l)) over the leaves, in coshape's order of operations (every
// s - 1, then every |d|, then their products summed from _0, then + _1), so
// that an overflow is reported as there; nested modes add their sums in the
// same order. Scaled bases and incongruent layouts take coshape itself.
Int cosize(const Layout& l) {
  LeafList s = leaf_list(l.shape), d = leaf_list(l.stride);
  const auto plain = [](Int x) { return !x.is_scaled_basis(); };
  if (s.size() != d.size() || !std::all_of(s.begin(), s.end(), plain) || !std::all_of(d.begin(), d.end(), plain) ||
      !congruent(l.shape, l.stride))
    return product(coshape(l));
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = s[i] - static_int(1);
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = abs(d[i]);
  Int sum = static_int(0);
  for (std::size_t i = 0; i < s.size(); ++i) sum = sum + s[i] * d[i];
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
  if (b < 0 || b > e || e > rank(l)) throw Error(fmt::format("group<{},{}>: range out of bounds for rank {}", b, e, rank(l)));
  return Layout{group_modes(l.shape, b, e), group_modes(l.stride, b, e)};
}

Layout zip(const Layout& l) { return Layout{zip(l.shape), zip(l.stride)}; }

Layout zip(const Layout& a, const Layout& b) { return Layout{zip(a.shape, b.shape), zip(a.stride, b.stride)}; }

Int evaluate(const Layout& l, const IntTuple& coord) { return crd2idx(coord, l.shape, l.stride); }

}  // namespace layoutx
