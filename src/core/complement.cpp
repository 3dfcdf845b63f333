// complement (CuTe layout.hpp detail::complement).
#include <fmt/format.h>

#include <algorithm>

#include "layoutx/algebra.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/trace.hpp"
#include "layoutx/leaf_list.hpp"

namespace layoutx {

namespace {

// filter(L) as its flat modes; the layout they make is built only for
// messages and the trace.
struct FilteredModes {
  LeafList shape, stride;
  Layout layout() const { return layout_of_modes(shape, stride); }
};

FilteredModes filtered_modes(const Layout& l) {
  FilteredModes f;
  filter_modes(l, f.shape, f.stride);
  return f;
}

void check_injective(Int new_shape, Int min_stride, Int last_stride, const FilteredModes& filtered, Diagnostics& diag) {
  if (new_shape.value != 0 && last_stride.value != 0 && min_stride.value % last_stride.value != 0)
    diag.warn("complement divisibility",
              fmt::format("complement of {}: stride {} is not a multiple of {}, the extent already covered; CuTe "
                          "truncates {} / {} = {}, so the layout and its complement leave holes in the codomain",
                          to_text(filtered.layout(), diag.notation()), min_stride.value, last_stride.value,
                          min_stride.value, last_stride.value, new_shape.value));
  if (new_shape.value != 0) return;
  const std::string msg = fmt::format(
      "Non-injective Layout detected in complement.: {} maps two coordinates to one offset (stride {} is smaller "
      "than the extent {} already covered)",
      to_text(filtered.layout(), diag.notation()), min_stride.value, last_stride.value);
  if (new_shape.is_static) throw Error(msg);
  // CuTe only asserts on a static zero; with dynamic integers it returns a size-0 mode.
  diag.warn("Non-injective Layout detected in complement.",
            msg + "; CuTe computes a size-0 mode because the operands are dynamic");
}

// @pre shape/stride come from filter(): flat, no stride-0 or size-1 modes.
// The modes are read as lists of integers: the loop takes them out one by one.
Layout complement_filtered(const FilteredModes& filtered, const IntTuple& cotarget, Diagnostics& diag) {
  LAYOUTX_TRACE_SCOPE(diag.trace(), "complement", "filter(L)", filtered.layout(), "cotarget", cotarget);
  if (filtered.stride.size() == 1 && filtered.stride[0].is_constant(0)) return make_layout(coalesce_shape(cotarget));

  const int r = static_cast<int>(filtered.shape.size());
  if (r != 1 && !std::all_of(filtered.stride.begin(), filtered.stride.end(), [](Int d) { return d.is_static; }))
    throw StaticRequiredError(fmt::format(
        "Dynamic-stride complement only for rank-1 layouts: {} has {} modes and dynamic strides; the operation needs "
        "static strides",
        to_text(filtered.layout(), diag.notation()), r));

  LeafList shape = filtered.shape, stride = filtered.stride;
  LAYOUTX_TRACE(diag.trace(), "modes", "shape", flat_tuple(shape), "stride", flat_tuple(stride),
                "strides in the order taken", trace::ascending(flat_tuple(stride), diag.notation()));
  LeafList result_shape, result_stride;
  result_stride.push_back(static_int(1));
  for (int i = 0; i + 1 < r; ++i) {
    std::size_t min_idx = 0;
    for (std::size_t j = 1; j < stride.size(); ++j)
      if (stride[j].value < stride[min_idx].value) min_idx = j;
    const Int min_stride = stride[min_idx];
    const Int new_shape = min_stride / result_stride[i];
    const Int new_stride = min_stride * shape[min_idx];
    LAYOUTX_TRACE(diag.trace(), "piece", "min_stride", min_stride, "its shape", shape[min_idx], "new_shape", new_shape,
                  "new_stride", new_stride);
    check_injective(new_shape, min_stride, result_stride[i], filtered, diag);
    shape.erase(min_idx);
    stride.erase(min_idx);
    result_shape.push_back(new_shape);
    result_stride.push_back(new_stride);
  }
  const Int last_stride = stride[0];
  const Int new_shape = last_stride / result_stride[r - 1];
  LAYOUTX_TRACE(diag.trace(), "last piece", "min_stride", last_stride, "its shape", shape[0], "new_shape", new_shape);
  check_injective(new_shape, last_stride, result_stride[r - 1], filtered, diag);
  result_shape.push_back(new_shape);

  const Int new_stride = last_stride * shape[0];
  const IntTuple rest_shape = coalesce_shape(ceil_div(cotarget, IntTuple(new_stride)));
  const IntTuple rest_stride = compact_col_major(rest_shape, new_stride);
  LAYOUTX_TRACE(diag.trace(), "rest", "shape", rest_shape, "stride", rest_stride);
  LAYOUTX_TRACE(diag.trace(), "coalesce", "pieces", Layout{flat_tuple(result_shape), flat_tuple(result_stride)}, "rest",
                Layout{rest_shape, rest_stride});
  // coalesce((pieces, rest)): the pieces' modes, then the rest's.
  append_leaves(rest_shape, result_shape);
  append_leaves(rest_stride, result_stride);
  return coalesce_leaves(result_shape, result_stride);
}

// CuTe's complement sorts the strides as signed values and divides by them,
// so it means something only for positive strides; with a negative one its
// answer (often a negative extent) is no complement, and is kept with a warning.
Layout warn_negative_strides(const FilteredModes& filtered, Layout r, Diagnostics& diag) {
  for (const Int& d : filtered.stride)
    if (d.value < 0) {
      diag.warn("complement of negative strides",
                fmt::format("complement({}) = {} is CuTe's answer, but CuTe's complement assumes positive strides (the "
                            "stride {} is negative), so it is not a complement of the layout",
                            to_text(filtered.layout(), diag.notation()), to_text(r, diag.notation()), d.value));
      break;
    }
  return r;
}

}  // namespace

Layout complement(const Layout& l, const IntTuple& cotarget, Diagnostics& diag) {
  const FilteredModes filtered = filtered_modes(l);
  return warn_negative_strides(filtered, complement_filtered(filtered, cotarget, diag), diag);
}

Layout complement(const Layout& l, Diagnostics& diag) {
  const FilteredModes filtered = filtered_modes(l);
  return warn_negative_strides(filtered, complement_filtered(filtered, cosize(filtered.layout()), diag), diag);
}

}  // namespace layoutx
