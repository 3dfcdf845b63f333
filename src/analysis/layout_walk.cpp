#include "layoutx/layout_walk.hpp"

#include <fmt/format.h>

#include <algorithm>
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

std::vector<Mode> canonical_modes(const std::vector<Mode>& modes) {
  std::vector<Mode> out;
  for (const Mode& m : modes) {
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

std::vector<Mode> canonical_modes(const Layout& l) { return canonical_modes(leaf_modes(l)); }

std::vector<Mode> walked_modes(const std::vector<Mode>& modes) {
  std::vector<Mode> out = canonical_modes(modes);
  if (out.empty()) out.push_back(Mode{1, 0});
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

Odometer::Odometer(std::vector<Mode> modes, std::int64_t start_index)
    : mode_(std::move(modes)), digit_(mode_.size(), 0) {
  wrap_.reserve(mode_.size());
  for (const Mode& m : mode_)
    wrap_.push_back(static_cast<std::uint64_t>(m.shape - 1) * static_cast<std::uint64_t>(m.stride));
  std::int64_t rest = start_index;
  for (std::size_t i = 0; i < mode_.size() && rest > 0; ++i) {
    const bool last = i + 1 == mode_.size();
    digit_[i] = last ? rest : rest % mode_[i].shape;
    rest = last ? 0 : rest / mode_[i].shape;
    offset_ =
        wrapping_add(offset_, static_cast<std::uint64_t>(digit_[i]) * static_cast<std::uint64_t>(mode_[i].stride));
  }
}

namespace {

bool add_within(std::int64_t& acc, std::int64_t v) { return !__builtin_add_overflow(acc, v, &acc); }

// |v|, false for the one int64 whose magnitude does not fit.
bool magnitude(std::int64_t v, std::int64_t& out) {
  if (v == INT64_MIN) return false;
  out = v < 0 ? -v : v;
  return true;
}

// The largest |offset| of the modes; false when it could leave 64 bits.
bool reach_of(const std::vector<Mode>& modes, std::int64_t& reach) {
  reach = 0;
  for (const Mode& m : modes) {
    if (m.shape <= 0) return false;
    std::int64_t d = 0, span = 0;
    if (!magnitude(m.stride, d) || __builtin_mul_overflow(m.shape - 1, d, &span) || !add_within(reach, span))
      return false;
  }
  return true;
}

}  // namespace

SwizzleChain SwizzleChain::of(const AnyLayout& l) {
  SwizzleChain chain;
  const auto* c = std::get_if<ComposedLayout>(&l);
  if (!c) return chain;
  // The innermost stage acts first: the nested stages are listed outermost first.
  for (auto it = c->nested.rbegin(); it != c->nested.rend(); ++it)
    chain.steps_.push_back(Step{it->offset.value, it->swizzle.yyy_mask(), it->swizzle.zzz_mask(), it->swizzle.shift});
  chain.steps_.push_back(Step{c->offset.value, c->swizzle.yyy_mask(), c->swizzle.zzz_mask(), c->swizzle.shift});
  return chain;
}

bool SwizzleChain::bound(std::int64_t& b) const {
  constexpr std::int64_t kMaskLimit = std::int64_t{1} << 62;
  for (const Step& s : steps_) {
    std::int64_t off = 0;
    // The XOR moves bits of the YYY field into the ZZZ field: |x ^ moved| <= |x| + zzz_mask.
    if (!magnitude(s.offset, off) || !add_within(b, off)) return false;
    if (s.yyy_mask < 0 || s.zzz_mask < 0 || s.yyy_mask >= kMaskLimit || s.zzz_mask >= kMaskLimit) return false;
    if (!add_within(b, s.zzz_mask)) return false;
  }
  return true;
}

bool walk_is_exact(const std::vector<Mode>& modes, const SwizzleChain& chain) {
  std::int64_t reach = 0, largest_stride = 0;
  for (const Mode& m : modes) {
    if (m.shape <= 0) return false;
    std::int64_t d = 0, span = 0;
    if (!magnitude(m.stride, d) || __builtin_mul_overflow(m.shape - 1, d, &span) || !add_within(reach, span))
      return false;
    largest_stride = std::max(largest_stride, d);
  }
  // The inner loop steps once past the end of a mode before the carry takes it back.
  if (!add_within(reach, largest_stride)) return false;
  return chain.bound(reach);
}

// A scaled-basis offset is no integer to add: those stages keep the core's
// arithmetic (and its message).
Finish::Finish(const AnyLayout& l) : composed_(std::get_if<ComposedLayout>(&l)), chain_(SwizzleChain::of(l)) {
  if (!composed_) return;
  bool basis = composed_->offset.is_scaled_basis();
  for (const SwizzleStage& s : composed_->nested) basis = basis || s.offset.is_scaled_basis();
  std::int64_t reach = 0;
  plain_ = !basis && reach_of(leaf_modes(composed_->layout), reach) && chain_.bound(reach);
}

std::int64_t Finish::checked(std::int64_t x) const { return apply_swizzles(*composed_, static_int(x)).value; }
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
