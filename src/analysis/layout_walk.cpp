#include "layout_walk.hpp"

#include <fmt/format.h>

#include <cstdlib>

#include "layoutx/analysis.hpp"
#include "layoutx/notation.hpp"

namespace layoutx::walk {

std::vector<Mode> leaf_modes(const Layout& l) {
  const std::vector<Int> s = leaves(l.shape), d = leaves(l.stride);
  std::vector<Mode> out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) out.push_back(Mode{s[i].value, d[i].value});
  return out;
}

std::vector<Mode> canonical_modes(const Layout& l) {
  std::vector<Mode> out;
  for (const Mode& m : leaf_modes(l)) {
    if (m.shape == 1) continue;
    std::int64_t next_stride = 0;  // a stride past 64 bits continues no mode
    if (!out.empty() && !__builtin_mul_overflow(out.back().shape, out.back().stride, &next_stride) &&
        m.stride == next_stride) {
      out.back().shape = checked_mul(out.back().shape, m.shape, "canonical_modes");
      continue;
    }
    out.push_back(m);
  }
  return out;
}

void check_offsets_fit(const Layout& l) {
  std::int64_t reach = 0;
  for (const Mode& m : leaf_modes(l)) {
    if (m.shape <= 1) continue;
    if (m.stride == INT64_MIN) throw Error(fmt::format("overflow: the stride {} has no 64-bit magnitude", m.stride));
    const std::int64_t d = std::abs(m.stride);
    reach = checked_add(reach, checked_mul(m.shape - 1, d, "the offsets of a layout"), "the offsets of a layout");
  }
}

std::pair<std::int64_t, std::int64_t> offset_bounds(const Layout& l) {
  std::int64_t lo = 0, hi = 0;
  for (const Mode& m : leaf_modes(l)) {
    if (m.shape <= 1) continue;
    const std::int64_t reach = checked_mul(m.shape - 1, m.stride, "the offsets of a layout");
    if (reach < 0)
      lo = checked_add(lo, reach, "the offsets of a layout");
    else
      hi = checked_add(hi, reach, "the offsets of a layout");
  }
  return {lo, hi};
}

Odometer::Odometer(std::vector<Mode> modes, std::int64_t start_index) : modes_(std::move(modes)) {
  digit_.assign(modes_.size(), 0);
  std::int64_t rest = start_index;
  for (std::size_t i = 0; i < modes_.size() && rest > 0; ++i) {
    const bool last = i + 1 == modes_.size();
    digit_[i] = last ? rest : rest % modes_[i].shape;
    rest = last ? 0 : rest / modes_[i].shape;
    offset_ = static_cast<std::int64_t>(static_cast<std::uint64_t>(offset_) +
                                        static_cast<std::uint64_t>(digit_[i]) * static_cast<std::uint64_t>(modes_[i].stride));
  }
}

// The step past the last index may leave 64 bits (its offset is never read),
// so offsets are added modulo 2^64: every offset that is read fits and is exact.
void Odometer::next() {
  const auto wrap_add = [](std::int64_t a, std::uint64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + b);
  };
  for (std::size_t i = 0; i < modes_.size(); ++i) {
    const auto stride = static_cast<std::uint64_t>(modes_[i].stride);
    if (++digit_[i] < modes_[i].shape || i + 1 == modes_.size()) {
      offset_ = wrap_add(offset_, stride);
      return;
    }
    offset_ = wrap_add(offset_, 0 - stride * static_cast<std::uint64_t>(modes_[i].shape - 1));
    digit_[i] = 0;
  }
}

std::int64_t Finish::operator()(std::int64_t x) const {
  if (!composed_) return x;
  return apply_swizzles(*composed_, static_int(x)).value;
}

std::int64_t unfinish(const AnyLayout& l, std::int64_t y) {
  const auto* c = std::get_if<ComposedLayout>(&l);
  if (!c) return y;
  std::int64_t x = checked_sub(c->swizzle.apply(y), c->offset.value, "an inverse swizzle");
  for (const SwizzleStage& s : c->nested) x = checked_sub(s.swizzle.apply(x), s.offset.value, "an inverse swizzle");
  return x;
}

IntTuple mode_coordinate(const IntTuple& shape, std::int64_t index) {
  if (shape.is_leaf()) return static_int(index);
  std::vector<IntTuple> out;
  std::int64_t rest = index;
  for (int i = 0; i < shape.rank(); ++i) {
    const std::int64_t s = product(shape[i]).value;
    const bool last = i + 1 == shape.rank();
    out.emplace_back(static_int(last || s == 0 ? rest : rest % s));
    rest = last || s == 0 ? 0 : rest / s;
  }
  return IntTuple(std::move(out));
}

IntTuple natural_coordinate(const IntTuple& shape, std::int64_t index) {
  return transform_leaf(idx2crd(static_int(index), shape), [](Int c) { return static_int(c.value); });
}

std::int64_t pow2_part(std::int64_t x) {
  if (x == 0) return 0;
  const std::uint64_t u = x < 0 ? 0 - static_cast<std::uint64_t>(x) : static_cast<std::uint64_t>(x);
  return static_cast<std::int64_t>(u & (~u + 1));
}

}  // namespace layoutx::walk

namespace layoutx {

// Partial sums of an evaluation lie between the bounds; each stage of a
// composed layout adds its offset and its swizzle flips bits of its ZZZ
// mask, moving a value by at most the mask.
void require_offsets_fit(const AnyLayout& l) {
  auto [lo, hi] = walk::offset_bounds(inner_layout(l));
  const auto* c = std::get_if<ComposedLayout>(&l);
  if (!c) return;
  std::vector<SwizzleStage> stages{{c->swizzle, c->offset}};
  stages.insert(stages.end(), c->nested.begin(), c->nested.end());
  for (const SwizzleStage& s : stages) {
    lo = checked_sub(checked_add(lo, s.offset.value, "the offsets of a layout"), s.swizzle.zzz_mask(),
                     "the offsets of a layout");
    hi = checked_add(checked_add(hi, s.offset.value, "the offsets of a layout"), s.swizzle.zzz_mask(),
                     "the offsets of a layout");
  }
}

}  // namespace layoutx
