// The offsets of a layout index after index without evaluating each index:
// an odometer over the flattened modes keeps the offset incrementally (one add
// per index, a carry now and then), and the swizzle stages of a composed layout
// are applied to it with plain 64-bit operations. The walk is only used where
// it provably equals the engine's checked evaluate(); see walk_is_exact.
#pragma once

#include <cstdint>
#include <vector>

#include "layoutx/swizzle_algebra.hpp"

namespace layoutx::render_detail {

struct Mode {
  std::int64_t extent;
  std::int64_t stride;
};

// The leaves of the layout, mode 0 first (CuTe's column-major index order).
std::vector<Mode> leaf_modes(const Layout& l);

// The offset -> offset map of a composed layout's swizzle stages (offset, then
// XOR of the YYY bits onto ZZZ), innermost first; empty for a plain layout.
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
  // A bound on |result| when |x| <= bound; false when it could leave 64 bits.
  bool bound(std::int64_t& bound) const;

 private:
  struct Step {
    std::int64_t offset, yyy_mask, zzz_mask;
    int shift;
  };
  std::vector<Step> steps_;
};

// Whether walking `modes` and mapping through `chain` gives exactly what the
// engine's evaluate gives for every index: every extent positive (the odometer
// order is CuTe's idx2crd order only then) and no sum, including the one past
// the last index of a mode, able to leave 64 bits.
bool walk_is_exact(const std::vector<Mode>& modes, const SwizzleChain& chain);

// Drop extent-1 modes and merge neighbours where the next stride continues the
// previous mode; the 1-D index -> offset map is unchanged. Only after walk_is_exact.
std::vector<Mode> coalesce_modes(const std::vector<Mode>& modes);

// Digits over the modes, least significant first, and the offset they reach.
class Odometer {
 public:
  explicit Odometer(std::vector<Mode> modes);

  const std::vector<std::int64_t>& digits() const { return digit_; }
  std::int64_t offset() const { return offset_; }
  std::size_t modes() const { return mode_.size(); }

  // Advance mode `first` by one, carrying upward; returns the most significant
  // mode that changed, or modes() once every digit has wrapped to 0.
  std::size_t step(std::size_t first) {
    for (std::size_t i = first; i < mode_.size(); ++i) {
      if (++digit_[i] < mode_[i].extent) {
        offset_ += mode_[i].stride;
        return i;
      }
      digit_[i] = 0;
      offset_ -= wrap_[i];
    }
    return mode_.size();
  }

 private:
  std::vector<Mode> mode_;
  std::vector<std::int64_t> wrap_;  // (extent - 1) * stride: what a carry takes back
  std::vector<std::int64_t> digit_;
  std::int64_t offset_ = 0;
};

}  // namespace layoutx::render_detail
