// CuTe's canonical shared-memory layout atoms of GMMA (SM90) and UMMA (SM100):
// GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>, UMMA's same names and
// UMMA::Layout_MN_SW128_32B_Atom<T>, and their sparse _SpAtom<T,S> forms.
// Each is a swizzle o smem_ptr flag o layout, as CuTe builds it: the atom in
// bits, upcast to T's width.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "layoutx/swizzle_algebra.hpp"

namespace layoutx {

// Whether `name` (with or without cute::) is one of the atoms, whatever the arguments.
bool is_smem_layout_atom(std::string_view name);

// The atom for element width `bits` (and sparsity, for a _SpAtom); refuses a
// name that is no atom and widths CuTe's upcast refuses.
ComposedLayout smem_layout_atom(std::string_view name, std::int64_t bits, std::optional<std::int64_t> sparsity);

// The atom names as CuTe spells them (GMMA::..., UMMA::...), for help and completions.
const std::vector<std::string>& smem_layout_atom_names();

}  // namespace layoutx
