// CuTe's tensor partitioning on a layout standing for the tensor make_coord_tensor(L).
#pragma once

#include "call.hpp"

namespace layoutx::lang {

// Where the coordinate lands: crd2idx(coord, L), a coordinate for a layout with scaled-basis strides.
IntTuple offset_at(const Layout& l, const IntTuple& coord);

Value fn_inner_partition(const Call& c);
Value fn_outer_partition(const Call& c);
Value fn_local_tile(const Call& c);
Value fn_local_partition(const Call& c);

}  // namespace layoutx::lang
