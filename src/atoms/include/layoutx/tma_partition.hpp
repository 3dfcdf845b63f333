// CuTe's tma_partition (copy_traits_sm90_tma.hpp): the tensors a TMA copy
// moves, each regrouped as ((TMA, TMA_Iter), Rest...) so that one TMA
// instruction takes mode (TMA) of it, the shared-memory tensor's order of
// elements deciding the box, and moved to the slice of each box that this
// CTA of a multicast takes.
#pragma once

#include <cstdint>

#include "layoutx/tensor_partition.hpp"

namespace layoutx {

struct TmaPartitioner {
  Layout smem_tile;                      // layout<0>(stensor) without its swizzle: the TMA tile's shared-memory layout
  std::int64_t elements_per_tma = 0;     // Copy_Atom::NumValSrc: the elements of one TMA box
  Int multicast_offset = static_int(0);  // cta_layout(cta_coord) * (elements_per_tma / cosize(cta_layout))
};

// The partitioner of a TMA atom of `elements_per_tma` elements for the CTA
// at `cta_coord` of `cta_layout` (a CTA coordinate -> its multicast id).
TmaPartitioner tma_partitioner(const Layout& smem_tile, std::int64_t elements_per_tma, const Layout& cta_layout,
                               const IntTuple& cta_coord);

// The tensor of layout `l` partitioned: its layout ((TMA,TMA_Iter),Rest...)
// and the coordinate of its domain where the CTA's part starts (CuTe's
// domain_offset). Throws Error where CuTe's static assertions refuse (mode 0
// of the tensor and of the shared-memory tile differ in size).
TensorSlice tma_partition(const TmaPartitioner& p, const Layout& l, Diagnostics& diag);

}  // namespace layoutx
