// right_inverse and left_inverse (CuTe layout.hpp, "Right-Inverse and Left-Inverse").
#include <fmt/format.h>

#include <algorithm>
#include <utility>
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

// What both inverses read: the coalesced layout's modes (a lone mode as a
// one-mode tuple) and the prefix products of its shape.
struct CoalescedModes {
  IntTuple shape, stride;
  std::vector<Int> pre;
};

CoalescedModes coalesced_modes(const Layout& l, trace::Recorder* recorder) {
  const Layout c = coalesce(l);
  LAYOUTX_TRACE(recorder, "coalesced", "L", c);
  CoalescedModes m{wrap(c.shape), wrap(c.stride), {}};
  m.pre = prefix_products(m.shape);
  return m;
}

// The pieces an inverse gathered, coalesced as CuTe returns them.
Layout coalesced_result(std::vector<IntTuple> shape, std::vector<IntTuple> stride, trace::Recorder* recorder) {
  const Layout r{IntTuple(std::move(shape)), IntTuple(std::move(stride))};
  LAYOUTX_TRACE(recorder, "coalesce", "layout", r);
  return coalesce(r);
}

// Mode indices ordered by stride, in exactly the order CuTe's exchange sort
// leaves them: it is not stable, and the order of equal strides decides which
// mode an inverse takes.
std::vector<int> sorted_by_stride(const IntTuple& stride, const std::vector<int>& indices) {
  std::vector<int> seq = indices;
  const auto key = [&](int i) { return stride[i].value().value; };
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
  for (int i = 0; i < stride.rank(); ++i)
    if (stride[i].value().is_static) static_modes.push_back(i);

  std::vector<IntTuple> result_shape{static_int(1)}, result_stride{static_int(0)};
  Int curr = static_int(1);
  for (int i : sorted_by_stride(stride, static_modes)) {
    const Int d = stride[i].value();
    LAYOUTX_TRACE(recorder, "mode", "stride", d, "shape", shape[i], "wanted stride", curr);
    if (curr.is_static && d.value == curr.value) {
      LAYOUTX_TRACE(recorder, "taken", "shape", shape[i], "stride", pre[i]);
      result_shape.emplace_back(shape[i].value());
      result_stride.emplace_back(pre[i]);
      curr = shape[i].value() * d;
    }
  }
  return coalesced_result(std::move(result_shape), std::move(result_stride), recorder);
}

Layout left_inverse(const Layout& l, trace::Recorder* recorder) {
  LAYOUTX_TRACE_SCOPE(recorder, "left_inverse", "L", l);
  const auto [shape, stride, pre] = coalesced_modes(l, recorder);
  if (!is_static(stride))
    throw naming_values([&](Notation shown) {
      return fmt::format("Left inverse requires static strides.: {} has a dynamic stride", to_text(l, shown));
    });

  std::vector<int> all(stride.rank());
  std::iota(all.begin(), all.end(), 0);
  const std::vector<int> sorted = sorted_by_stride(stride, all);

  std::vector<IntTuple> result_shape, result_stride{static_int(0)};
  Int covered = static_int(1);  // size(result_shape)
  for (int i : sorted) {
    const Int d = stride[i].value();
    if (d.is_constant(0)) continue;
    LAYOUTX_TRACE(recorder, "mode", "stride", d, "shape", shape[i], "covered", covered);
    if ((d % covered).value != 0)
      throw naming_values([&](Notation shown) {
        return fmt::format(
            "Left inverse divisibility condition: stride {} of {} is not a multiple of the {} offsets below it, so the "
            "layout is not injective onto a layout-shaped image",
            d.value, to_text(l, shown), covered.value);
      });
    const Int s = d / covered;
    result_shape.emplace_back(s);
    covered = covered * s;
    result_stride.emplace_back(pre[i]);
    LAYOUTX_TRACE(recorder, "piece", "shape", s, "stride", pre[i]);
  }
  result_shape.emplace_back(shape[sorted.back()].value());
  return coalesced_result(std::move(result_shape), std::move(result_stride), recorder);
}

}  // namespace layoutx
