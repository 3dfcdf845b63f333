#include "layoutx/parallel.hpp"

#include <algorithm>

#if defined(__linux__)
#include <sched.h>
#endif

namespace layoutx {

namespace {

// The cores this process may run on: `taskset` and a container's cpuset
// leave fewer than the machine has, and a thread more than there are cores
// only takes turns with the others.
std::uint64_t usable_cores() {
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
#endif
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

int parts_for(std::uint64_t n, std::uint64_t min_part) {
  static const std::uint64_t cores = usable_cores();
  const std::uint64_t worth = std::max<std::uint64_t>(1, n / std::max<std::uint64_t>(min_part, 1));
  return static_cast<int>(std::min<std::uint64_t>({cores, worth, 256}));
}

int parts_for(std::uint64_t n, std::uint64_t min_part, int threads) {
  if (threads <= 0) return parts_for(n, min_part);
  return static_cast<int>(
      std::clamp<std::uint64_t>(n / std::max<std::uint64_t>(min_part, 1), 1, static_cast<std::uint64_t>(threads)));
}

}  // namespace layoutx
