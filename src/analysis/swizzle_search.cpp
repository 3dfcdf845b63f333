// Swizzle search: every candidate is an offset map from the tile's own
// element offsets to where the candidate stores them (a swizzle, or a row
// padding); each access pattern is scored through the bank model.
#include "layoutx/swizzle_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <tuple>

namespace layoutx {

namespace {

// Tiles larger than this are not one CTA's shared memory.
constexpr std::int64_t kMaxTileElements = std::int64_t{1} << 22;
constexpr std::int64_t kMaxSearchLanes = std::int64_t{1} << 14;
constexpr int kMaxSwizzleBits = 5;

// base element offset -> candidate element offset
struct OffsetMap {
  std::optional<Swizzle> swizzle;
  std::int64_t row = 0;
  std::int64_t pad = 0;

  std::int64_t operator()(std::int64_t o) const {
    if (swizzle) return swizzle->apply(o);
    if (row) return o / row * (row + pad) + o % row;
    return o;
  }
};

// A pattern resolved against the base tile: each lane's first element offset.
struct Prepared {
  const AccessPattern* pattern = nullptr;
  const AccessInfo* info = nullptr;
  std::int64_t vector = 1;                        // elements per lane access
  int lanes = 0;                                  // lanes per instruction that carry addresses
  std::vector<std::vector<std::int64_t>> starts;  // [instruction][lane] base element offset
};

std::int64_t offset_at(const AnyLayout& l, std::int64_t i) { return evaluate(l, IntTuple(static_int(i))).value; }

Prepared prepare(const Layout& base, std::int64_t elem_bits, const AccessPattern& p) {
  Prepared r;
  r.pattern = &p;
  r.info = &access_info(p.access);
  const std::int64_t access_bits = std::int64_t{r.info->bytes} * 8;
  if (access_bits % elem_bits != 0)
    throw Error(fmt::format("{} pattern: a {}-byte {} access does not hold a whole number of {}-bit elements", p.role,
                            r.info->bytes, r.info->name, elem_bits));
  r.vector = access_bits / elem_bits;
  const std::int64_t n = size(p.lanes).value;
  const std::int64_t tile = size(base).value;
  if (n <= 0 || (n > kWarpLanes && n % kWarpLanes != 0))
    throw Error(fmt::format(
        "{} pattern has {} lanes: one warp's 32 or fewer, or a multiple of 32 for several instructions", p.role, n));
  if (n < lanes_used(p.access))
    throw Error(fmt::format("{} pattern: {} takes row addresses from lanes 0..{}, the pattern has {}", p.role,
                            r.info->name, lanes_used(p.access) - 1, n));
  const std::int64_t per_instruction = std::min<std::int64_t>(n, kWarpLanes);
  r.lanes = static_cast<int>(r.info->matrices ? lanes_used(p.access) : per_instruction);
  for (std::int64_t first = 0; first < n; first += per_instruction) {
    auto& starts = r.starts.emplace_back();
    for (std::int64_t lane = 0; lane < r.lanes; ++lane) {
      const std::int64_t c = offset_at(p.lanes, first + lane);
      if (c < 0 || c >= tile)
        throw Error(fmt::format("{} pattern maps index {} to coordinate {}, outside the tile's {} elements", p.role,
                                first + lane, c, tile));
      const std::int64_t o = offset_at(base, c);
      if (o < 0)
        throw Error(fmt::format("the tile maps coordinate {} to offset {}: offsets must not be negative", c, o));
      if (o % r.vector != 0)
        throw Error(
            fmt::format("{} pattern: lane {} starts at element offset {}, not aligned to its {}-element {} access",
                        p.role, lane, o, r.vector, r.info->name));
      starts.push_back(o);
    }
  }
  return r;
}

std::optional<SharedAccess> scalar_access(bool store, int bytes) {
  switch (bytes) {
    case 16: return store ? SharedAccess::St128 : SharedAccess::Ld128;
    case 8: return store ? SharedAccess::St64 : SharedAccess::Ld64;
    case 4: return store ? SharedAccess::St32 : SharedAccess::Ld32;
    case 2: return store ? SharedAccess::St16 : SharedAccess::Ld16;
    default: return std::nullopt;
  }
}

// Every chunk of w elements of every lane's vector stays contiguous and aligned.
bool keeps_chunks(const Prepared& p, const OffsetMap& map, std::int64_t w, std::int64_t elem_bits) {
  const std::int64_t chunk_bits = w * elem_bits;
  for (const auto& starts : p.starts)
    for (std::int64_t o : starts)
      for (std::int64_t j = 0; j < p.vector; j += w) {
        const std::int64_t m0 = map(o + j);
        if ((m0 * elem_bits) % chunk_bits != 0) return false;
        for (std::int64_t k = 1; k < w; ++k)
          if (map(o + j + k) != m0 + k) return false;
      }
  return true;
}

PatternScore score(const Prepared& p, const OffsetMap& map, std::int64_t elem_bits) {
  PatternScore s;
  for (std::int64_t w = p.vector; w >= 1; w /= 2) {
    if ((w * elem_bits) % 8 != 0) break;
    const int bytes = static_cast<int>(w * elem_bits / 8);
    const std::optional<SharedAccess> kind = p.info->matrices
                                                 ? (w == p.vector ? std::optional(p.pattern->access) : std::nullopt)
                                                 : scalar_access(p.info->store, bytes);
    if (!kind) {
      if (p.info->matrices) break;  // ldmatrix rows cannot be split
      continue;
    }
    if (!keeps_chunks(p, map, w, elem_bits)) continue;
    s.access = *kind;
    s.vector_bytes = bytes;
    std::vector<std::int64_t> offsets(p.lanes);
    for (const auto& starts : p.starts)
      for (std::int64_t j = 0; j < p.vector; j += w) {
        for (int lane = 0; lane < p.lanes; ++lane) offsets[lane] = map(starts[lane] + j) * elem_bits / 8;
        const WavefrontCount c = count_wavefronts(*kind, offsets);
        s.wavefronts += c.wavefronts;
        s.ideal += c.ideal;
        ++s.instructions;
      }
    return s;
  }
  return s;  // vector_bytes 0: the layout cannot serve this access
}

SearchCandidate evaluate_candidate(const std::vector<Prepared>& prepared, const OffsetMap& map, AnyLayout layout,
                                   std::int64_t elem_bits) {
  SearchCandidate c{std::move(layout), map.swizzle, map.row, map.pad, {}, 0, 0, 0, 0, true};
  for (const auto& p : prepared) {
    const PatternScore s = score(p, map, elem_bits);
    c.feasible = c.feasible && s.vector_bytes > 0;
    c.wavefronts += s.wavefronts;
    c.ideal += s.ideal;
    c.vector_bytes += s.vector_bytes;
    c.scores.push_back(s);
  }
  return c;
}

// The swizzles that move bits inside the tile's offsets and keep it in place:
// XOR only changes the ZZZ field, so the tile stays within its cosize when
// that is a multiple of the ZZZ field's block.
std::vector<Swizzle> candidate_swizzles(std::int64_t cosize) {
  std::vector<Swizzle> out;
  const int top = cosize > 1 ? static_cast<int>(std::bit_width(static_cast<std::uint64_t>(cosize - 1))) : 0;
  for (int b = 1; b <= std::min(kMaxSwizzleBits, top); ++b)
    for (int m = 0; m + b <= top; ++m)
      for (int s = -top; s <= top; ++s) {
        if (std::abs(s) < b) continue;
        // YYY and ZZZ lie in bits [m, m + |s| + b); ZZZ is the lower field when s > 0.
        const int high = m + std::abs(s) + b;
        const int zzz_end = s > 0 ? m + b : high;
        if (high > top || cosize % (std::int64_t{1} << zzz_end) != 0) continue;
        out.push_back(Swizzle{b, m, s});
      }
  return out;
}

// Row lengths a padding can follow: the tile's offsets split into an inner
// part below R (modes with small strides) and multiples of R (the others).
std::vector<std::int64_t> padding_rows(const Layout& base) {
  const std::vector<Int> shape = leaves(base.shape), stride = leaves(base.stride);
  std::vector<std::int64_t> rows;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const std::int64_t r = stride[i].value;
    if (r <= 1 || shape[i].value <= 1) continue;
    bool splits = true;
    std::int64_t inner = 0;
    for (std::size_t j = 0; j < shape.size() && splits; ++j) {
      const std::int64_t s = stride[j].value, e = shape[j].value;
      if (s < 0)
        splits = false;
      else if (s < r)
        inner += (e - 1) * s;
      else if (s % r != 0)
        splits = false;
    }
    if (splits && inner < r && std::find(rows.begin(), rows.end(), r) == rows.end()) rows.push_back(r);
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

Layout padded(const Layout& base, std::int64_t row, std::int64_t pad) {
  return Layout{
      base.shape, transform_leaf(base.stride, [&](Int s) {
        return s.value >= row ? Int{checked_mul(s.value / row, row + pad, "a padded stride"), s.is_static} : s;
      })};
}

auto rank_key(const SearchCandidate& c) {
  const Swizzle sw = c.swizzle.value_or(Swizzle{});
  return std::make_tuple(c.wavefronts, -c.vector_bytes, c.extra_bytes, c.swizzle.has_value() || c.padding ? 1 : 0,
                         sw.bits, sw.shift < 0, std::abs(sw.shift), sw.base, c.padding, c.row);
}

}  // namespace

SearchResult search_swizzles(const Layout& base, std::int64_t elem_bits, const std::vector<AccessPattern>& patterns,
                             const SearchOptions& options) {
  if (elem_bits <= 0) throw Error(fmt::format("element size must be positive, got {} bits", elem_bits));
  if (patterns.empty()) throw Error("the search needs at least one access pattern");
  const std::int64_t tile = size(base).value, footprint = cosize(base).value;
  if (tile > kMaxTileElements || footprint > kMaxTileElements)
    throw Error(
        fmt::format("the tile spans {} elements; the search takes tiles of at most {}", footprint, kMaxTileElements));
  // Every candidate replays every lane: the lanes in all bound the work and the memory.
  std::int64_t lanes = 0;
  for (const auto& p : patterns) lanes = checked_add(lanes, std::max<std::int64_t>(size(p.lanes).value, 0), "lanes");
  if (lanes > kMaxSearchLanes)
    throw Error(fmt::format("the patterns have {} lanes in all; the search replays at most {} ({} warp instructions)",
                            lanes, kMaxSearchLanes, kMaxSearchLanes / kWarpLanes));
  std::vector<Prepared> prepared;
  for (const auto& p : patterns) prepared.push_back(prepare(base, elem_bits, p));

  SearchResult result;
  std::vector<SearchCandidate> all;
  auto consider = [&](SearchCandidate c) {
    ++result.evaluated;
    if (!c.feasible) {
      ++result.infeasible;
      return;
    }
    all.push_back(std::move(c));
  };
  result.base = evaluate_candidate(prepared, OffsetMap{}, base, elem_bits);
  consider(result.base);
  if (options.swizzles)
    for (const Swizzle& sw : candidate_swizzles(footprint))
      consider(
          evaluate_candidate(prepared, OffsetMap{sw, 0, 0}, ComposedLayout{sw, static_int(0), base, {}}, elem_bits));
  if (options.padding) {
    std::int64_t unit = 1;  // elements: the widest access stays aligned after a padded row
    for (const auto& p : prepared) unit = std::max(unit, p.vector);
    for (std::int64_t row : padding_rows(base))
      for (std::int64_t k : {1, 2, 4}) {
        const std::int64_t pad = unit * k;
        const Layout l = padded(base, row, pad);
        SearchCandidate c = evaluate_candidate(prepared, OffsetMap{std::nullopt, row, pad}, l, elem_bits);
        c.extra_bytes = element_byte_offset(cosize(l).value - footprint, elem_bits);
        consider(std::move(c));
      }
  }
  const auto keep = std::min<std::size_t>(all.size(), static_cast<std::size_t>(std::max(options.top, 0)));
  std::partial_sort(all.begin(), all.begin() + keep, all.end(),
                    [](const SearchCandidate& a, const SearchCandidate& b) { return rank_key(a) < rank_key(b); });
  all.resize(keep);
  result.ranked = std::move(all);
  return result;
}

}  // namespace layoutx
