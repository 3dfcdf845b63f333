// `layoutx atom SM90_TMA_LOAD --gmem L --smem S --type T [--multicast N]`:
// what CuTe's make_tma_copy chooses for that tensor and tile.
#pragma once

#include <cstdint>
#include <string>

#include "driver.hpp"

namespace layoutx::cli {

struct TmaRequest {
  std::string op, gmem, smem, type;
  std::int64_t multicast = 1;
};

// Whether `name` is one of the TMA operations make_tma_copy builds.
bool is_tma_operation(const std::string& name);

int describe_tma(const Settings& s, const TmaRequest& r);

}  // namespace layoutx::cli
