#include "layoutx/tma_partition.hpp"

#include <fmt/format.h>

#include "layoutx/algebra.hpp"
#include "layoutx/tiler.hpp"

namespace layoutx {

TmaPartitioner tma_partitioner(const Layout& smem_tile, std::int64_t elements_per_tma, const Layout& cta_layout,
                               const IntTuple& cta_coord) {
  const Int cosize_t = cosize(cta_layout);
  if (cosize_t.value < 1 || elements_per_tma % cosize_t.value != 0)
    throw Error(fmt::format("the CTA layout's {} multicast ids do not divide the box of {} elements", cosize_t.value,
                            elements_per_tma));
  const IntTuple id = offset_at(cta_layout, cta_coord);
  if (!id.is_leaf() || id.value().is_scaled_basis())
    throw Error("the CTA layout maps a CTA coordinate to an integer multicast id");
  TmaPartitioner p;
  p.smem_tile = smem_tile;
  p.elements_per_tma = elements_per_tma;
  p.multicast_offset = id.value() * static_int(elements_per_tma / cosize_t.value);
  return p;
}

TensorSlice tma_partition(const TmaPartitioner& p, const Layout& l, Diagnostics& diag) {
  const Int tile = size(p.smem_tile);
  const Layout mode0 = l.shape.is_leaf() ? l : get(l, 0);
  if (size(mode0).value != tile.value)
    throw Error(fmt::format("CUTE_STATIC_ASSERT_V(size<0>(stensor) == size<0>(tensor)) fails: {} != {}", tile.value,
                            size(mode0).value));
  // The smem order of elements, tiled over the tile, split into boxes.
  const Layout inv = right_inverse(p.smem_tile);
  const Layout wrapped{IntTuple::tuple({inv.shape}), IntTuple::tuple({inv.stride})};  // make_layout(inv)
  const Layout layout_v = tile_to_shape(wrapped, IntTuple(tile), std::nullopt, diag);
  const Layout boxes = logical_divide(layout_v, Tiler::of(Layout{static_int(p.elements_per_tma), static_int(1)}), diag);
  // append<R>(make_tile(boxes), _): the rest of the tensor's modes kept.
  const int rank = l.shape.is_leaf() ? 1 : l.shape.rank();
  std::vector<Tiler> modes{Tiler::of(boxes)};
  std::vector<IntTuple> profile{IntTuple::pair(static_int(1), static_int(1))};
  std::vector<IntTuple> coord{IntTuple::pair(p.multicast_offset, static_int(0))};
  for (int i = 1; i < rank; ++i) {
    modes.push_back(Tiler::underscore());
    coord.emplace_back(static_int(0));
  }
  const Layout composed = composition(l, Tiler::tuple(std::move(modes)), diag);
  const Layout grouped = coalesce(composed, IntTuple(std::move(profile)));
  return {grouped, offset_at(grouped, IntTuple(std::move(coord)))};
}

}  // namespace layoutx
