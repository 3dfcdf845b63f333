// CuTe's slice_and_offset of a swizzled layout at a coordinate that fixes
// some modes (swizzle_layout.hpp, pointer_flagged.hpp).
#pragma once

#include "layoutx/value.hpp"

namespace layoutx {

struct SlicedLayout {
  AnyLayout layout;
  Int offset;  // where the slice starts, added to the tensor's pointer
};

// slice_and_offset(coord, Sw o offset o L): the slice, swizzled where the
// modes left still move a swizzled bit and its partner, else a plain layout,
// and the offset the pointer moves by.
SlicedLayout slice_and_offset(const Value& coord, const ComposedLayout& c, Diagnostics& diag);

}  // namespace layoutx
