// The partition command's output: what each thread of a TiledMMA or TiledCopy
// touches of one tile (thread_accesses.hpp), as text, CSV or JSON, and who
// owns a coordinate.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "layoutx/notation.hpp"
#include "layoutx/thread_accesses.hpp"

namespace layoutx {

struct PartitionView {
  std::string partitioner;  // "TiledMMA SM80_16x8x16_F16F16F16F16_TN, operand A"
  Int threads;              // how many threads partition the tile
  Layout tile;              // local_tile's layout (the whole tensor without a tile)
  IntTuple tile_origin;     // where it starts (before any swizzle)
  IntTuple tile_coord_origin;
  std::optional<ComposedLayout> swizzle;  // the addresses' swizzle, in elements
  IntTuple bound;                         // the predicate's bound
  int bits = 16;                          // element width
  std::string no_fragment;                // why no fragment, where there is none
  Notation notation;
};

// One thread: its partition, coordinates, fragment, access width and masked
// elements, then a line per element. All threads: a line per thread.
std::string render_partition_text(const PartitionView& v, const std::vector<ThreadAccesses>& threads, bool one_thread);
// A row per element: thread,index,coordinate (one column per mode),offset,in_bounds.
std::string render_partition_csv(const PartitionView& v, const std::vector<ThreadAccesses>& threads);
// One JSON object: the tile, then every thread shown with its elements.
std::string render_partition_json(const PartitionView& v, const std::vector<ThreadAccesses>& threads);

// The owners of one coordinate (text: a line each; or JSON).
std::string render_owners(const PartitionView& v, const std::vector<std::int64_t>& coord,
                          const std::vector<Owner>& owners, bool json);

}  // namespace layoutx
