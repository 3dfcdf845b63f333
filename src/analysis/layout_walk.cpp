#include "layout_walk.hpp"

#include <fmt/format.h>

#include <cstdlib>

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
    if (!out.empty() && m.stride == checked_mul(out.back().shape, out.back().stride, "canonical_modes")) {
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

Odometer::Odometer(std::vector<Mode> modes, std::int64_t start_index) : modes_(std::move(modes)) {
  digit_.assign(modes_.size(), 0);
  std::int64_t rest = start_index;
  for (std::size_t i = 0; i < modes_.size() && rest > 0; ++i) {
    const bool last = i + 1 == modes_.size();
    digit_[i] = last ? rest : rest % modes_[i].shape;
    rest = last ? 0 : rest / modes_[i].shape;
    offset_ += digit_[i] * modes_[i].stride;
  }
}

void Odometer::next() {
  for (std::size_t i = 0; i < modes_.size(); ++i) {
    offset_ += modes_[i].stride;
    if (++digit_[i] < modes_[i].shape || i + 1 == modes_.size()) return;
    offset_ -= modes_[i].stride * modes_[i].shape;
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
