// Lookups between indices, coordinates and offsets. Offset -> indices undoes
// the swizzles (each is an involution), then solves sum(c_i * d_i) = x over the
// leaf modes: largest strides first, each coordinate limited to the values the
// remaining modes can still complete (their range and the gcd of their strides).
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "layoutx/layout_walk.hpp"
#include "layoutx/analysis.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/parallel.hpp"

namespace layoutx {

namespace {

using walk::Mode;

struct Term {
  Mode mode;
  std::int64_t weight;  // column-major index weight of the mode
};

struct Search {
  std::vector<Term> terms;              // nonzero strides, largest |stride| first
  std::vector<std::int64_t> lo, hi, g;  // range and gcd of the sums of terms k..end
  std::vector<Term> broadcast;          // stride-0 modes: every coordinate works
  std::size_t broadcast_count = 1;      // the matches each solution of the terms gives (at most max_matches + 1)
  std::size_t max_matches;
  std::int64_t steps = 0, max_steps;
  std::vector<std::int64_t> found;  // indices
  bool truncated = false;
};

std::int64_t ceil_div_signed(std::int64_t a, std::int64_t b) { return -floor_div(-a, b); }

bool full(const Search& s) { return s.found.size() > s.max_matches; }

void expand_broadcast(Search& s, std::size_t k, std::int64_t index) {
  if (full(s)) return;
  if (k == s.broadcast.size()) {
    s.found.push_back(index);
    return;
  }
  const Term& t = s.broadcast[k];
  for (std::int64_t c = 0; c < t.mode.shape && !full(s); ++c) expand_broadcast(s, k + 1, index + c * t.weight);
}

void solve(Search& s, std::size_t k, std::int64_t rest, std::int64_t index) {
  if (full(s)) return;
  if (++s.steps > s.max_steps)
    throw Error(
        fmt::format("the search for this offset took more than {} steps; the layout is too irregular", s.max_steps));
  if (k == s.terms.size()) {
    if (rest == 0) {
      // Room for this solution's matches at once (a vector grown one match at a time copies them again).
      const std::size_t need = std::min(s.found.size() + s.broadcast_count, s.max_matches + 1);
      if (need > s.found.capacity()) s.found.reserve(std::max(need, 2 * s.found.capacity()));
      expand_broadcast(s, 0, index);
    }
    return;
  }
  if (rest < s.lo[k] || rest > s.hi[k] || (s.g[k] != 0 && rest % s.g[k] != 0)) return;
  const Term& t = s.terms[k];
  const std::int64_t d = t.mode.stride;
  // c*d + (sum of the rest) = rest, the rest within [lo, hi] of terms k+1..end.
  std::int64_t a = d > 0 ? ceil_div_signed(rest - s.hi[k + 1], d) : ceil_div_signed(rest - s.lo[k + 1], d);
  std::int64_t b = d > 0 ? floor_div(rest - s.lo[k + 1], d) : floor_div(rest - s.hi[k + 1], d);
  a = std::max<std::int64_t>(a, 0);
  b = std::min(b, t.mode.shape - 1);
  for (std::int64_t c = a; c <= b && !full(s); ++c) solve(s, k + 1, rest - c * d, index + c * t.weight);
}

Search prepare(const Layout& l, const LookupLimits& limits) {
  Search s;
  s.max_matches = limits.max_matches;
  s.max_steps = limits.max_steps;
  std::int64_t weight = 1;
  for (const Mode& m : walk::leaf_modes(l)) {
    if (m.shape > 1) (m.stride == 0 ? s.broadcast : s.terms).push_back(Term{m, weight});
    weight *= std::max<std::int64_t>(m.shape, 1);
  }
  for (const Term& t : s.broadcast) {
    std::size_t count = 0;
    const bool over = __builtin_mul_overflow(s.broadcast_count, static_cast<std::size_t>(t.mode.shape), &count);
    s.broadcast_count = over ? s.max_matches + 1 : std::min(count, s.max_matches + 1);
  }
  std::stable_sort(s.terms.begin(), s.terms.end(),
                   [](const Term& x, const Term& y) { return std::abs(x.mode.stride) > std::abs(y.mode.stride); });
  const std::size_t n = s.terms.size();
  s.lo.assign(n + 1, 0);
  s.hi.assign(n + 1, 0);
  s.g.assign(n + 1, 0);
  for (std::size_t k = n; k-- > 0;) {
    const std::int64_t reach = (s.terms[k].mode.shape - 1) * s.terms[k].mode.stride;
    s.lo[k] = s.lo[k + 1] + std::min<std::int64_t>(reach, 0);
    s.hi[k] = s.hi[k + 1] + std::max<std::int64_t>(reach, 0);
    s.g[k] = std::gcd(s.g[k + 1], s.terms[k].mode.stride);
  }
  return s;
}

// The location of any index of one layout, its modes and swizzle stages read once.
class Locator {
 public:
  explicit Locator(const AnyLayout& l)
      : shape_(inner_layout(l).shape), modes_(walk::leaf_modes(inner_layout(l))), finish_(l) {}
  Location at(std::int64_t index) const {
    walk::Odometer od(modes_, index);
    return Location{index, walk::mode_coordinate(shape_, index), walk::natural_coordinate(shape_, index),
                    finish_(od.offset())};
  }

 private:
  const IntTuple& shape_;
  std::vector<Mode> modes_;
  walk::Finish finish_;
};

Location location_at(const AnyLayout& l, std::int64_t index) { return Locator(l).at(index); }

// Sorted in parts on every core, then the parts merged pairwise.
void sort_indices(std::vector<std::int64_t>& v, int threads) {
  const int parts = parts_for(v.size(), std::size_t{1} << 16, threads);
  const auto at = [&](int p) { return v.begin() + static_cast<std::ptrdiff_t>(part_begin(v.size(), parts, p)); };
  for_each_part(v.size(), parts, [&](int p, std::uint64_t, std::uint64_t) { std::sort(at(p), at(p + 1)); });
  for (int width = 1; width < parts; width *= 2)
    for (int p = 0; p + width < parts; p += 2 * width)
      std::inplace_merge(at(p), at(p + width), at(std::min(p + 2 * width, parts)));
}

// The indices whose offset is `offset`, in index order; whether more than max_matches were found.
std::pair<std::vector<std::int64_t>, bool> preimage_indices(const AnyLayout& l, std::int64_t offset,
                                                            const LookupLimits& limits) {
  const Layout& inner = inner_layout(l);
  walk::check_offsets_fit(inner);
  if (size(inner).value <= 0) return {{}, false};
  Search s = prepare(inner, limits);
  solve(s, 0, walk::unfinish(l, offset), 0);
  const bool truncated = full(s);
  if (truncated) s.found.resize(limits.max_matches);
  sort_indices(s.found, limits.threads);
  return {std::move(s.found), truncated};
}

}  // namespace

Location locate_index(const AnyLayout& l, std::int64_t index) {
  const Layout& inner = inner_layout(l);
  walk::check_offsets_fit(inner);
  const std::int64_t n = size(inner).value;
  if (index < 0 || index >= n)
    throw naming_values([&](Notation shown) {
      return fmt::format("index {} is outside the domain [0, {}) of {}", index, n, to_text(inner.shape, shown));
    });
  return location_at(l, index);
}

Location locate_coordinate(const AnyLayout& l, const IntTuple& coord) {
  const Layout& inner = inner_layout(l);
  walk::check_offsets_fit(inner);
  if (!coordinate_in_domain(coord, inner.shape))
    throw naming_values([&](Notation shown) {
      return fmt::format("{} is not a coordinate in the domain of the shape {}", to_text(coord, shown),
                         to_text(inner.shape, shown));
    });
  const Int index = crd2idx(coord, inner.shape, compact_col_major(inner.shape));
  return location_at(l, index.value);
}

bool for_each_preimage(const AnyLayout& l, std::int64_t offset, const LookupLimits& limits,
                       const std::function<std::string(const Location&)>& show,
                       const std::function<void(std::string_view)>& each) {
  // Named, not a structured binding: the lambda below captures `found`, which
  // clang before 16 (emscripten's) refuses for a binding.
  const auto preimage = preimage_indices(l, offset, limits);
  const std::vector<std::int64_t>& found = preimage.first;
  const bool truncated = preimage.second;
  const Locator locator(l);
  // A run of matches at a time, its parts shown on every core, its text handed on in order.
  // Each part's text keeps its room from run to run (a fresh string each run paid for its pages again).
  constexpr std::size_t kRun = std::size_t{1} << 16;
  std::vector<std::string> text;
  for (std::size_t first = 0; first < found.size(); first += kRun) {
    const std::size_t count = std::min(kRun, found.size() - first);
    const int parts = parts_for(count, std::size_t{1} << 12, limits.threads);
    text.resize(std::max(text.size(), static_cast<std::size_t>(parts)));
    for_each_part(count, parts, [&](int p, std::uint64_t lo, std::uint64_t hi) {
      std::string& t = text[static_cast<std::size_t>(p)];
      t.clear();
      for (std::uint64_t k = first + lo; k < first + hi; ++k) t += show(locator.at(found[k]));
    });
    for (int p = 0; p < parts; ++p) each(text[static_cast<std::size_t>(p)]);
  }
  return truncated;
}

Preimage locate_offset(const AnyLayout& l, std::int64_t offset, const LookupLimits& limits) {
  auto [found, truncated] = preimage_indices(l, offset, limits);
  const Locator locator(l);
  Preimage p;
  p.truncated = truncated;
  for (std::int64_t index : found) p.matches.push_back(locator.at(index));
  return p;
}

}  // namespace layoutx
