#include "layoutx/swizzle_fix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <set>

namespace layoutx {

namespace {

// The site's shared-memory side (a CopySite or a const one), nullptr when it has none.
template <class Site>
auto* shared_side(Site& s) {
  if (s.dst.space == MemorySpace::Shared) return &s.dst;
  return s.src.space == MemorySpace::Shared ? &s.src : nullptr;
}

// The shared-memory elements a site's executions touch.
std::set<std::int64_t> touched(const std::vector<CopySite>& executions) {
  std::set<std::int64_t> out;
  for (const CopySite& s : executions)
    if (const CopyOperand* side = shared_side(s))
      for (const auto& thread : side->offsets) out.insert(thread.begin(), thread.end());
  return out;
}

std::int64_t wavefronts(const std::vector<CopySite>& executions, const Swizzle* sw) {
  std::int64_t total = 0;
  for (CopySite s : executions) {
    if (sw)
      for (auto& thread : shared_side(s)->offsets)
        for (std::int64_t& o : thread) o = sw->apply(o);
    for (const InstructionTraffic& x : predict_traffic(s).instructions)
      if (is_shared_access(x.op)) total += x.wavefronts;
  }
  return total;
}

// The widest access of the group, in elements: a swizzle below it would split the vectors.
int widest_vector_log2(const std::vector<const std::vector<CopySite>*>& group) {
  int widest = 1;
  for (const auto* executions : group)
    for (const CopySite& s : *executions)
      for (const InstructionTraffic& x : predict_traffic(s).instructions)
        if (is_shared_access(x.op)) widest = std::max(widest, x.bits / s.element_bits);
  return std::bit_width(static_cast<unsigned>(widest)) - 1;
}

}  // namespace

std::optional<SwizzleFix> swizzle_fix(const std::vector<std::vector<CopySite>>& sites, std::size_t site) {
  const std::vector<CopySite>& mine = sites.at(site);
  if (mine.empty() || !shared_side(mine.front())) return std::nullopt;
  const std::set<std::int64_t> tile = touched(mine);
  if (tile.empty()) return std::nullopt;
  std::vector<const std::vector<CopySite>*> group;
  std::set<std::int64_t> elements;
  for (const auto& other : sites) {
    if (other.empty() || !shared_side(other.front()) || other.front().element_bits != mine.front().element_bits)
      continue;
    const std::set<std::int64_t> t = touched(other);
    if (t.empty() || *t.rbegin() < *tile.begin() || *t.begin() > *tile.rbegin()) continue;
    group.push_back(&other);
    elements.insert(t.begin(), t.end());
  }
  const auto total = [&](const Swizzle* sw) {
    std::int64_t n = 0;
    for (const auto* g : group) n += wavefronts(*g, sw);
    return n;
  };
  std::optional<SwizzleFix> best;
  const std::int64_t before = total(nullptr);
  const int m_min = widest_vector_log2(group);
  for (int b = 1; b <= 5; ++b)
    for (int m = m_min; m <= m_min + 2; ++m)
      for (int s = b; s <= 7; ++s) {
        const Swizzle sw = Swizzle::make(b, m, s);
        const bool onto_itself = std::all_of(elements.begin(), elements.end(),
                                             [&](std::int64_t o) { return elements.count(sw.apply(o)) == 1; });
        if (!onto_itself) continue;
        const std::int64_t after = total(&sw);
        if (after < (best ? best->after : before)) best = SwizzleFix{sw, before, after};
      }
  return best;
}

void suggest_swizzles(const std::vector<std::vector<CopySite>>& sites, std::vector<std::vector<Finding>>& findings) {
  for (std::size_t i = 0; i < sites.size() && i < findings.size(); ++i) {
    if (std::none_of(findings[i].begin(), findings[i].end(),
                     [](const Finding& f) { return f.kind == Finding::Kind::BankConflict; }))
      continue;
    const auto fix = swizzle_fix(sites, i);
    if (!fix) continue;
    const Swizzle& sw = fix->swizzle;
    for (Finding& f : findings[i])
      if (f.kind == Finding::Kind::BankConflict)
        f.fix = fmt::format(
            "swizzle the shared-memory tile: composition(Swizzle<{},{},{}>{{}}, layout) takes {} "
            "wavefronts where it takes {} now, over every shared-memory access of the kernel to it",
            sw.bits, sw.base, sw.shift, fix->after, fix->before);
  }
}

}  // namespace layoutx
