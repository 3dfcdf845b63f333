// Equality of layouts: CuTe's structural ==, and equality as functions on the
// domain. Plain layouts agree exactly when their canonical modes agree, which
// also gives the first differing index without walking; the remaining
// differences are counted by walking both layouts together.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <limits>

#include "layoutx/analysis.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/layout_walk.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/parallel.hpp"

namespace layoutx {

namespace {

using walk::Mode;

bool same_values(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf() != b.is_leaf()) return false;
  if (a.is_leaf()) return a.value().value == b.value().value && a.value().basis == b.value().basis;
  if (a.rank() != b.rank()) return false;
  for (int i = 0; i < a.rank(); ++i)
    if (!same_values(a[i], b[i])) return false;
  return true;
}

bool same_layout(const Layout& a, const Layout& b) {
  return same_values(a.shape, b.shape) && same_values(a.stride, b.stride);
}

bool same_stage(const Swizzle& sa, Int oa, const Swizzle& sb, Int ob) { return sa == sb && oa.value == ob.value; }

// The first index where two canonical mode lists (of the same size) disagree,
// or nothing when they are equal. Below the mode where they first differ both
// layouts walk the same modes, so the first difference is at its start (other
// stride) or at the end of the shorter mode (canonical: the next stride is not
// the one continuing the shorter mode).
std::optional<std::int64_t> first_difference(const std::vector<Mode>& a, const std::vector<Mode>& b) {
  std::int64_t below = 1;  // product of the extents walked so far
  for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) {
    if (a[k].stride != b[k].stride) return below;
    if (a[k].shape != b[k].shape) return below * std::min(a[k].shape, b[k].shape);
    below *= a[k].shape;
  }
  if (a.size() != b.size()) return below;  // one is out of modes: only possible with size 0 or a stride-0 tail
  return std::nullopt;
}

// Differences within one part of the walk.
struct PartDifferences {
  std::int64_t differing = 0;
  std::vector<Difference> first;
};

// Compare index by index from `start` (at most limits.max_scan indices), on
// every core, collecting differences; with limits.stop_at_first only until
// the first one, which every part then stops beyond.
void scan(const AnyLayout& a, const AnyLayout& b, std::int64_t start, const ComparisonLimits& limits, Comparison& c) {
  const std::int64_t n = c.size_a;
  const bool limited = limits.max_scan >= 0 && n - start > limits.max_scan;
  const std::int64_t end = limited ? start + limits.max_scan : n;
  const std::vector<Mode> ma = walk::leaf_modes(inner_layout(a)), mb = walk::leaf_modes(inner_layout(b));
  const walk::Finish fa(a), fb(b);
  std::atomic<std::int64_t> earliest{std::numeric_limits<std::int64_t>::max()};
  const auto span = static_cast<std::uint64_t>(end - start);
  const int parts = parts_for(span);
  std::vector<PartDifferences> part(static_cast<std::size_t>(parts));
  for_each_part(span, parts, [&](int p, std::uint64_t lo, std::uint64_t hi) {
    // Counted in a local and stored once: the parts' results share cache
    // lines, and a count written there per difference stalls the other cores.
    PartDifferences d;
    const std::int64_t from = start + static_cast<std::int64_t>(lo), to = start + static_cast<std::int64_t>(hi);
    if (from >= to) return;
    walk::Odometer oa(ma, from), ob(mb, from);
    for (std::int64_t i = from; i < to; ++i, oa.step(), ob.step()) {
      if (limits.stop_at_first && (i & 4095) == 0 && earliest.load(std::memory_order_relaxed) < i) break;
      const std::int64_t x = fa(oa.offset()), y = fb(ob.offset());
      if (x == y) continue;
      ++d.differing;
      if (d.first.size() < limits.max_shown) d.first.push_back(Difference{i, x, y});
      if (limits.stop_at_first) {
        std::int64_t seen = earliest.load();
        while (i < seen && !earliest.compare_exchange_weak(seen, i)) {
        }
        break;
      }
    }
    part[static_cast<std::size_t>(p)] = std::move(d);
  });
  for (const PartDifferences& d : part) {
    c.differing += d.differing;
    for (const Difference& x : d.first)
      if (c.first.size() < limits.max_shown) c.first.push_back(x);
  }
  if (limited || (limits.stop_at_first && c.differing > 0)) c.counted = false;
}

// A coordinate layout's value is a sum over the codomain's modes (the scaled
// bases, and the integers as one more): the integer layout along one of them
// keeps the strides of that basis and 0 for the others. Two coordinate layouts
// agree exactly when they agree along every basis either one steps along.
Layout along(const Layout& l, const Basis& b) {
  return make_layout(l.shape, transform_leaf(l.stride, [&](Int d) { return Int{d.basis == b ? d.value : 0, true}; }));
}

void collect_bases(const IntTuple& stride, std::vector<Basis>& bases) {
  if (!stride.is_leaf()) {
    for (const IntTuple& e : stride.elems()) collect_bases(e, bases);
    return;
  }
  if (std::find(bases.begin(), bases.end(), stride.value().basis) == bases.end()) bases.push_back(stride.value().basis);
}

Comparison compare_coordinates(const Layout& a, const Layout& b, Comparison c, const ComparisonLimits& limits) {
  std::vector<Basis> bases{Basis{}};
  collect_bases(a.stride, bases);
  collect_bases(b.stride, bases);
  std::vector<std::vector<Mode>> modes_a, modes_b;
  std::optional<std::int64_t> first;
  for (const Basis& basis : bases) {
    const Layout la = along(a, basis), lb = along(b, basis);
    walk::check_offsets_fit(la);
    walk::check_offsets_fit(lb);
    if (const auto d = first_difference(walk::canonical_modes(la), walk::canonical_modes(lb)))
      first = first ? std::min(*first, *d) : *d;
    modes_a.push_back(walk::leaf_modes(la));
    modes_b.push_back(walk::leaf_modes(lb));
  }
  if (!first || *first >= c.size_a) {
    c.equal = true;
    return c;
  }
  // From the first difference on, index by index along every basis at once.
  const std::int64_t start = *first;
  const bool limited = limits.max_scan >= 0 && c.size_a - start > limits.max_scan;
  const std::int64_t end = limited ? start + limits.max_scan : c.size_a;
  std::vector<walk::Odometer> wa, wb;
  for (std::size_t k = 0; k < bases.size(); ++k) {
    wa.emplace_back(modes_a[k], start);
    wb.emplace_back(modes_b[k], start);
  }
  for (std::int64_t i = start; i < end; ++i) {
    bool differs = false;
    for (std::size_t k = 0; k < bases.size(); ++k) {
      differs = differs || wa[k].offset() != wb[k].offset();
      if (i + 1 < end) {
        wa[k].step();
        wb[k].step();
      }
    }
    if (!differs) continue;
    ++c.differing;
    if (c.first.size() < limits.max_shown) {
      const IntTuple coord = idx2crd(static_int(i), a.shape);
      c.first.push_back(Difference{i, 0, 0});
      c.coordinates_a.push_back(to_text(evaluate_coordinate(a, coord)));
      c.coordinates_b.push_back(to_text(evaluate_coordinate(b, coord)));
    }
    if (limits.stop_at_first) break;
  }
  c.counted = !limited && !(limits.stop_at_first && c.differing > 0);
  return c;
}

}  // namespace

bool structurally_equal(const AnyLayout& a, const AnyLayout& b) {
  if (a.index() != b.index()) return false;
  if (const auto* la = std::get_if<Layout>(&a)) return same_layout(*la, std::get<Layout>(b));
  const auto& ca = std::get<ComposedLayout>(a);
  const auto& cb = std::get<ComposedLayout>(b);
  if (!same_stage(ca.swizzle, ca.offset, cb.swizzle, cb.offset) || ca.nested.size() != cb.nested.size()) return false;
  for (std::size_t i = 0; i < ca.nested.size(); ++i)
    if (!same_stage(ca.nested[i].swizzle, ca.nested[i].offset, cb.nested[i].swizzle, cb.nested[i].offset)) return false;
  return same_layout(ca.layout, cb.layout);
}

Comparison compare_functional(const AnyLayout& a, const AnyLayout& b, const ComparisonLimits& limits) {
  walk::check_offsets_fit(inner_layout(a));
  walk::check_offsets_fit(inner_layout(b));
  Comparison c;
  c.size_a = size(inner_layout(a)).value;
  c.size_b = size(inner_layout(b)).value;
  if (c.size_a != c.size_b) return c;
  if (c.size_a <= 0) {  // empty domains (CuTe allows a zero or negative extent)
    c.equal = true;
    return c;
  }

  std::int64_t start = 0;
  const bool plain = std::holds_alternative<Layout>(a) && std::holds_alternative<Layout>(b);
  if (plain && (is_coordinate_layout(std::get<Layout>(a)) || is_coordinate_layout(std::get<Layout>(b))))
    return compare_coordinates(std::get<Layout>(a), std::get<Layout>(b), c, limits);
  if (is_coordinate_layout(inner_layout(a)) || is_coordinate_layout(inner_layout(b)))
    throw Error(
        "a swizzle composed with a coordinate layout (scaled-basis strides) is compared structurally only "
        "(--structural)");
  if (plain) {
    const auto first =
        first_difference(walk::canonical_modes(std::get<Layout>(a)), walk::canonical_modes(std::get<Layout>(b)));
    if (!first || *first >= c.size_a) {
      c.equal = true;
      return c;
    }
    start = *first;
  } else if (structurally_equal(a, b)) {
    c.equal = true;
    return c;
  } else if (c.size_a > limits.max_scan) {
    throw Error(
        fmt::format("comparing swizzled layouts of {} elements means evaluating every index, more than the "
                    "limit of {} (raise it with --limit)",
                    c.size_a, limits.max_scan));
  }
  scan(a, b, start, limits, c);
  c.equal = c.differing == 0 && c.counted;
  return c;
}

}  // namespace layoutx
