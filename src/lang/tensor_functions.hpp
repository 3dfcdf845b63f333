// Tensors in the expression language: the functions that make them
// (make_identity_tensor, make_tensor, make_gmem_ptr, ...) and CuTe's tensor
// forms of the layout functions (size(t), logical_divide(t, tiler), ...).
#pragma once

#include "call.hpp"

namespace layoutx::lang {

Value fn_make_identity_tensor(const Call& c);
Value fn_make_coord_tensor(const Call& c);
Value fn_make_tensor(const Call& c);
Value fn_make_gmem_ptr(const Call& c);
Value fn_make_smem_ptr(const Call& c);
Value fn_make_tensor_like(const Call& c);
Value fn_group_modes(const Call& c);

// local_tile, local_partition, inner_partition, outer_partition of a tensor,
// or of a layout standing for make_coord_tensor(L): the tensor they answer.
// `partition` answers (layout, origin) of make_coord_tensor(L).
Builtin tensor_partition(Builtin partition);
// make_fragment_like: of a layout, a layout; of a tensor, or make_fragment_like<T>, a register tensor.
Builtin fragment_form(Builtin layout_function);

bool has_tensor(const std::vector<Value>& args);
// A call of a layout function with a tensor among its arguments, as CuTe's
// tensor overload answers it.
Value call_with_tensors(const Call& c, const Builtin& layout_function);

// t(coord): an element of a coordinate tensor, or with `_` a slice.
Value tensor_at(const Value& tensor, const Value& coord, Notation n);

}  // namespace layoutx::lang
