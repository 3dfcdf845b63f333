// libFuzzer entry point for CuTe programs (layoutx run): every input goes
// through fuzz/program_pipeline.hpp; anything escaping it is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "program_pipeline.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  layoutx::fuzz::run_program_pipeline(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
