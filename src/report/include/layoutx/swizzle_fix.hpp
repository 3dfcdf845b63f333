// The fix for a copy call site's bank conflicts: the swizzle of its
// shared-memory tile (CuTe's composition(Swizzle<B,M,S>{}, layout)) under
// which every shared-memory access the kernel makes to the tile takes the
// fewest wavefronts, found by trying each swizzle on the traced offsets.
#pragma once

#include <optional>
#include <vector>

#include "layoutx/kernel_trace.hpp"
#include "layoutx/swizzle.hpp"
#include "layoutx/traffic_findings.hpp"

namespace layoutx {

struct SwizzleFix {
  Swizzle swizzle;
  std::int64_t before = 0, after = 0;  // shared-memory wavefronts of the tile's accesses
};

// For site `site` of `sites` (KernelTrace::copy_sites): the best swizzle, or
// nullopt when none takes fewer wavefronts. The tile's accesses are those of
// every site whose shared-memory offsets overlap this site's, with the same
// element width; a swizzle must keep each access's vector whole and map the
// elements they touch onto themselves.
std::optional<SwizzleFix> swizzle_fix(const std::vector<std::vector<CopySite>>& sites, std::size_t site);

// The bank-conflict findings of each site with the swizzle that fixes them
// where one is found (findings[i] belongs to sites[i]).
void suggest_swizzles(const std::vector<std::vector<CopySite>>& sites, std::vector<std::vector<Finding>>& findings);

}  // namespace layoutx
