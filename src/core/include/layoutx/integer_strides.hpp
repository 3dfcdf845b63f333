// Where CuTe needs integer strides (it sorts, divides or inverts them), a
// coordinate layout's scaled-basis strides do not compile. What holds such
// strides, and the integer stand-ins by which the products still take a block
// whose scaled-basis strides all sit in modes of static size 1: CuTe reads a
// block's strides only through complement, which drops size-1 modes first.
#pragma once

#include <optional>
#include <vector>

#include "layoutx/value.hpp"

namespace layoutx {

// Whether the value holds scaled-basis strides anywhere (a coordinate layout, a scaled basis).
bool holds_coordinate_layout(const Value& v);

// Whether every integer of the shape is a static 1 (modes whose strides the inverses never read).
bool all_static_ones(const IntTuple& shape);

// A coordinate layout with its scaled-basis strides replaced by placeholder
// integers, which no layout of these sizes has as a stride.
struct Placeholders {
  Layout stand_in;
  std::vector<Int> originals;  // the replaced strides; placeholder k stands for originals[k - 1]
};

// Empty unless every scaled-basis stride sits in a mode of static size 1.
std::optional<Placeholders> with_placeholders(const Layout& l);

// The strides with every placeholder put back as the stride it stands for.
IntTuple restored(const IntTuple& stride, const std::vector<Int>& originals);

}  // namespace layoutx
