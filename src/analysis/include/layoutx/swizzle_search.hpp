// The swizzle search: given a shared-memory tile layout, its element size and
// the instructions that write and read it, try every Swizzle<B,M,S> over the
// tile (and row paddings) and rank them by the wavefronts all the accesses
// take (bank.hpp's model), then by the vector width each access keeps.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "layoutx/bank.hpp"

namespace layoutx {

// One side of the traffic: `lanes` maps index lane + 32 * instruction to the
// coordinate (1-D index) of the tile element where the lane's access starts;
// the access covers the elements that follow it in the unswizzled tile's memory.
struct AccessPattern {
  std::string role;  // "write", "read": for messages
  SharedAccess access;
  AnyLayout lanes;
};

struct SearchOptions {
  bool swizzles = true;
  bool padding = true;
  int top = 5;  // candidates kept in the ranking
};

// How one pattern fares under a candidate layout.
struct PatternScore {
  int wavefronts = 0;
  int ideal = 0;
  int instructions = 0;   // after splitting accesses the layout breaks
  int vector_bytes = 0;   // bytes per lane each access kept (0: cannot be served)
  SharedAccess access{};  // the instruction used (narrower when the vector split)
};

struct SearchCandidate {
  AnyLayout layout;  // what to allocate: Sw o base, or the padded base
  std::optional<Swizzle> swizzle;
  std::int64_t row = 0;  // padding: elements per padded row, and elements added
  std::int64_t padding = 0;
  std::vector<PatternScore> scores;  // one per pattern
  int wavefronts = 0;
  int ideal = 0;
  int vector_bytes = 0;  // summed over the patterns
  std::int64_t extra_bytes = 0;
  bool feasible = true;  // every pattern can be served (ldmatrix rows stay whole)
};

struct SearchResult {
  SearchCandidate base;                 // the tile as given
  std::vector<SearchCandidate> ranked;  // best first, at most options.top
  std::int64_t evaluated = 0;           // candidates scored, the base included
  std::int64_t infeasible = 0;          // candidates that split an ldmatrix/stmatrix row
};

SearchResult search_swizzles(const Layout& base, std::int64_t elem_bits, const std::vector<AccessPattern>& patterns,
                             const SearchOptions& options);

}  // namespace layoutx
