// max_common_layout, max_common_vector, nullspace (CuTe layout.hpp).
#include "layoutx/algebra.hpp"

namespace layoutx {

namespace {

// The static stride-1 mode at the front of coalesce(a o right_inverse(b)), if any.
bool common_front(const Layout& common) {
  return common.shape[0].value().is_static && common.stride[0].value().is_constant(1);
}

}  // namespace

Layout max_common_layout(const Layout& a, const Layout& b, Diagnostics& diag) {
  const Layout inv_b = right_inverse(b, diag.trace());
  const Layout common = coalesce(composition(a, inv_b, diag));
  if (common_front(common)) return composition(inv_b, get(common, 0), diag);
  return trivial_layout();
}

Int max_common_vector(const Layout& a, const Layout& b, Diagnostics& diag) {
  const Layout common = coalesce(composition(a, right_inverse(b, diag.trace()), diag));
  if (common_front(common)) return common.shape[0].value();
  return static_int(1);
}

Layout nullspace(const Layout& l) {
  const std::vector<Int> stride = leaves(l.stride), shape = leaves(l.shape);
  const IntTuple rstride = compact_col_major(flatten(l.shape));
  const std::vector<Int> rs = leaves(rstride);
  std::vector<IntTuple> out_shape, out_stride;
  for (size_t i = 0; i < stride.size(); ++i) {
    if (!stride[i].is_constant(0)) continue;
    out_shape.emplace_back(shape[i]);
    out_stride.emplace_back(rs[i]);
  }
  if (out_shape.empty()) return trivial_layout();
  return Layout{unwrap(IntTuple(out_shape)), unwrap(IntTuple(out_stride))};
}

}  // namespace layoutx
