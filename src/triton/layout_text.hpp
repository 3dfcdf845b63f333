// LinearLayout's own text (what Triton's LinearLayout::toString() prints):
//  - register=1 -> (0, 1)
//    register=2 -> (0, 2)
//  - lane is a size 1 dimension
// where out dims are: [dim0 (size 16), dim1 (size 32)]
#pragma once

#include <string_view>

#include "layoutx/linear_layout.hpp"

namespace layoutx::triton {

// Throws TextError on malformed text.
LinearLayout parse_layout_text(std::string_view text);

}  // namespace layoutx::triton
