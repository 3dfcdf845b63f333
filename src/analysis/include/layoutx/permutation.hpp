// A bijective layout as a permutation of [0, size): its cycles, its fixed
// points and its order (the least power of it that is the identity).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "layoutx/swizzle_algebra.hpp"

namespace layoutx {

struct PermutationCycles {
  std::int64_t cycles = 0;            // fixed points included
  std::int64_t fixed_points = 0;      // i with L(i) == i
  std::int64_t longest = 0;           // the longest cycle's length
  std::optional<std::int64_t> order;  // the lcm of the cycle lengths; unset past 2^63
};

// The cycles of l on [0, size) when l is a bijection onto [0, size) of at
// most max_size elements; nothing otherwise (`why` says which).
std::optional<PermutationCycles> permutation_cycles(const AnyLayout& l, std::int64_t max_size, std::string& why);

}  // namespace layoutx
