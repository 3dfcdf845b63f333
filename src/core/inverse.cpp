// right_inverse and left_inverse (CuTe layout.hpp, "Right-Inverse and Left-Inverse").
#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <numeric>

#include "layoutx/algebra.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/trace.hpp"
#include "layoutx/leaf_list.hpp"

namespace layoutx {

namespace {

// What both inverses read: the coalesced layout's modes and the prefix
// products (1, s0, s0*s1, ...) of its shape.
struct CoalescedModes {
  LeafList shape, stride, pre;
};

CoalescedModes coalesced_modes(const Layout& l, trace::Recorder* recorder) {
  CoalescedModes m;
  coalesce_modes(leaf_list(l.shape), leaf_list(l.stride), m.shape, m.stride);
  LAYOUTX_TRACE(recorder, "coalesced", "L", layout_of_modes(m.shape, m.stride));
  m.pre.push_back(static_int(1));
  for (const Int s : m.shape) m.pre.push_back(s * m.pre.back());
  return m;
}

// The pieces an inverse gathered, coalesced as CuTe returns them.
Layout coalesced_result(const LeafList& shape, const LeafList& stride, trace::Recorder* recorder) {
  LAYOUTX_TRACE(recorder, "coalesce", "layout", Layout{flat_tuple(shape), flat_tuple(stride)});
  return coalesce_leaves(shape, stride);
}

// Mode indices ordered by stride, in exactly the order CuTe's exchange sort
// leaves them: it is not stable, and the order of equal strides decides which
// mode an inverse takes.
std::vector<int> sorted_by_stride(const LeafList& stride, std::vector<int> seq) {
  const auto key = [&](int i) { return stride[i].value; };
  for (std::size_t i = 0; i < seq.size(); ++i)
    for (std::size_t j = i + 1; j < seq.size(); ++j)
      if (key(seq[j]) < key(seq[i])) std::swap(seq[i], seq[j]);
  return seq;
}

}  // namespace

Layout right_inverse(const Layout& l, trace::Recorder* recorder) {
  LAYOUTX_TRACE_SCOPE(recorder, "right_inverse", "L", l);
  const auto [shape, stride, pre] = coalesced_modes(l, recorder);

  std::vector<int> static_modes;  // dynamic strides are filtered out
  static_modes.reserve(stride.size());
  for (std::size_t i = 0; i < stride.size(); ++i)
    if (stride[i].is_static) static_modes.push_back(static_cast<int>(i));

  LeafList result_shape, result_stride;
  result_shape.push_back(static_int(1));
  result_stride.push_back(static_int(0));
  Int curr = static_int(1);
  for (int i : sorted_by_stride(stride, std::move(static_modes))) {
    const Int d = stride[i];
    LAYOUTX_TRACE(recorder, "mode", "stride", d, "shape", IntTuple(shape[i]), "wanted stride", curr);
    if (curr.is_static && d.value == curr.value) {
      LAYOUTX_TRACE(recorder, "taken", "shape", IntTuple(shape[i]), "stride", pre[i]);
      result_shape.push_back(shape[i]);
      result_stride.push_back(pre[i]);
      curr = shape[i] * d;
    }
  }
  return coalesced_result(result_shape, result_stride, recorder);
}

Layout left_inverse(const Layout& l, trace::Recorder* recorder) {
  LAYOUTX_TRACE_SCOPE(recorder, "left_inverse", "L", l);
  const auto [shape, stride, pre] = coalesced_modes(l, recorder);
  if (!std::all_of(stride.begin(), stride.end(), [](Int d) { return d.is_static; }))
    throw naming_values<StaticRequiredError>([&](Notation shown) {
      return fmt::format("Left inverse requires static strides.: {} has a dynamic stride", to_text(l, shown));
    });

  std::vector<int> all(stride.size());
  std::iota(all.begin(), all.end(), 0);
  const std::vector<int> sorted = sorted_by_stride(stride, std::move(all));

  LeafList result_shape, result_stride;
  result_stride.push_back(static_int(0));
  Int covered = static_int(1);  // size(result_shape)
  for (int i : sorted) {
    const Int d = stride[i];
    if (d.is_constant(0)) continue;
    LAYOUTX_TRACE(recorder, "mode", "stride", d, "shape", IntTuple(shape[i]), "covered", covered);
    if ((d % covered).value != 0)
      throw naming_values([&](Notation shown) {
        return fmt::format(
            "Left inverse divisibility condition: stride {} of {} is not a multiple of the {} offsets below it, so the "
            "layout is not injective onto a layout-shaped image",
            d.value, to_text(l, shown), covered.value);
      });
    const Int s = d / covered;
    result_shape.push_back(s);
    covered = covered * s;
    result_stride.push_back(pre[i]);
    LAYOUTX_TRACE(recorder, "piece", "shape", s, "stride", pre[i]);
  }
  result_shape.push_back(shape[sorted.back()]);
  return coalesced_result(result_shape, result_stride, recorder);
}

}  // namespace layoutx
