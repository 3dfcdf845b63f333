// The report as JSON for CI pipelines: an array with one object per call
// site (copies with their instructions, costs and findings; gemm sites with
// their MMA instructions), a stage's resources, and the CTA's counters under
// Nsight's names.
#pragma once

#include <string>
#include <vector>

#include "layoutx/kernel_trace.hpp"
#include "layoutx/nsight_counters.hpp"
#include "layoutx/traffic_findings.hpp"

namespace layoutx {

std::string report_json(const std::vector<SiteTraffic>& copies, const std::vector<std::vector<Finding>>& findings,
                        const std::vector<MmaSite>& mmas, const StageResources& stage,
                        const std::vector<Counter>& counters);

}  // namespace layoutx
