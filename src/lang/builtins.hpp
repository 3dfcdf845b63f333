// The functions of the expression language, by family: each family's file
// (builtins_FAMILY.cpp) defines its functions in namespace lang::FAMILY, and
// builtins.cpp holds the one table of names, each row naming its family.
#pragma once

#include <cstddef>
#include <utility>
#include <variant>

#include "call.hpp"

namespace layoutx::lang {

// A function's answer as a value, moved in (Value::of copies it).
inline Value answer(Layout&& l) {
  Value v;
  v.kind = Value::Kind::Layout;
  v.layout = std::move(l);
  return v;
}

inline Value answer(AnyLayout&& l) {
  if (auto* plain = std::get_if<Layout>(&l)) return answer(std::move(*plain));
  return Value::of(std::move(std::get<ComposedLayout>(l)));
}

// f on a layout; on a composed layout, f on its inner layout (swizzle and offset kept).
template <class F>
Value on_layout(const Call& c, std::size_t i, F f) {
  // The argument is read in place: for a small layout a copy costs as much as the function.
  const Value& v = c.args.at(i);
  if (v.kind == Value::Kind::Layout) return answer(f(v.layout));
  if (v.kind == Value::Kind::Composed) return answer(on_inner(v.composed(), f));
  return answer(f(c.layout(i)));
}

// builtins_construction.cpp: building layouts, tuples, swizzles and composed layouts.
namespace construction {

Value fn_make_layout(const Call& c);
Value fn_make_tuple(const Call& c);
Value fn_make_ordered_layout(const Call& c);
Value fn_position_independent(const Call& c);
Value fn_make_layout_like(const Call& c);
Value fn_make_fragment_like(const Call& c);
Value fn_make_swizzle(const Call& c);
Value fn_make_composed_layout(const Call& c);
Value fn_make_identity_layout(const Call& c);
Value fn_make_basis_like(const Call& c);

}  // namespace construction

// builtins_tuples.cpp: tuples and queries.
namespace tuples {

Value fn_get(const Call& c);
Value fn_select(const Call& c);
Value fn_take(const Call& c);
Value fn_group(const Call& c);
Value fn_flatten(const Call& c);
Value fn_size(const Call& c);
Value fn_cosize(const Call& c);
Value fn_rank(const Call& c);
Value fn_depth(const Call& c);
Value fn_shape(const Call& c);
Value fn_stride(const Call& c);
Value fn_coshape(const Call& c);
Value fn_append(const Call& c);
Value fn_prepend(const Call& c);
Value fn_zip(const Call& c);
Value fn_congruent(const Call& c);
Value fn_weakly_congruent(const Call& c);
Value fn_elem_less(const Call& c);
Value fn_compatible(const Call& c);
Value fn_evenly_divides(const Call& c);
Value fn_inner_product(const Call& c);
Value fn_elem_scale(const Call& c);
Value fn_front(const Call& c);
Value fn_back(const Call& c);
Value fn_reverse(const Call& c);
Value fn_remove(const Call& c);
Value fn_replace(const Call& c);
Value fn_unflatten(const Call& c);
Value fn_crd2idx(const Call& c);
Value fn_idx2crd(const Call& c);
Value fn_ceil_div(const Call& c);
Value fn_shape_div(const Call& c);
Value fn_product(const Call& c);
Value fn_filter_zeros(const Call& c);
Value fn_domain_distribute(const Call& c);
Value fn_product_each(const Call& c);

}  // namespace tuples

// builtins_algebra.cpp: the layout algebra.
namespace algebra {

Value fn_coalesce(const Call& c);
Value fn_filter(const Call& c);
Value fn_composition(const Call& c);
Value fn_complement(const Call& c);
Value fn_right_inverse(const Call& c);
Value fn_left_inverse(const Call& c);
Value fn_logical_product(const Call& c);
Value fn_tile_to_shape(const Call& c);
Value fn_max_common_layout(const Call& c);
Value fn_max_common_vector(const Call& c);
Value fn_nullspace(const Call& c);
Value fn_upcast(const Call& c);
Value fn_downcast(const Call& c);
Value fn_recast(const Call& c);
Value fn_with_shape(const Call& c);
Value fn_max_alignment(const Call& c);

// The divides: f(layout, tiler).
using TilerOp = Layout (*)(const Layout&, const Tiler&, Diagnostics&);
Builtin tiler_op(TilerOp op);
// The zipped, tiled and flat products: a tiler, or a composed layout whose
// product `unpack` unzips.
Builtin product_op(TilerOp op, Layout (*unpack)(const Layout&));
Layout zipped(const Layout& l);
// blocked_product and raked_product: f(layout, layout).
using PairOp = Layout (*)(const Layout&, const Layout&, Diagnostics&);
Builtin pair_op(PairOp op);

// f, for the arguments from `first` on when none has scaled-basis strides
// (CuTe's function needs integer strides there); see builtins_algebra.cpp.
Function integer_strides(Function f, std::size_t first = 0, bool unit_ok = false, bool block_ok = false);
// The products: their block may be a coordinate layout with scaled-basis strides in size-1 modes only.
Function product_strides(Function f);

}  // namespace algebra

// builtins_tensors.cpp: tensors and their partitions.
namespace tensors {

Value fn_slice_and_offset(const Call& c);
Value fn_domain_offset(const Call& c);
Value fn_inner_partition(const Call& c);
Value fn_outer_partition(const Call& c);
Value fn_local_tile(const Call& c);
Value fn_local_partition(const Call& c);

}  // namespace tensors

}  // namespace layoutx::lang
