// Global-memory coalescing of a thread -> offset (or thread-value) layout:
// for each warp-wide memory instruction, the 32-byte sectors and 128-byte
// lines its threads touch, against the fewest that hold the bytes it moves.
// Offsets are in elements from a base address aligned to the widest vector.
#include <fmt/format.h>

#include <algorithm>

#include "layoutx/layout_walk.hpp"
#include "layoutx/analysis.hpp"
#include "layoutx/notation.hpp"

namespace layoutx {

namespace {

struct Range {
  std::int64_t lo, hi;  // [lo, hi)
};

// Offsets of a layout's indices in column-major order.
std::vector<std::int64_t> offsets_of(const Layout& l) {
  const std::int64_t n = std::max<std::int64_t>(size(l).value, 0);  // a negative extent: no indices
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(n));
  walk::Odometer od(walk::leaf_modes(l), 0);
  for (std::int64_t i = 0; i < n; ++i, od.step()) out.push_back(od.offset());
  return out;
}

struct Split {
  std::vector<std::int64_t> thread, value;  // inner offsets of each mode
  walk::Finish finish;
  std::int64_t at(std::int64_t t, std::int64_t v) const { return finish(thread[t] + value[v]); }
};

Split split(const AnyLayout& l, bool threads_only) {
  const Layout& inner = inner_layout(l);
  const int r = rank(inner);
  if (threads_only || r == 1) return Split{offsets_of(inner), {0}, walk::Finish(l)};
  const Layout values = r == 2 ? get(inner, 1) : take(inner, 1, r);
  return Split{offsets_of(get(inner, 0)), offsets_of(values), walk::Finish(l)};
}

// Whether every thread can access its values w at a time: each group of w
// consecutive values contiguous in memory and starting at a multiple of w.
std::optional<std::string> vector_problem(const Split& s, std::int64_t w) {
  const auto values = static_cast<std::int64_t>(s.value.size());
  if (values % w != 0) return fmt::format("{} values per thread are not a multiple of {}", values, w);
  for (std::int64_t t = 0; t < static_cast<std::int64_t>(s.thread.size()); ++t)
    for (std::int64_t v = 0; v < values; v += w) {
      const std::int64_t start = s.at(t, v);
      if (start % w != 0)
        return fmt::format("thread {} value {} is at offset {}, not a multiple of {}", t, v, start, w);
      for (std::int64_t j = 1; j < w; ++j)
        if (s.at(t, v + j) != start + j)
          return fmt::format("thread {} values {}..{} are not contiguous (value {} is at offset {}, not {})", t, v,
                             v + w - 1, v + j, s.at(t, v + j), start + j);
    }
  return std::nullopt;
}

std::int64_t widest_vector(const Split& s, const CoalescingOptions& o) {
  if (!is_power_of_two(o.element_bytes)) return 1;
  std::int64_t w = 1;
  while (w * 2 * o.element_bytes <= o.max_vector_bytes && !vector_problem(s, w * 2)) w *= 2;
  return w;
}

// Size of the union of the ranges, and of the units of `unit` bytes they touch.
std::int64_t union_size(std::vector<Range>& r) {
  std::sort(r.begin(), r.end(), [](Range a, Range b) { return a.lo < b.lo; });
  std::int64_t total = 0, end = INT64_MIN;
  for (const Range& x : r) {
    const std::int64_t lo = std::max(x.lo, end);
    if (x.hi > lo) total += x.hi - lo;
    end = std::max(end, x.hi);
  }
  return total;
}

std::int64_t units_touched(const std::vector<Range>& bytes, std::int64_t unit) {
  std::vector<Range> units;
  units.reserve(bytes.size());
  for (const Range& b : bytes) units.push_back(Range{floor_div(b.lo, unit), floor_div(b.hi - 1, unit) + 1});
  return union_size(units);
}

}  // namespace

WarpSectors warp_sectors(std::span<const std::int64_t> byte_addresses, std::int64_t bytes, const CoalescingOptions& o) {
  std::vector<Range> ranges;
  ranges.reserve(byte_addresses.size());
  for (const std::int64_t lo : byte_addresses) ranges.push_back(Range{lo, checked_add(lo, bytes, "a byte address")});
  WarpSectors w;
  w.sectors = units_touched(ranges, o.sector_bytes);
  w.lines = units_touched(ranges, o.line_bytes);
  w.unique_bytes = union_size(ranges);
  w.min_sectors = (w.unique_bytes + o.sector_bytes - 1) / o.sector_bytes;
  w.min_lines = (w.unique_bytes + o.line_bytes - 1) / o.line_bytes;
  return w;
}

namespace {

AccessCount count_accesses(const Split& s, std::int64_t w, const CoalescingOptions& o) {
  AccessCount c;
  const auto threads = static_cast<std::int64_t>(s.thread.size());
  const auto values = static_cast<std::int64_t>(s.value.size());
  const std::int64_t bytes = checked_mul(w, o.element_bytes, "the bytes of one access");
  std::vector<std::int64_t> addresses;
  for (std::int64_t warp = 0; warp * o.warp < threads; ++warp) {
    const std::int64_t first = warp * o.warp, last = std::min(threads, first + o.warp);
    for (std::int64_t k = 0; k < values / w; ++k) {
      addresses.clear();
      for (std::int64_t t = first; t < last; ++t)
        addresses.push_back(checked_mul(s.at(t, k * w), o.element_bytes, "a byte address"));
      const WarpSectors one = warp_sectors(addresses, bytes, o);
      ++c.instructions;
      c.sectors += one.sectors;
      c.lines += one.lines;
      c.min_sectors += one.min_sectors;
      c.min_lines += one.min_lines;
      if (one.sectors > c.worst_sectors) {
        c.worst_sectors = one.sectors;
        c.worst_warp = warp;
        c.worst_access = k;
      }
    }
  }
  return c;
}

void check_options(const CoalescingOptions& o) {
  auto positive = [](std::int64_t v, const char* what) {
    if (v <= 0) throw Error(fmt::format("{} must be positive, got {}", what, v));
  };
  positive(o.element_bytes, "the element size");
  positive(o.warp, "the warp size");
  positive(o.sector_bytes, "the sector size");
  positive(o.line_bytes, "the line size");
  positive(o.max_vector_bytes, "the widest vector");
  if (o.vector) positive(*o.vector, "the vector width");
}

}  // namespace

Coalescing analyse_coalescing(const AnyLayout& l, const CoalescingOptions& o) {
  check_options(o);
  const Layout& inner = inner_layout(l);
  walk::check_offsets_fit(inner);
  const std::int64_t n = size(inner).value;
  if (n > o.max_elements)
    throw Error(
        fmt::format("the layout has {} elements, more than the limit of {} for the coalescing analysis "
                    "(raise it with --limit)",
                    n, o.max_elements));
  const Split s = split(l, o.threads_only);
  Coalescing c;
  c.threads = static_cast<std::int64_t>(s.thread.size());
  c.values = static_cast<std::int64_t>(s.value.size());
  c.warps = (c.threads + o.warp - 1) / o.warp;
  if (c.values == 0) return c;
  c.widest_vector = widest_vector(s, o);
  c.vector = o.vector.value_or(c.widest_vector);
  if (o.vector)
    if (const auto problem = vector_problem(s, c.vector))
      throw Error(fmt::format("a vector of {} elements per access is not usable: {}", c.vector, *problem));
  c.accesses = c.values / c.vector;
  c.vectorized = count_accesses(s, c.vector, o);
  c.scalar = c.vector == 1 ? c.vectorized : count_accesses(s, 1, o);
  return c;
}

}  // namespace layoutx
