#include "flat_layout_build.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "layoutx/notation.hpp"
#include "layoutx/wide_integer.hpp"

namespace layoutx::device_detail {

namespace {

// Sums stay below 2^62, so that one more addition of a value below 2^62 never wraps.
constexpr UInt128 kReachLimit = static_cast<UInt128>(1) << 62;

struct Leaf {
  std::int64_t extent, stride;
};

void collect_leaves(const IntTuple& shape, const IntTuple& stride, std::vector<Leaf>& out) {
  if (shape.is_leaf()) {
    out.push_back(Leaf{shape.value().value, stride.value().value});
    return;
  }
  for (int i = 0; i < shape.rank(); ++i) collect_leaves(shape[i], stride[i], out);
}

void add_group(FlatLayout& f, const Layout& l, const std::string& name) {
  std::vector<Leaf> leaves;
  collect_leaves(l.shape, l.stride, leaves);
  if (leaves.empty()) leaves.push_back(Leaf{1, 0});
  std::int64_t size = 1;
  for (std::size_t k = 0; k < leaves.size(); ++k) {
    const Leaf& leaf = leaves[k];
    const bool last = k + 1 == leaves.size();
    if (leaf.extent < 0 || (leaf.extent == 0 && !last))
      throw Error(fmt::format("the device evaluator needs positive extents; {} has the extent {}", name, leaf.extent));
    // An extent-1 leaf only matters as the last of its mode, which takes the
    // part of an index beyond the mode.
    if (leaf.extent == 1 && !last) continue;
    if (f.leaves == kMaxLeaves)
      throw Error(
          fmt::format("{} has more than {} modes; the device evaluator takes at most that many", name, kMaxLeaves));
    f.extent[f.leaves] = make_divisor(std::max<std::int64_t>(leaf.extent, 1));
    f.extent[f.leaves].d = leaf.extent;
    f.stride[f.leaves] = leaf.stride;
    ++f.leaves;
    if (__builtin_mul_overflow(size, leaf.extent, &size))
      throw Error(fmt::format("the size of {} overflows 64 bits", name));
  }
  if (f.groups == kMaxGroups)
    throw Error(fmt::format("{} has more than {} top-level modes; the device evaluator takes at most that many", name,
                            kMaxGroups));
  f.group_end[f.groups] = f.leaves;
  f.group_size[f.groups] = make_divisor(std::max<std::int64_t>(size, 1));
  f.group_size[f.groups].d = size;
  ++f.groups;
}

void add_stages(FlatLayout& f, const AnyLayout& l) {
  const auto* c = std::get_if<ComposedLayout>(&l);
  if (!c) return;
  std::vector<SwizzleStage> stages(c->nested.rbegin(), c->nested.rend());
  stages.push_back(SwizzleStage{c->swizzle, c->offset});
  if (stages.size() > static_cast<std::size_t>(kMaxStages))
    throw Error(fmt::format("{} has more than {} swizzle stages; the device evaluator takes at most that many",
                            to_text(*c), kMaxStages));
  for (const SwizzleStage& s : stages)
    f.stage[f.stages++] = Stage{s.offset.value, s.swizzle.yyy_mask(), s.swizzle.shift};
}

std::int64_t checked_reach(UInt128 r) {
  if (r >= kReachLimit)
    throw Error("the offsets reach beyond 2^62; the device evaluator computes in 64 bits and refuses them");
  return static_cast<std::int64_t>(r);
}

// |x| <= bound through leaves [begin, end): each leaf but the last takes a
// digit below its extent (and at most bound), the last what is left.
UInt128 leaves_reach(const FlatLayout& l, int begin, int end, std::uint64_t bound) {
  UInt128 sum = 0, below = 1;
  for (int k = begin; k < end; ++k) {
    const auto d = static_cast<UInt128>(l.stride[k] < 0 ? -static_cast<Int128>(l.stride[k]) : l.stride[k]);
    const std::uint64_t extent = static_cast<std::uint64_t>(l.extent[k].d);
    std::uint64_t digit;
    if (k + 1 < end) {
      digit = std::min<std::uint64_t>(extent > 0 ? extent - 1 : 0, bound);
      below = std::min<UInt128>(below * std::max<std::uint64_t>(extent, 1), kReachLimit);
    } else {
      digit = static_cast<std::uint64_t>(bound / below);
    }
    sum += d * digit;
    if (sum >= kReachLimit) return kReachLimit;
  }
  return sum;
}

}  // namespace

Divisor make_divisor(std::int64_t d) {
  Divisor v;
  v.d = d;
  int l = 0;
  while ((std::uint64_t{1} << l) < static_cast<std::uint64_t>(d)) ++l;
  const auto gap = (std::uint64_t{1} << l) - static_cast<std::uint64_t>(d);
  v.shift64 = static_cast<std::uint8_t>(l);
  v.pow2 = gap == 0;
  v.magic64 = static_cast<std::uint64_t>((static_cast<UInt128>(gap) << 64) / static_cast<std::uint64_t>(d)) + 1;
  if (d < (std::int64_t{1} << 32)) {
    v.shift32 = static_cast<std::uint8_t>(l);
    v.magic32 = static_cast<std::uint32_t>((gap << 32) / static_cast<std::uint64_t>(d) + 1);
  } else {
    // Every 32-bit index is below d: the quotient is 0.
    v.shift32 = 32;
    v.magic32 = 0;
  }
  return v;
}

FlatLayout flat_of(const AnyLayout& l) {
  FlatLayout f;
  add_group(f, inner_layout(l), to_text(l));
  add_stages(f, l);
  return f;
}

FlatLayout flat_by_mode(const AnyLayout& l) {
  FlatLayout f;
  const Layout& inner = inner_layout(l);
  const std::string name = to_text(l);
  if (inner.shape.is_leaf()) {
    add_group(f, inner, name);
  } else {
    for (int m = 0; m < inner.shape.rank(); ++m) add_group(f, get(inner, m), name);
  }
  add_stages(f, l);
  return f;
}

FlatLayout flat_of_tile(const std::vector<Layout>& tile) {
  FlatLayout f;
  for (const Layout& l : tile) add_group(f, l, to_text(l));
  return f;
}

std::int64_t reach_in_group(const FlatLayout& l, int g, std::int64_t x_bound) {
  const int begin = g > 0 ? l.group_end[g - 1] : 0;
  return checked_reach(leaves_reach(l, begin, l.group_end[g], static_cast<std::uint64_t>(x_bound)));
}

std::int64_t reach_of_stages(const FlatLayout& l, std::int64_t bound) {
  UInt128 b = static_cast<std::uint64_t>(bound);
  for (int s = 0; s < l.stages; ++s) {
    const std::int64_t off = l.stage[s].offset;
    b += static_cast<std::uint64_t>(off < 0 ? -static_cast<Int128>(off) : off);
    // The XOR moves YYY bits onto ZZZ: |x ^ moved| <= |x| + the ZZZ mask.
    const std::int64_t y = l.stage[s].yyy_mask;
    const int shift = l.stage[s].shift;
    b += static_cast<std::uint64_t>(shift >= 0 ? y >> shift : y << -shift);
    checked_reach(b);
  }
  return checked_reach(b);
}

std::int64_t reach(const FlatLayout& l, std::int64_t x_bound) {
  return reach_of_stages(l, checked_reach(leaves_reach(l, 0, l.leaves, static_cast<std::uint64_t>(x_bound))));
}

bool fits_int32(const FlatLayout& l, std::uint64_t n) {
  if (n == 0) return true;
  try {
    // Every partial sum and swizzle step is bounded by the reach (int32 holds up to 2^31 - 1).
    return reach(l, static_cast<std::int64_t>(n - 1)) < (std::int64_t{1} << 31);
  } catch (const Error&) {
    return false;
  }
}

}  // namespace layoutx::device_detail
