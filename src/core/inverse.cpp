// right_inverse and left_inverse (CuTe layout.hpp, "Right-Inverse and Left-Inverse").
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "layoutx/algebra.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/trace.hpp"

namespace layoutx {

namespace {

// Prefix products (1, s0, s0*s1, ...) of the coalesced shape.
std::vector<Int> prefix_products(const IntTuple& shape) {
  std::vector<Int> pre{static_int(1)};
  for (const auto& s : shape.elems()) pre.push_back(s.value() * pre.back());
  return pre;
}

// Mode indices ordered by stride (a stable sort: equal strides keep their order).
std::vector<int> sorted_by_stride(const IntTuple& stride, const std::vector<int>& indices) {
  std::vector<int> seq = indices;
  std::stable_sort(seq.begin(), seq.end(),
                   [&](int a, int b) { return stride[a].value().value < stride[b].value().value; });
  return seq;
}

}  // namespace

Layout right_inverse(const Layout& l) {
  LAYOUTX_TRACE_SCOPE("right_inverse", "L", l);
  const Layout c = coalesce(l);
  LAYOUTX_TRACE("coalesced", "L", c);
  const IntTuple stride = wrap(c.stride), shape = wrap(c.shape);
  const std::vector<Int> pre = prefix_products(shape);

  std::vector<int> static_modes;  // dynamic strides are filtered out
  for (int i = 0; i < stride.rank(); ++i)
    if (stride[i].value().is_static) static_modes.push_back(i);

  std::vector<IntTuple> result_shape{static_int(1)}, result_stride{static_int(0)};
  Int curr = static_int(1);
  for (int i : sorted_by_stride(stride, static_modes)) {
    const Int d = stride[i].value();
    LAYOUTX_TRACE("mode", "stride", d, "shape", shape[i], "wanted stride", curr);
    if (curr.is_static && d.value == curr.value) {
      LAYOUTX_TRACE("taken", "shape", shape[i], "stride", pre[i]);
      result_shape.emplace_back(shape[i].value());
      result_stride.emplace_back(pre[i]);
      curr = shape[i].value() * d;
    }
  }
  LAYOUTX_TRACE("coalesce", "layout", Layout{IntTuple(result_shape), IntTuple(result_stride)});
  return coalesce(Layout{IntTuple(result_shape), IntTuple(result_stride)});
}

Layout left_inverse(const Layout& l) {
  LAYOUTX_TRACE_SCOPE("left_inverse", "L", l);
  const Layout c = coalesce(l);
  LAYOUTX_TRACE("coalesced", "L", c);
  const IntTuple stride = wrap(c.stride), shape = wrap(c.shape);
  const std::vector<Int> pre = prefix_products(shape);
  if (!is_static(stride))
    throw Error(fmt::format("Left inverse requires static strides.: {} has a dynamic stride", to_text(l)));

  std::vector<int> all(stride.rank());
  std::iota(all.begin(), all.end(), 0);
  const std::vector<int> sorted = sorted_by_stride(stride, all);

  std::vector<IntTuple> result_shape, result_stride{static_int(0)};
  Int covered = static_int(1);  // size(result_shape)
  for (int i : sorted) {
    const Int d = stride[i].value();
    if (d.is_constant(0)) continue;
    LAYOUTX_TRACE("mode", "stride", d, "shape", shape[i], "covered", covered);
    if ((d % covered).value != 0)
      throw Error(fmt::format(
          "Left inverse divisibility condition: stride {} of {} is not a multiple of the {} offsets below it, so the "
          "layout is not injective onto a layout-shaped image",
          d.value, to_text(l), covered.value));
    const Int s = d / covered;
    result_shape.emplace_back(s);
    covered = covered * s;
    result_stride.emplace_back(pre[i]);
    LAYOUTX_TRACE("piece", "shape", s, "stride", pre[i]);
  }
  result_shape.emplace_back(shape[sorted.back()].value());
  LAYOUTX_TRACE("coalesce", "layout", Layout{IntTuple(result_shape), IntTuple(result_stride)});
  return coalesce(Layout{IntTuple(result_shape), IntTuple(result_stride)});
}

}  // namespace layoutx
