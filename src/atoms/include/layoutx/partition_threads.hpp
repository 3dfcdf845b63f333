// The per-thread partitions a mainloop takes of one tensor: local_tile of the
// tensor at a CTA tile coordinate, then get_slice(t).partition_A/B/C of a
// TiledMMA or partition_S/D of a TiledCopy, of the tensor and of the identity
// tensor over its shape (the coordinates the residue predicate compares).
#pragma once

#include <optional>
#include <string>

#include "layoutx/swizzle_algebra.hpp"
#include "layoutx/thread_accesses.hpp"
#include "layoutx/tiled_copy.hpp"
#include "layoutx/tiled_mma.hpp"

namespace layoutx {

// What partitions: operand A, B or C of a TiledMMA, or side S or D of a TiledCopy.
struct Partitioner {
  std::optional<TiledMma> mma;
  std::optional<TiledCopy> copy;
  char operand = 'C';  // 'A', 'B', 'C' with an MMA; 'S', 'D' with a copy
};

struct PartitionRequest {
  AnyLayout tensor;  // the whole tensor (global or shared memory, swizzled allowed)
  std::optional<IntTuple>
      tile;  // the CTA tile: (M,N,K) of an MMA (each operand keeps its two modes), else one extent per mode
  std::optional<Value> tile_coord;     // the tile's coordinate, as the tile (an MMA's (m,n,k)); `_` keeps a mode
  std::optional<IntTuple> problem;     // the predicate's bound; the tensor's shape when unset
  std::optional<std::int64_t> thread;  // one thread, or all
  int bits = 16;                       // the element width
};

struct PartitionAnswer {
  std::vector<ThreadPartition> parts;
  AccessModel model;
  Int threads;                 // how many threads the TiledMMA or TiledCopy takes
  Layout tile;                 // local_tile's layout of the tensor (the whole tensor without a tile)
  IntTuple tile_origin;        // and where it starts (before any swizzle)
  IntTuple tile_coord_origin;  // the coordinate of its first element
  std::string no_fragment;     // why there is no register fragment, where there is none
};

PartitionAnswer partition_threads(const Partitioner& p, const PartitionRequest& r, Diagnostics& diag);

// The thread-value layout of the tile for a picture: (thread, value) -> index
// of the CTA tile (compact column-major over (rows, cols)), the thread numbers
// of its thread mode, and the tile's extents.
struct TileTv {
  Layout tv;
  Layout thr_id;
  Int rows, cols;
};
TileTv tile_tv(const Partitioner& p, const PartitionAnswer& a, Diagnostics& diag);

}  // namespace layoutx
