// The report as text: each call site's instructions, their cost against the
// least they could cost, and the findings with their fixes; the counters as
// `METRIC VALUE` lines.
#pragma once

#include <string>
#include <vector>

#include "layoutx/nsight_counters.hpp"
#include "layoutx/traffic_findings.hpp"

namespace layoutx {

std::string site_text(const SiteTraffic& site, const std::vector<Finding>& findings);
// copy_if's predicate at a site ("" where the site is a plain copy), and over every site.
std::string predication_text(const Predication& p);
std::string predication_totals(const std::vector<SiteTraffic>& sites);
std::string counters_text(const std::vector<Counter>& counters);

}  // namespace layoutx
