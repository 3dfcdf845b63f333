#include "offset_walk.hpp"

#include <algorithm>

namespace layoutx::render_detail {

namespace {

bool add_within(std::int64_t& acc, std::int64_t v) { return !__builtin_add_overflow(acc, v, &acc); }

// |v|, false for the one int64 whose magnitude does not fit.
bool magnitude(std::int64_t v, std::int64_t& out) {
  if (v == INT64_MIN) return false;
  out = v < 0 ? -v : v;
  return true;
}

}  // namespace

std::vector<Mode> leaf_modes(const Layout& l) {
  const std::vector<Int> shape = leaves(l.shape), stride = leaves(l.stride);
  std::vector<Mode> out;
  out.reserve(shape.size());
  for (std::size_t i = 0; i < shape.size(); ++i) out.push_back(Mode{shape[i].value, stride[i].value});
  return out;
}

SwizzleChain SwizzleChain::of(const AnyLayout& l) {
  SwizzleChain chain;
  const auto* c = std::get_if<ComposedLayout>(&l);
  if (!c) return chain;
  // The innermost stage acts first: the nested stages are listed outermost first.
  for (auto it = c->nested.rbegin(); it != c->nested.rend(); ++it)
    chain.steps_.push_back(
        Step{it->offset.value, it->swizzle.yyy_mask(), it->swizzle.zzz_mask(), it->swizzle.shift});
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
    if (m.extent <= 0) return false;
    std::int64_t d = 0, span = 0;
    if (!magnitude(m.stride, d) || __builtin_mul_overflow(m.extent - 1, d, &span) || !add_within(reach, span))
      return false;
    largest_stride = std::max(largest_stride, d);
  }
  // The inner loop steps once past the end of a mode before the carry takes it back.
  if (!add_within(reach, largest_stride)) return false;
  return chain.bound(reach);
}

std::vector<Mode> coalesce_modes(const std::vector<Mode>& modes) {
  std::vector<Mode> out;
  for (const Mode& m : modes) {
    if (m.extent == 1) continue;
    if (!out.empty() && m.stride == out.back().extent * out.back().stride) {
      out.back().extent *= m.extent;
      continue;
    }
    out.push_back(m);
  }
  if (out.empty()) out.push_back(Mode{1, 0});
  return out;
}

Odometer::Odometer(std::vector<Mode> modes) : mode_(std::move(modes)), digit_(mode_.size(), 0) {
  wrap_.reserve(mode_.size());
  for (const Mode& m : mode_) wrap_.push_back((m.extent - 1) * m.stride);
}

}  // namespace layoutx::render_detail
