// CuTe's make_tma_copy (copy_traits_sm90_tma.hpp): for a global tensor, a
// (possibly swizzled) shared-memory tile and a multicast size, the TMA box it
// chooses, the descriptor fields it hands to cuTensorMapEncodeTiled and the
// TiledCopy it returns, or CuTe's reason for refusing.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "layoutx/atoms.hpp"
#include "layoutx/layout.hpp"
#include "layoutx/swizzle.hpp"
#include "layoutx/tiler.hpp"
#include "layoutx/value.hpp"

namespace layoutx {

// The TMA operations make_tma_copy accepts, by CuTe's names.
const std::vector<std::string>& tma_operations();

// A value type TMA moves: its width and CuTe's to_CUtensorMapDataType; nullptr
// for a type TMA has no format for.
struct TmaValueType {
  std::string_view name;
  int bits;
  std::string_view tensor_map_type;  // CU_TENSOR_MAP_DATA_TYPE_...
};
const TmaValueType* find_tma_value_type(std::string_view name);
std::vector<std::string> tma_value_type_names();

struct TmaCopyInput {
  std::string op;                 // one of tma_operations()
  Layout gmem;                    // the global tensor, in elements
  const TmaValueType* type;       // the element type
  Swizzle swizzle;                // the shared-memory layout's swizzle (Sw<0,4,3> when it has none)
  Layout smem;                    // its layout without the swizzle
  Int multicast = static_int(1);  // CTAs of the cluster that share each box
  // The CTA's tile of the global tensor (make_tma_copy's cta_tiler); none:
  // the smem layout's shape, as make_tma_copy(op, gmem, smem) takes it.
  std::optional<Tiler> cta_tiler;
};

// The arguments of cuTensorMapEncodeTiled.
struct TmaDescriptorFields {
  std::string_view data_type;
  int rank = 0;
  std::vector<std::uint64_t> dims, strides, box, element_strides;  // strides in bytes, the first (implicit) left out
  std::string_view swizzle;                                        // CU_TENSOR_MAP_SWIZZLE_...
};

struct TmaCopy {
  Layout tma_gbasis;  // TMA box mode -> global tensor mode(s) (AuxTmaParams::TmaGmemBasis)
  IntTuple g_stride;  // global tensor mode -> TMA coordinate (the TMA tensor's strides)
  Swizzle swizzle;
  int swizzle_bits = 0;  // TMA::SmemSwizzleBits: 0 disable, 1 32B, 2 64B, 3 128B
  int swizzle_base = 0;  // TMA::SmemSwizzleBase: 0 16B, 1 32B, 3 64B
  TmaDescriptorFields desc;
  CopyAtom traits;                   // Copy_Traits: ThrID and layouts in bits
  Layout val_src, val_dst, val_ref;  // Copy_Atom's layouts in elements
  IntTuple tiler;                    // TiledCopy's Tiler_MN
  Layout tv;                         // TiledCopy's TiledLayout_TV
  std::int64_t elements_per_tma = 0;
};

// get_swizzle_portion and get_nonswizzle_portion of a shared-memory layout: a
// swizzled layout's swizzle (its offset plays no part) and inner layout, or
// Sw<0,4,3> and a static plain layout; nullopt for anything else.
std::optional<std::pair<Swizzle, Layout>> smem_portions(const Value& smem);

// make_tma_copy(op, gmem tensor, smem layout, Int<multicast>): throws Error
// with CuTe's static_assert message or failing assert condition.
TmaCopy make_tma_copy(const TmaCopyInput& in, Diagnostics& diag);
// make_tma_atom: the same without the TiledCopy (no tiler, no TV layout, and
// none of the tiling's refusals).
TmaCopy make_tma_atom(const TmaCopyInput& in, Diagnostics& diag);

}  // namespace layoutx
