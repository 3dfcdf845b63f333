// What is wrong with a call site's memory traffic, and the fix when one is
// known: uncoalesced or misaligned global accesses, accesses narrower than
// the data allows, shared-memory bank conflicts, TMA copies issued by more
// threads than one (each moves the whole box) or fetching partial sectors;
// accesses outside a global tensor (bounds_check.hpp finds those).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "layoutx/memory_traffic.hpp"

namespace layoutx {

struct Finding {
  enum class Kind { Uncoalesced, Misaligned, Narrow, BankConflict, Redundant, OutOfBounds };
  Kind kind = Kind::Uncoalesced;
  std::string site;
  std::string what;
  std::string fix;  // empty when the model knows none
};

std::vector<Finding> traffic_findings(const SiteTraffic& t);

// "uncoalesced", "misaligned", "narrow", "bank-conflict", "redundant", "out-of-bounds": how JSON and the tests
// name a kind.
std::string_view finding_name(Finding::Kind k);

}  // namespace layoutx
