// CuTe's tensor partitioning on a layout standing for the tensor make_coord_tensor(L).
#pragma once

#include "call.hpp"
#include "layoutx/tensor_slice.hpp"

namespace layoutx::lang {

Value fn_inner_partition(const Call& c);
Value fn_outer_partition(const Call& c);
Value fn_local_tile(const Call& c);
Value fn_local_partition(const Call& c);

}  // namespace layoutx::lang
