// The report as an HTML page: for each copy call site, a grid of the warps of
// the CTA against the instructions the site issues, each cell what that
// warp's instructions cost against the least they could (sectors for global
// memory, wavefronts for shared memory), coloured by the excess.
#pragma once

#include <string>

#include "layoutx/kernel_trace.hpp"
#include "layoutx/traffic_findings.hpp"

namespace layoutx {

// findings[i]: those of the i-th copy call site.
std::string report_html(const std::string& title, const KernelTrace& trace,
                        const std::vector<std::vector<Finding>>& findings);

}  // namespace layoutx
