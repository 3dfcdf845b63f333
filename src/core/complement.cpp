// complement (CuTe layout.hpp detail::complement).
#include <fmt/format.h>

#include "layoutx/algebra.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/trace.hpp"

namespace layoutx {

namespace {

void check_injective(Int new_shape, Int min_stride, Int last_stride, const Layout& filtered, Diagnostics& diag) {
  if (new_shape.value != 0 && last_stride.value != 0 && min_stride.value % last_stride.value != 0)
    diag.warn(
        "complement divisibility",
        fmt::format("complement of {}: stride {} is not a multiple of {}, the extent already covered; CuTe "
                    "truncates {} / {} = {}, so the layout and its complement leave holes in the codomain",
                    to_text(filtered, diag.notation()), min_stride.value, last_stride.value, min_stride.value,
                    last_stride.value,
                    new_shape.value));
  if (new_shape.value != 0) return;
  const std::string msg = fmt::format(
      "Non-injective Layout detected in complement.: {} maps two coordinates to one offset (stride {} is smaller "
      "than the extent {} already covered)",
      to_text(filtered, diag.notation()), min_stride.value, last_stride.value);
  if (new_shape.is_static) throw Error(msg);
  // CuTe only asserts on a static zero; with dynamic integers it returns a size-0 mode.
  diag.warn("Non-injective Layout detected in complement.",
            msg + "; CuTe computes a size-0 mode because the operands are dynamic");
}

// A flat tuple of the integers, as the trace shows the modes.
IntTuple flat_tuple(const std::vector<Int>& v) { return IntTuple(std::vector<IntTuple>(v.begin(), v.end())); }

// @pre shape/stride come from filter(): flat, no stride-0 or size-1 modes.
// The modes are read as lists of integers: the loop takes them out one by one.
Layout complement_filtered(const Layout& filtered, const IntTuple& cotarget, Diagnostics& diag) {
  LAYOUTX_TRACE_SCOPE("complement", "filter(L)", filtered, "cotarget", cotarget);
  if (filtered.stride.is_leaf() && filtered.stride.value().is_constant(0))
    return make_layout(coalesce_shape(cotarget));

  const int r = filtered.shape.rank();
  if (r != 1 && !is_static(filtered.stride))
    throw Error(fmt::format(
        "Dynamic-stride complement only for rank-1 layouts: {} has {} modes and dynamic strides; the operation needs "
        "static strides",
        to_text(filtered, diag.notation()), r));

  std::vector<Int> shape = leaves(filtered.shape), stride = leaves(filtered.stride);
  LAYOUTX_TRACE("modes", "shape", flat_tuple(shape), "stride", flat_tuple(stride), "strides in the order taken",
                trace::ascending(flat_tuple(stride)));
  std::vector<IntTuple> result_shape;
  std::vector<IntTuple> result_stride{static_int(1)};
  result_shape.reserve(r + 1);
  result_stride.reserve(r + 1);
  for (int i = 0; i + 1 < r; ++i) {
    std::size_t min_idx = 0;
    for (std::size_t j = 1; j < stride.size(); ++j)
      if (stride[j].value < stride[min_idx].value) min_idx = j;
    const Int min_stride = stride[min_idx];
    const Int new_shape = min_stride / result_stride[i].value();
    const Int new_stride = min_stride * shape[min_idx];
    LAYOUTX_TRACE("piece", "min_stride", min_stride, "its shape", shape[min_idx], "new_shape", new_shape, "new_stride", new_stride);
    check_injective(new_shape, min_stride, result_stride[i].value(), filtered, diag);
    shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(min_idx));
    stride.erase(stride.begin() + static_cast<std::ptrdiff_t>(min_idx));
    result_shape.emplace_back(new_shape);
    result_stride.emplace_back(new_stride);
  }
  const Int last_stride = stride[0];
  const Int new_shape = last_stride / result_stride[r - 1].value();
  LAYOUTX_TRACE("last piece", "min_stride", last_stride, "its shape", shape[0], "new_shape", new_shape);
  check_injective(new_shape, last_stride, result_stride[r - 1].value(), filtered, diag);
  result_shape.emplace_back(new_shape);

  const Int new_stride = last_stride * shape[0];
  IntTuple rest_shape = coalesce_shape(ceil_div(cotarget, IntTuple(new_stride)));
  IntTuple rest_stride = compact_col_major(rest_shape, new_stride);
  LAYOUTX_TRACE("rest", "shape", rest_shape, "stride", rest_stride);

  IntTuple pieces_shape(std::move(result_shape)), pieces_stride(std::move(result_stride));
  LAYOUTX_TRACE("coalesce", "pieces", Layout{pieces_shape, pieces_stride}, "rest", Layout{rest_shape, rest_stride});
  std::vector<IntTuple> shape_modes, stride_modes;
  shape_modes.reserve(2);
  stride_modes.reserve(2);
  shape_modes.push_back(std::move(pieces_shape));
  shape_modes.push_back(std::move(rest_shape));
  stride_modes.push_back(std::move(pieces_stride));
  stride_modes.push_back(std::move(rest_stride));
  return coalesce(Layout{IntTuple(std::move(shape_modes)), IntTuple(std::move(stride_modes))});
}

// CuTe's complement sorts the strides as signed values and divides by them,
// so it means something only for positive strides; with a negative one its
// answer (often a negative extent) is no complement, and is kept with a warning.
Layout warn_negative_strides(const Layout& filtered, Layout r, Diagnostics& diag) {
  for (const Int& d : leaves(filtered.stride))
    if (d.value < 0) {
      diag.warn(
          "complement of negative strides",
          fmt::format("complement({}) = {} is CuTe's answer, but CuTe's complement assumes positive strides (the "
                      "stride {} is negative), so it is not a complement of the layout",
                      to_text(filtered, diag.notation()), to_text(r, diag.notation()), d.value));
      break;
    }
  return r;
}

}  // namespace

Layout complement(const Layout& l, const IntTuple& cotarget, Diagnostics& diag) {
  const Layout filtered = filter(l);
  return warn_negative_strides(filtered, complement_filtered(filtered, cotarget, diag), diag);
}

Layout complement(const Layout& l, Diagnostics& diag) {
  const Layout filtered = filter(l);
  return warn_negative_strides(filtered, complement_filtered(filtered, cosize(filtered), diag), diag);
}

}  // namespace layoutx
