// Engine layouts -> FlatLayout, and the bounds that make the device's 64-bit
// (or 32-bit) arithmetic exact. Host only.
#pragma once

#include <vector>

#include "flat_layout.hpp"
#include "layoutx/swizzle_algebra.hpp"

namespace layoutx::device_detail {

Divisor make_divisor(std::int64_t d);  // @pre d >= 1

// One group: the whole layout, evaluated at 1-D indices.
FlatLayout flat_of(const AnyLayout& l);
// One group per top-level mode of the (inner) layout, for by-mode composition.
FlatLayout flat_by_mode(const AnyLayout& l);
// One group per tile mode; no swizzle.
FlatLayout flat_of_tile(const std::vector<Layout>& tile);

// A bound on |l(x)| over |x| <= x_bound (1-D evaluation, swizzles included);
// throws Error when it could leave the range the device computes in.
std::int64_t reach(const FlatLayout& l, std::int64_t x_bound);
// The same for one group of l, without the swizzles.
std::int64_t reach_in_group(const FlatLayout& l, int g, std::int64_t x_bound);
std::int64_t reach_of_stages(const FlatLayout& l, std::int64_t bound);

// Whether l's offsets over indices [0, n) fit 32-bit arithmetic.
bool fits_int32(const FlatLayout& l, std::uint64_t n);

}  // namespace layoutx::device_detail
