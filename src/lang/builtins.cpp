// The functions of the expression language, by CuTe's names and argument
// order: the one table of names. Each row names the family whose file
// defines the function (builtins_construction.cpp, builtins_tuples.cpp,
// builtins_algebra.cpp, builtins_tensors.cpp); integer_strides and
// product_strides refuse scaled-basis strides where CuTe needs integers.
#include "builtins.hpp"
#include "tensor_functions.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "layoutx/algebra.hpp"

namespace layoutx::lang {

namespace {

const std::map<std::string, Function>& table() {
  static const std::map<std::string, Function> t = {
      {"append", tuples::fn_append},
      {"as_position_independent_swizzle_layout", construction::fn_position_independent},
      {"back", tuples::fn_back},
      {"blocked_product",
       algebra::product_strides(Function{algebra::pair_op(&blocked_product), Property::BlockProduct})},
      {"ceil_div", tuples::fn_ceil_div},
      {"coalesce", {algebra::fn_coalesce, Property::SameFunction}},
      {"compatible", tuples::fn_compatible},
      {"complement", algebra::integer_strides(Function{algebra::fn_complement, Property::Complement})},
      {"composition", {algebra::fn_composition, Property::Composition}},
      {"congruent", tuples::fn_congruent},
      {"coshape", tuples::fn_coshape},
      {"cosize", tuples::fn_cosize},
      {"crd2idx", tuples::fn_crd2idx},
      {"depth", tuples::fn_depth},
      {"domain_distribute", tuples::fn_domain_distribute},
      {"domain_offset", tensors::fn_domain_offset},
      {"downcast", algebra::integer_strides(algebra::fn_downcast)},
      {"elem_less", tuples::fn_elem_less},
      {"elem_scale", tuples::fn_elem_scale},
      {"evenly_divides", tuples::fn_evenly_divides},
      {"filter", algebra::fn_filter},
      {"filter_zeros", tuples::fn_filter_zeros},
      {"flat_divide", algebra::integer_strides(Function{algebra::tiler_op(&flat_divide), Property::Divide}, 1)},
      {"flat_product",
       algebra::product_strides(Function{algebra::product_op(&flat_product, &unpack_both), Property::Product})},
      {"flatten", {tuples::fn_flatten, Property::SameFunction}},
      {"front", tuples::fn_front},
      {"get", tuples::fn_get},
      {"group", tuples::fn_group},
      {"group_modes", fn_group_modes},
      {"idx2crd", tuples::fn_idx2crd},
      {"inner_partition", tensor_partition(tensors::fn_inner_partition)},
      {"inner_product", tuples::fn_inner_product},
      {"layout", tuples::fn_get},
      {"left_inverse", algebra::integer_strides(Function{algebra::fn_left_inverse, Property::LeftInverse}, 0, true)},
      {"local_partition", tensor_partition(tensors::fn_local_partition)},
      {"local_tile", tensor_partition(tensors::fn_local_tile)},
      {"logical_divide", algebra::integer_strides(Function{algebra::tiler_op(&logical_divide), Property::Divide}, 1)},
      {"logical_product", algebra::product_strides(Function{algebra::fn_logical_product, Property::LogicalProduct})},
      {"make_basis_like", construction::fn_make_basis_like},
      {"make_composed_layout", construction::fn_make_composed_layout},
      {"make_coord", construction::fn_make_tuple},
      {"make_coord_tensor", fn_make_coord_tensor},
      {"make_fragment_like", fragment_form(construction::fn_make_fragment_like)},
      {"make_gmem_ptr", fn_make_gmem_ptr},
      {"make_identity_layout", construction::fn_make_identity_layout},
      {"make_identity_tensor", fn_make_identity_tensor},
      {"make_layout", construction::fn_make_layout},
      {"make_layout_like", construction::fn_make_layout_like},
      {"make_ordered_layout", construction::fn_make_ordered_layout},
      {"make_shape", construction::fn_make_tuple},
      {"make_smem_ptr", fn_make_smem_ptr},
      {"make_step", construction::fn_make_tuple},
      {"make_stride", construction::fn_make_tuple},
      {"make_swizzle", construction::fn_make_swizzle},
      {"make_tensor", fn_make_tensor},
      {"make_tensor_like", fn_make_tensor_like},
      {"make_tile", construction::fn_make_tuple},
      {"make_tuple", construction::fn_make_tuple},
      {"max_alignment", algebra::integer_strides(algebra::fn_max_alignment)},
      {"max_common_layout", algebra::integer_strides(algebra::fn_max_common_layout)},
      {"max_common_vector", algebra::integer_strides(algebra::fn_max_common_vector)},
      {"nullspace", algebra::integer_strides(algebra::fn_nullspace)},
      {"outer_partition", tensor_partition(tensors::fn_outer_partition)},
      {"prepend", tuples::fn_prepend},
      {"product", tuples::fn_product},
      {"product_each", tuples::fn_product_each},
      {"raked_product", algebra::product_strides(Function{algebra::pair_op(&raked_product), Property::BlockProduct})},
      {"rank", tuples::fn_rank},
      {"recast", algebra::integer_strides(algebra::fn_recast)},
      {"recast_layout", algebra::integer_strides(algebra::fn_recast)},
      {"remove", tuples::fn_remove},
      {"replace", tuples::fn_replace},
      {"reverse", tuples::fn_reverse},
      {"right_inverse", algebra::integer_strides(Function{algebra::fn_right_inverse, Property::RightInverse}, 0, true)},
      {"select", tuples::fn_select},
      {"shape", tuples::fn_shape},
      {"shape_div", tuples::fn_shape_div},
      {"size", tuples::fn_size},
      {"slice_and_offset", tensors::fn_slice_and_offset},
      {"stride", tuples::fn_stride},
      {"take", tuples::fn_take},
      {"tile_to_shape", algebra::integer_strides(algebra::fn_tile_to_shape)},
      {"tiled_divide", algebra::integer_strides(Function{algebra::tiler_op(&tiled_divide), Property::Divide}, 1)},
      {"tiled_product",
       algebra::product_strides(Function{algebra::product_op(&tiled_product, &unpack_rest), Property::Product})},
      {"unflatten", tuples::fn_unflatten},
      {"upcast", algebra::integer_strides(algebra::fn_upcast)},
      {"weakly_congruent", tuples::fn_weakly_congruent},
      {"with_shape", algebra::fn_with_shape},
      {"zip", tuples::fn_zip},
      {"zipped_divide", algebra::integer_strides(Function{algebra::tiler_op(&zipped_divide), Property::Divide}, 1)},
      {"zipped_product",
       algebra::product_strides(Function{algebra::product_op(&zipped_product, &algebra::zipped), Property::Product})},
  };
  return t;
}

}  // namespace

// Looked up by hash: every call of every expression looks its name up.
const Function* find_builtin(std::string_view name) {
  static const std::unordered_map<std::string_view, const Function*> index = [] {
    std::unordered_map<std::string_view, const Function*> by_name;
    for (const auto& [fn_name, fn] : table()) by_name.emplace(fn_name, &fn);
    return by_name;
  }();
  const auto it = index.find(name);
  return it == index.end() ? nullptr : it->second;
}

}  // namespace layoutx::lang

namespace layoutx {

const std::vector<std::string>& function_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [name, fn] : lang::table()) out.push_back(name);
    return out;
  }();
  return names;
}

std::vector<std::string> function_names(const LanguageExtension* extension) {
  std::vector<std::string> out = function_names();
  if (extension)
    for (const auto& [name, fn] : extension->functions) out.push_back(name);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace layoutx
