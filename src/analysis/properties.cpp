// Properties of a layout's offset function. The image of a plain layout is
// found from its modes sorted by stride: a mode whose stride reaches past
// everything the smaller strides cover adds disjoint copies (the count just
// multiplies); only modes that overlap need the image spelled out, as a list
// of intervals. Swizzled layouts: a swizzle is a bijection, so the counts are
// the inner layout's, and the extremes are found by walking the offsets.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "layoutx/layout_walk.hpp"
#include "layoutx/analysis.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/parallel.hpp"
#include "layoutx/wide_integer.hpp"

namespace layoutx {

namespace {

using walk::Mode;

// The mirrored image (every stride made positive) may reach past 64 bits
// where the real offsets do not, so intervals are 128-bit.
using Wide = Int128;

struct Interval {
  Wide lo, hi;  // [lo, hi)
};

struct Image {
  std::int64_t min = 0, max = 0;
  std::optional<std::int64_t> count;
};

void merge_sorted(std::vector<Interval>& v) {
  std::size_t out = 0;
  for (std::size_t i = 1; i < v.size(); ++i) {
    if (v[i].lo <= v[out].hi)
      v[out].hi = std::max(v[out].hi, v[i].hi);
    else
      v[++out] = v[i];
  }
  v.resize(v.empty() ? 0 : out + 1);
}

// The s copies of `image` shifted by 0, d, ..., (s-1)d. `span` is the end of
// the image: when d >= span the copies are already in order.
bool add_mode(std::vector<Interval>& image, Mode m, Wide span, std::size_t max_intervals) {
  if (image.size() > max_intervals / static_cast<std::size_t>(m.shape)) return false;
  std::vector<Interval> next;
  next.reserve(image.size() * m.shape);
  for (std::int64_t c = 0; c < m.shape; ++c)
    for (const Interval& iv : image) next.push_back(Interval{iv.lo + Wide{c} * m.stride, iv.hi + Wide{c} * m.stride});
  if (m.stride < span) std::sort(next.begin(), next.end(), [](Interval x, Interval y) { return x.lo < y.lo; });
  merge_sorted(next);
  image = std::move(next);
  return true;
}

// @pre size(l) > 0; offset_bounds(l) fit
Image image_of(const Layout& l, std::size_t max_intervals) {
  const auto [low, high] = walk::offset_bounds(l);
  std::vector<Mode> live;  // strides made positive; a negative stride mirrors its mode
  for (Mode m : walk::leaf_modes(l)) {
    if (m.shape == 1 || m.stride == 0) continue;
    if (m.stride == INT64_MIN) throw Error(fmt::format("overflow: the stride {} has no 64-bit magnitude", m.stride));
    m.stride = std::abs(m.stride);
    live.push_back(m);
  }
  Image image{low, high, std::nullopt};
  // Counting is unchanged when every stride is divided by their gcd.
  std::int64_t g = 0;
  for (const Mode& m : live) g = std::gcd(g, m.stride);
  for (Mode& m : live) m.stride /= g;
  std::stable_sort(live.begin(), live.end(), [](Mode x, Mode y) { return x.stride < y.stride; });

  std::size_t last_overlap = 0;  // one past the last mode that overlaps the ones before it
  Wide span = 1;
  for (std::size_t k = 0; k < live.size(); ++k) {
    if (live[k].stride < span) last_overlap = k + 1;
    span += Wide{live[k].shape - 1} * live[k].stride;
  }

  std::vector<Interval> spelled{{0, 1}};
  span = 1;
  for (std::size_t k = 0; k < last_overlap; ++k) {
    if (!add_mode(spelled, live[k], span, max_intervals)) return image;
    span += Wide{live[k].shape - 1} * live[k].stride;
  }
  std::int64_t count = 0;  // at most the size: the image has no more offsets than indices
  for (const Interval& iv : spelled) count += static_cast<std::int64_t>(iv.hi - iv.lo);
  for (std::size_t k = last_overlap; k < live.size(); ++k) count *= live[k].shape;
  image.count = count;
  return image;
}

std::int64_t broadcast_of(const Layout& l) {
  std::int64_t b = 1;
  for (const Mode& m : walk::leaf_modes(l))
    if (m.stride == 0) b = checked_mul(b, m.shape, "the broadcast factor");
  return b;
}

// Walk a swizzled layout's offsets for their extremes, on every core.
std::optional<std::pair<std::int64_t, std::int64_t>> scanned_extremes(const AnyLayout& l, std::int64_t max_scan) {
  const Layout& inner = inner_layout(l);
  const std::int64_t n = size(inner).value;
  if (n > max_scan) return std::nullopt;
  const std::vector<Mode> modes = walk::leaf_modes(inner);
  const walk::Finish finish(l);
  const int parts = parts_for(static_cast<std::uint64_t>(n));
  std::vector<std::pair<std::int64_t, std::int64_t>> part(static_cast<std::size_t>(parts));
  for_each_part(static_cast<std::uint64_t>(n), parts, [&](int p, std::uint64_t lo, std::uint64_t hi) {
    walk::Odometer od(modes, static_cast<std::int64_t>(lo));
    std::int64_t min = finish(od.offset()), max = min;
    for (std::uint64_t i = lo + 1; i < hi; ++i) {
      od.step();
      const std::int64_t y = finish(od.offset());
      min = std::min(min, y);
      max = std::max(max, y);
    }
    part[static_cast<std::size_t>(p)] = {min, max};
  });
  std::pair<std::int64_t, std::int64_t> all = part.front();
  for (const auto& [min, max] : part) all = {std::min(all.first, min), std::max(all.second, max)};
  return all;
}

std::optional<std::int64_t> cute_vector(const AnyLayout& l) {
  Diagnostics quiet;  // CuTe's max_common_vector composes: not the user's warnings
  try {
    const Layout identity = make_layout(inner_layout(l).shape);
    if (const auto* c = std::get_if<ComposedLayout>(&l)) {
      if (!c->nested.empty()) return std::nullopt;
      return max_common_vector(*c, identity, quiet).value;
    }
    return max_common_vector(std::get<Layout>(l), identity, quiet).value;
  } catch (const Error&) {
    return std::nullopt;
  }
}

void derive(Properties& p) {
  if (!p.image_size) return;
  p.injective = *p.image_size == p.size;
  const bool fills = p.cosize && p.min_offset && p.max_offset && *p.min_offset == 0 && *p.max_offset + 1 == *p.cosize;
  if (!p.min_offset) {
    p.bijective = p.injective == false ? std::optional<bool>(false) : std::nullopt;
    return;
  }
  p.surjective = fills && *p.image_size == *p.cosize;
  p.bijective = *p.injective && *p.surjective;
  p.compact = *p.surjective && *p.image_size * p.broadcast == p.size;
}

}  // namespace

Properties properties(const AnyLayout& l, const PropertyLimits& limits) {
  const Layout& inner = inner_layout(l);
  walk::offset_bounds(inner);  // throws unless every offset fits in 64 bits
  Properties p;
  p.size = size(inner).value;
  try {
    p.cosize = cosize(l).value;
  } catch (const Error&) {
    p.cosize.reset();  // 1 + the sum of (s-1)*|d| past 64 bits: no offset range [0, cosize) to fill
  }
  p.vector = cute_vector(l);
  if (p.size <= 0) {  // an empty domain (CuTe allows a zero or negative extent)
    p.image_size = 0;
    p.injective = true;
    p.surjective = p.bijective = p.compact = p.cosize && *p.cosize <= 0;
    return p;
  }
  // Only now: beside a size-0 mode the other extents may multiply past 64 bits.
  p.broadcast = broadcast_of(inner);
  const Image image = image_of(inner, limits.max_intervals);
  p.image_size = image.count;
  if (!image.count)
    p.unknown_reason =
        fmt::format("its overlapping strides need more than {} intervals to describe the image", limits.max_intervals);
  if (std::holds_alternative<Layout>(l)) {
    p.min_offset = image.min;
    p.max_offset = image.max;
  } else if (const auto extremes = scanned_extremes(l, limits.max_scan)) {
    p.min_offset = extremes->first;
    p.max_offset = extremes->second;
  } else {
    p.unknown_reason = fmt::format("a swizzled layout of more than {} elements is not walked", limits.max_scan);
  }
  derive(p);
  return p;
}

ThreadValueProperties thread_value_properties(const AnyLayout& l) {
  const Layout& inner = inner_layout(l);
  if (rank(inner) != 2)
    throw naming_values([&](Notation shown) {
      return fmt::format("a thread-value layout has rank 2 (mode 0 the thread, mode 1 the value), {} has rank {}",
                         to_text(inner, shown), rank(inner));
    });
  const Layout threads = get(inner, 0), values = get(inner, 1);
  ThreadValueProperties tv;
  tv.threads = size(threads).value;
  tv.values = size(values).value;

  const std::vector<Mode> v = walk::canonical_modes(values);
  const bool unit_front = !v.empty() && v.front().stride == 1;
  tv.run = v.empty() ? 1 : unit_front ? v.front().shape : 1;
  // A vector of p elements needs p | run (no vector straddles two runs) and
  // every run to start at a multiple of p: p divides every other stride.
  std::int64_t align = walk::pow2_part(tv.run);
  // Stride-0 (broadcast) modes repeat offsets and move no run.
  for (std::size_t i = unit_front ? 1 : 0; i < v.size(); ++i)
    if (v[i].stride != 0) align = std::min(align, walk::pow2_part(v[i].stride));
  for (const Mode& m : walk::canonical_modes(threads))
    if (m.stride != 0) align = std::min(align, walk::pow2_part(m.stride));

  std::optional<std::int64_t> cute;
  try {
    Diagnostics quiet;  // CuTe's max_common_vector composes: not the user's warnings
    cute = max_common_vector(values, make_layout(values.shape), quiet).value;
  } catch (const Error&) {
    cute.reset();  // CuTe refuses this value mode: it has no answer to give
  }
  // A swizzle keeps aligned blocks of 2^M together (CuTe's rule for swizzled vectors).
  if (const auto* c = std::get_if<ComposedLayout>(&l)) {
    if (!c->nested.empty()) cute.reset();  // CuTe takes one swizzle only
    std::vector<SwizzleStage> stages{{c->swizzle, c->offset}};
    stages.insert(stages.end(), c->nested.begin(), c->nested.end());
    for (const SwizzleStage& s : stages) {
      const std::int64_t block = std::int64_t{1} << s.swizzle.base;
      align = std::min(align, block);
      if (s.offset.value != 0) align = std::min(align, walk::pow2_part(s.offset.value));
      if (cute) cute = std::min(*cute, block);
    }
  }
  tv.vector = cute;
  tv.aligned_vector = std::max<std::int64_t>(align, 1);
  tv.accesses = tv.values / tv.aligned_vector;
  return tv;
}

}  // namespace layoutx
