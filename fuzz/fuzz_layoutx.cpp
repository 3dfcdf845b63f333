// libFuzzer entry point: every input goes through the shared pipeline.
// layoutx::Error is handled inside; anything that escapes is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pipeline.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  layoutx::fuzz::run_pipeline(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
