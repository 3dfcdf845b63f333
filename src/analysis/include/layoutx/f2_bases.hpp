// A layout as a linear map over F2 (Triton's linear layouts): where each bit
// of the flattened index goes. A layout is linear over F2 when its extents are
// powers of two and no two bits' images share a bit (sums are then XORs); a
// swizzle composed on top keeps it linear.
#pragma once

#include <cstdint>
#include <vector>

#include "layoutx/swizzle_algebra.hpp"

namespace layoutx {

// The image of each bit of l's flattened index, mode 0's bits first; throws
// Error naming the mode (called `what` in the message) that is not linear.
std::vector<std::int64_t> f2_images(const Layout& l, const char* what);

// The images passed through l's swizzle (a composed layout's); throws Error
// for an offset or nested swizzles, which make the map affine.
std::vector<std::int64_t> f2_through_swizzle(const AnyLayout& l, std::vector<std::int64_t> images);

// f2_through_swizzle(l, f2_images(inner layout of l)): the bases of l's F2 view.
std::vector<std::int64_t> f2_bases(const AnyLayout& l);

}  // namespace layoutx
