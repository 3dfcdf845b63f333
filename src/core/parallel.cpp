#include "layoutx/parallel.hpp"

#include <algorithm>

namespace layoutx {

int parts_for(std::uint64_t n, std::uint64_t min_part) {
  const std::uint64_t cores = std::max(1u, std::thread::hardware_concurrency());
  const std::uint64_t worth = std::max<std::uint64_t>(1, n / std::max<std::uint64_t>(min_part, 1));
  return static_cast<int>(std::min<std::uint64_t>({cores, worth, 256}));
}

}  // namespace layoutx
