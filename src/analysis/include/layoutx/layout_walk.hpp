// The one walk over a layout's offsets, shared by the analyses and the
// renderers: the leaf modes as plain integers, an odometer that keeps the
// offset in CuTe's column-major index order with one add per index (a carry
// now and then), and a composed layout's swizzle stages applied to an offset
// with plain 64-bit operations where they provably equal the core's checked
// evaluate().
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

// The leaves of the layout, mode 0 first (CuTe's column-major index order).
std::vector<Mode> leaf_modes(const Layout& l);

// Size-1 modes dropped, s0:d0 ++ s1:s0*d0 merged by value; the 1-D index ->
// offset map is unchanged. Two layouts agree on [0, size) exactly when their
// lists are equal (CuTe's coalesce merges only static integers, so it is not
// canonical with dynamic ones). Empty when every mode has size 1.
std::vector<Mode> canonical_modes(const std::vector<Mode>& modes);
std::vector<Mode> canonical_modes(const Layout& l);

// canonical_modes, or the single mode 1:0 when none is left: the fewest modes
// an Odometer can walk the same offsets with.
std::vector<Mode> walked_modes(const std::vector<Mode>& modes);

// Throws Error when some offset of l could overflow 64 bits, so that walks and
// sums over l's offsets need no further checks.
void check_offsets_fit(const Layout& l);

// The smallest and largest offsets of l (every offset lies between them and
// they are reached); throws Error when either leaves 64 bits. Unlike
// check_offsets_fit, the distance between them may not fit.
std::pair<std::int64_t, std::int64_t> offset_bounds(const Layout& l);

// Digits over the modes, least significant first, and the offset they reach.
// Every offset read before the walk ends is exact when the layout's offsets fit
// in 64 bits; the sums past the last index are kept modulo 2^64 and never read.
class Odometer {
 public:
  // Starts at the 1-D index start_index (0 <= start_index < the modes' size).
  explicit Odometer(std::vector<Mode> modes, std::int64_t start_index = 0);

  std::int64_t offset() const { return offset_; }
  const std::vector<std::int64_t>& digits() const { return digit_; }
  std::size_t modes() const { return mode_.size(); }

  // Advance mode `first` by one, carrying upward; returns the most significant
  // mode that changed, or modes() once the last mode has passed its extent
  // (the walk is over: its last digit keeps counting, the others wrap to 0).
  std::size_t step(std::size_t first = 0) {
    for (std::size_t i = first; i < mode_.size(); ++i) {
      const bool within = ++digit_[i] < mode_[i].shape;
      if (within || i + 1 == mode_.size()) {
        offset_ = wrapping_add(offset_, static_cast<std::uint64_t>(mode_[i].stride));
        return within ? i : mode_.size();
      }
      digit_[i] = 0;
      offset_ = wrapping_add(offset_, 0 - wrap_[i]);
    }
    return mode_.size();
  }

 private:
  static std::int64_t wrapping_add(std::int64_t a, std::uint64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + b);
  }
  std::vector<Mode> mode_;
  std::vector<std::uint64_t> wrap_;  // (shape - 1) * stride: what a carry takes back
  std::vector<std::int64_t> digit_;
  std::int64_t offset_ = 0;
};

// The offset -> offset map of a composed layout's swizzle stages (offset, then
// XOR of the YYY bits onto ZZZ), innermost first, in plain 64-bit operations;
// empty for a plain layout.
class SwizzleChain {
 public:
  static SwizzleChain of(const AnyLayout& l);

  bool empty() const { return steps_.empty(); }
  std::int64_t operator()(std::int64_t x) const {
    for (const Step& s : steps_) {
      x += s.offset;
      const std::int64_t y = x & s.yyy_mask;
      x ^= s.shift >= 0 ? (y >> s.shift) : (y << -s.shift);
    }
    return x;
  }
  // A bound on |result| when |x| <= bound; false when some step could leave 64 bits.
  bool bound(std::int64_t& bound) const;

 private:
  struct Step {
    std::int64_t offset, yyy_mask, zzz_mask;
    int shift;
  };
  std::vector<Step> steps_;
};

// Whether walking `modes` with an Odometer and mapping through `chain` gives
// exactly what the core's evaluate gives for every index: every extent
// positive (the odometer order is CuTe's idx2crd order only then) and no sum,
// including one stride past the last index of a mode, able to leave 64 bits.
bool walk_is_exact(const std::vector<Mode>& modes, const SwizzleChain& chain);

// The offset a layout gives for an offset of its inner layout (through each
// offset and swizzle stage); the identity for a plain layout. The swizzle
// chain's plain operations where no step can leave 64 bits for any offset of
// the inner layout, else the core's checked arithmetic (an Error, as evaluate).
class Finish {
 public:
  explicit Finish(const AnyLayout& l);
  std::int64_t operator()(std::int64_t x) const {
    if (plain_) return chain_(x);
    return checked(x);
  }

 private:
  std::int64_t checked(std::int64_t x) const;
  const ComposedLayout* composed_;
  SwizzleChain chain_;
  bool plain_ = true;
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
