// The offsets render_offsets prints, as numbers: the same walk over the
// modes (or the engine's evaluate where the walk is not exact), handed on in
// blocks instead of formatted.
#include "layoutx/render.hpp"

#include <fmt/format.h>

#include "layoutx/layout_walk.hpp"

namespace layoutx {

using walk::Odometer;
using walk::SwizzleChain;

void stream_offset_values(const AnyLayout& any, std::int64_t lo, std::int64_t hi, const OffsetValueSink& sink) {
  constexpr std::size_t kBlock = std::size_t{1} << 16;
  const Layout& l = inner_layout(any);
  if (lo < 0 || hi > size(l).value)
    throw Error(fmt::format("the indices [{}, {}) are outside the domain of size {}", lo, hi, size(l).value));
  if (lo >= hi) return;
  std::vector<std::int64_t> block;
  block.reserve(kBlock);
  auto put = [&](std::int64_t v) {
    block.push_back(v);
    if (block.size() == kBlock) {
      sink(block.data(), block.size());
      block.clear();
    }
  };

  const auto modes = walk::leaf_modes(l);
  const SwizzleChain chain = SwizzleChain::of(any);
  if (walk::walk_is_exact(modes, chain)) {
    Odometer od(walk::walked_modes(modes), lo);
    for (std::int64_t i = lo; i < hi; ++i, od.step(0)) put(chain.empty() ? od.offset() : chain(od.offset()));
  } else {
    for (std::int64_t i = lo; i < hi; ++i) put(evaluate(any, IntTuple(static_int(i))).value);
  }
  if (!block.empty()) sink(block.data(), block.size());
}

}  // namespace layoutx
