// The F2 view of a layout: the image of each index bit, checked to add
// without carries, then passed through the swizzle.
#include "layoutx/f2_bases.hpp"

#include <fmt/format.h>

#include <bit>

#include "layoutx/arithmetic_tuple.hpp"

namespace layoutx {

namespace {

int log2_of(std::int64_t v) { return std::countr_zero(static_cast<std::uint64_t>(v)); }

}  // namespace

std::vector<std::int64_t> f2_images(const Layout& l, const char* what) {
  if (is_coordinate_layout(l))
    throw Error(fmt::format("{} maps to coordinates (scaled-basis strides), not to offsets: no F2 view", what));
  const auto shapes = leaves(flatten(l.shape));
  const auto strides = leaves(flatten(l.stride));
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const auto s = shapes[i].value, d = strides[i].value;
    if (!std::has_single_bit(static_cast<std::uint64_t>(s)))
      throw Error(fmt::format("{} mode {} ({}:{}) is not linear over F2: its extent {} is not a power of two", what, i,
                              s, d, s));
    if (d < 0) throw Error(fmt::format("{} mode {} ({}:{}) is not linear over F2: a negative stride", what, i, s, d));
    for (std::int64_t k = 1; k < s; k *= 2) out.push_back(checked_mul(d, k, "a basis image"));
  }
  // Sums equal XORs only when no two images share a bit.
  std::int64_t seen = 0;
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (seen & out[k]) {
      std::size_t mode = 0;
      for (std::int64_t bits = 0, i = 0; i < static_cast<std::int64_t>(shapes.size()); ++i) {
        bits += log2_of(shapes[static_cast<std::size_t>(i)].value);
        if (static_cast<std::int64_t>(k) < bits) {
          mode = static_cast<std::size_t>(i);
          break;
        }
      }
      throw Error(
          fmt::format("{} mode {} ({}:{}) is not linear over F2: its offsets add with carries into those of "
                      "other modes (an image {} overlaps)",
                      what, mode, shapes[mode].value, strides[mode].value, out[k]));
    }
    seen |= out[k];
  }
  return out;
}

std::vector<std::int64_t> f2_through_swizzle(const AnyLayout& l, std::vector<std::int64_t> images) {
  if (const auto* c = std::get_if<ComposedLayout>(&l)) {
    if (c->offset.value != 0 || !c->nested.empty())
      throw Error("a composed layout with an offset is affine, not linear over F2");
    for (auto& i : images) i = c->swizzle.apply(i);
  }
  return images;
}

std::vector<std::int64_t> f2_bases(const AnyLayout& l) {
  return f2_through_swizzle(l, f2_images(inner_layout(l), "layout"));
}

}  // namespace layoutx
