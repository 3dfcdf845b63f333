// Layout constructions that follow another layout or shape: make_layout_like,
// make_fragment_like, max_alignment, domain_distribute (CuTe layout.hpp).
#include <fmt/format.h>

#include "layoutx/algebra.hpp"
#include "layoutx/notation.hpp"

namespace layoutx {

IntTuple filter_zeros(const IntTuple& stride, const IntTuple& shape) {
  return transform_leaf(stride, shape, [](Int d, Int s) { return d.is_constant(0) ? static_int(1) : s; });
}

Layout make_layout_like(const Layout& l) {
  return Layout{l.shape, compact_order(filter_zeros(l.stride, l.shape), l.stride)};
}

Layout make_fragment_like(const Layout& l, Diagnostics& diag) {
  const int r = rank(l);
  if (r > 1 && is_static(l.shape)) {
    const IntTuple& s0 = l.shape[0];
    const Layout mode0{s0, compact_col_major(filter_zeros(l.stride[0], s0))};
    const Layout rest = make_ordered_layout(take(l.shape, 1, r), take(l.stride, 1, r));
    return tiled_product(mode0, Tiler::of(rest), diag);
  }
  return make_layout(l.shape);
}

Int max_alignment(const Layout& l, Diagnostics& diag) {
  const Layout flat = coalesce(l);
  const IntTuple shape = transform_leaf(flat.shape, [](Int s) { return s.is_static ? s : static_int(1); });
  const IntTuple stride = transform_leaf(flat.stride, [](Int d) { return d.is_static ? d : static_int(0); });
  const Layout filtered{shape, stride};
  const Layout permuted = logical_divide(filtered, Tiler::of(right_inverse(filtered, diag.trace())), diag);
  Int g = size(get(permuted, 0));
  for (Int d : leaves(permuted.stride[1])) g = gcd(g, d);
  return g;
}

Layout domain_distribute(const IntTuple& shape_a, Int b) {
  // CuTe distributes at compile time: it static_asserts that both operands are static.
  if (!b.is_static) throw StaticRequiredError("domain_distribute: the element count must be static");
  if (!is_static(shape_a)) throw StaticRequiredError("domain_distribute: the shape must be static");
  const IntTuple flat = flatten(shape_a);
  if (!is_static(flat))
    throw naming_values<StaticRequiredError>([&](Notation shown) {
      return fmt::format(
          "domain_distribute needs static integers: static_assert(is_static<decltype(flat_shape_a)>) "
          "fails for the shape {}",
          to_text(shape_a, shown));
    });
  std::vector<IntTuple> result;
  Int rest = b;
  for (Int a : leaves(flat)) {
    const Int g = gcd(a, rest);
    result.emplace_back(g);
    rest = rest / g;
  }
  return coalesce(Layout{IntTuple(result), compact_col_major(wrap(flat))});
}

}  // namespace layoutx
