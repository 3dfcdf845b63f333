// Sizes past which layoutx refuses a value instead of building it. CuTe's own
// layouts have a few dozen integers (every non-trivial mode at least doubles
// the size, so a layout with more than 63 of them overflows 64 bits); only
// size-1 or degenerate modes can make more, and several algorithms (coalesce,
// complement) are quadratic in the number of modes.
#pragma once

#include <cstddef>

namespace layoutx {

// The most integers one value may hold (a layout's shape and stride together).
inline constexpr std::size_t kMaxValueIntegers = 4096;
// The most modes composition may build (each leaf of B meets every mode of A).
inline constexpr std::size_t kMaxComposedModes = kMaxValueIntegers / 2;

}  // namespace layoutx
