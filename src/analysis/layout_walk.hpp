// Flat views of a layout shared by the analyses: its leaf modes as plain
// integers, the functionally coalesced modes, and an odometer that walks the
// offsets in CuTe's column-major index order with one add per step.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "layoutx/swizzle_algebra.hpp"

namespace layoutx::walk {

struct Mode {
  std::int64_t shape;
  std::int64_t stride;
  bool operator==(const Mode&) const = default;
};

std::vector<Mode> leaf_modes(const Layout& l);

// Two layouts agree on [0, size) exactly when these lists are equal: size-1
// modes dropped, s0:d0 ++ s1:s0*d0 merged by value (CuTe's coalesce merges
// only static integers, so it is not canonical with dynamic ones).
std::vector<Mode> canonical_modes(const Layout& l);

// Throws Error when some offset of l could overflow 64 bits, so that walks and
// sums over l's offsets need no further checks.
void check_offsets_fit(const Layout& l);

// The smallest and largest offsets of l (every offset lies between them and
// they are reached); throws Error when either leaves 64 bits. Unlike
// check_offsets_fit, the distance between them may not fit.
std::pair<std::int64_t, std::int64_t> offset_bounds(const Layout& l);

class Odometer {
 public:
  Odometer(std::vector<Mode> modes, std::int64_t start_index);
  std::int64_t offset() const { return offset_; }
  void next();

 private:
  std::vector<Mode> modes_;
  std::vector<std::int64_t> digit_;
  std::int64_t offset_ = 0;
};

// The offset a composed layout gives for an offset of its inner layout
// (through each offset and swizzle stage); the identity for a plain layout.
class Finish {
 public:
  explicit Finish(const AnyLayout& l) : composed_(std::get_if<ComposedLayout>(&l)) {}
  std::int64_t operator()(std::int64_t x) const;
  bool identity() const { return composed_ == nullptr; }

 private:
  const ComposedLayout* composed_;
};

// The inner offset(s) that Finish maps to y: the swizzles are involutions, so
// the stages are undone outermost first.
std::int64_t unfinish(const AnyLayout& l, std::int64_t y);

// Per-mode coordinate (one integer per top-level mode) and the natural
// (hierarchical) coordinate of a 1-D index, as int tuples.
IntTuple mode_coordinate(const IntTuple& shape, std::int64_t index);
IntTuple natural_coordinate(const IntTuple& shape, std::int64_t index);

// Largest power of two dividing x (x != 0); 0 for x == 0.
std::int64_t pow2_part(std::int64_t x);

}  // namespace layoutx::walk
