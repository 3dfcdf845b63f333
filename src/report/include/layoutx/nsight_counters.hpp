// The totals of a kernel's memory instructions for one CTA, under the names
// Nsight Compute gives its counters (`ncu --metrics NAME`).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "layoutx/memory_traffic.hpp"

namespace layoutx {

struct Counter {
  std::string_view metric;
  std::int64_t value = 0;
};

// Every counter the report predicts, in a fixed order, summed over the sites.
std::vector<Counter> cta_counters(const std::vector<SiteTraffic>& sites);

// The metric names cta_counters gives, in its order.
std::vector<std::string_view> counter_metrics();

}  // namespace layoutx
