// CuTe's crd2idx(coord, shape, stride) walk, shared by integer strides (an
// offset) and scaled-basis strides (a coordinate): only how the modes'
// contributions add up differs, so the walk takes the sum as a parameter.
#pragma once

#include <fmt/format.h>

#include "layoutx/int_tuple.hpp"
#include "layoutx/notation.hpp"

namespace layoutx {

// A tuple coordinate goes mode by mode; an integer splits colexicographically
// over the modes, the last mode taking the rest (so indices past the end extend
// it); each leaf contributes coord * stride.  `add(sum, contribution)` adds one
// mode's contribution to the running `Sum`, which starts at the static zero.
template <class Sum, class Add>
Sum crd2idx_walk(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride, const Add& add) {
  if (coord.is_tuple()) {
    if (shape.is_leaf())
      throw naming_values([&](Notation shown) {
        return fmt::format("Invalid parameters: coordinate {} is a tuple but the shape {} is an integer",
                           to_text(coord, shown), to_text(shape, shown));
      });
    if (coord.rank() != shape.rank() || coord.rank() != stride.rank())
      throw naming_values([&](Notation shown) {
        return fmt::format("Mismatched Ranks: coordinate {} against shape {}", to_text(coord, shown),
                           to_text(shape, shown));
      });
    Sum sum = static_int(0);
    for (int i = 0; i < coord.rank(); ++i)
      sum = add(sum, crd2idx_walk<Sum>(coord.elems()[i], shape.elems()[i], stride.elems()[i], add));
    return sum;
  }
  if (shape.is_tuple()) {
    if (shape.rank() != stride.rank())
      throw naming_values([&](Notation shown) {
        return fmt::format("Mismatched Ranks: shape {} and stride {}", to_text(shape, shown), to_text(stride, shown));
      });
    Int c = coord.value();
    Sum sum = static_int(0);
    const int n = shape.rank();
    for (int i = 0; i < n; ++i) {
      if (i + 1 == n) {
        sum = add(sum, crd2idx_walk<Sum>(c, shape.elems()[i], stride.elems()[i], add));
      } else {
        const Int m = product(shape.elems()[i]);
        sum = add(sum, crd2idx_walk<Sum>(c % m, shape.elems()[i], stride.elems()[i], add));
        c = c / m;
      }
    }
    return sum;
  }
  if (stride.is_tuple())
    throw naming_values([&](Notation shown) {
      return fmt::format("incongruent shape and stride: {} against {}", to_text(shape, shown), to_text(stride, shown));
    });
  return coord.value() * stride.value();
}

}  // namespace layoutx
