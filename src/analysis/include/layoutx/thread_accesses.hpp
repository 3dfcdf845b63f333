// What each thread of a partitioned tile touches: the offsets and coordinates
// of its elements, which of them the identity-tensor predicate masks off, and
// how wide the contiguous accesses are. The partitions themselves (CuTe's
// partition_A/B/C/S/D of a TiledMMA or TiledCopy) come from the caller.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "layoutx/swizzle.hpp"

namespace layoutx {

// One thread's partition of a tensor and of the identity tensor over the
// same shape (same layout shape, coordinate strides).
struct ThreadPartition {
  Int thread;
  Layout layout;                   // the partition of the tensor (of its inner layout when it is swizzled)
  Int origin;                      // where that partition starts, before any swizzle
  Layout coord_layout;             // the partition of the identity tensor
  IntTuple coord_origin;           // the coordinate where it starts
  std::optional<Layout> fragment;  // partition_fragment_*: the register fragment, where the operand has one
};

struct AccessModel {
  // The tensor's swizzle, applied to (its offset + the partition's offset); none for a plain tensor.
  std::optional<ComposedLayout> swizzle;
  // Whether the tensor is CuTe's swizzled pointer (a canonical atom's pointer
  // flag): slices move its pointer by unswizzled offsets.
  bool swizzled_pointer = false;
  // elem_less(coordinate, bound): the elements whose coordinate is not below it are masked off.
  IntTuple bound;
  // The widest access, in elements (a copy atom's values per call; 128 bits otherwise).
  std::int64_t max_vector = 1;
};

struct ThreadAccesses {
  Int thread;
  Layout layout;
  Int origin;  // where it starts: unswizzled over a pointer flag (a swizzled pointer), else swizzled
  Layout coord_layout;
  IntTuple coord_origin;
  std::optional<Layout> fragment;
  std::vector<std::int64_t> offsets;  // per element, in the partition's index order
  int coord_rank = 0;
  std::vector<std::int64_t> coords;  // coord_rank integers per element
  std::vector<bool> in_bounds;       // elem_less(coordinate, bound)
  std::int64_t vector = 1;           // elements per access: contiguous, aligned runs
  std::int64_t masked = 0;
};

// The most elements all threads together may list (the answer is held in memory).
inline constexpr std::int64_t kMaxPartitionElements = std::int64_t{1} << 24;

std::vector<ThreadAccesses> thread_accesses(const std::vector<ThreadPartition>& parts, const AccessModel& model);

// The widest power of two v <= max_vector such that the offsets, cut into runs
// of v elements, are each v consecutive offsets starting at a multiple of v.
std::int64_t contiguous_vector(const std::vector<std::int64_t>& offsets, std::int64_t max_vector);

// Who owns a coordinate: every (thread, element) whose coordinate equals it.
struct Owner {
  Int thread;
  std::int64_t index = 0;
  std::int64_t offset = 0;
  bool in_bounds = true;
};
std::vector<Owner> owners_of(const std::vector<ThreadAccesses>& threads, const std::vector<std::int64_t>& coord);

}  // namespace layoutx
