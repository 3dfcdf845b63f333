// Which elements a kernel's copies touch outside their global tensors, from
// a run in which every global tensor is the identity tensor of its shape
// (LanguageOptions::global_as_coordinates): each copy's global side then
// holds the coordinates it touches, which must stay below the tensor's shape
// (CuTe's elem_less). The elements copy_if's predicate masks are left out; a
// copy without a predicate that runs past the residue tile is what it finds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "layoutx/kernel_trace.hpp"
#include "layoutx/traffic_findings.hpp"

namespace layoutx {

struct OutOfBounds {
  std::int64_t elements = 0;                        // accesses outside, every thread and execution together
  std::map<std::int64_t, std::int64_t> per_thread;  // thread -> its accesses outside
  std::string shape;                                // the global tensor's shape, as CuTe prints it
};

class BoundsCheck {
 public:
  // Follow one call of the coordinate run (copy and copy_if; others are not copies).
  void record(const TracedCall& call);
  // By call site (TracedCall::site): the sites with accesses outside.
  const std::map<std::size_t, OutOfBounds>& sites() const { return sites_; }

 private:
  std::map<std::size_t, OutOfBounds> sites_;
};

// The finding of a site's accesses outside its global tensor.
Finding out_of_bounds_finding(const std::string& site, const OutOfBounds& o, bool predicated);

}  // namespace layoutx
