// The GPU backend as the module layoutx-gpu.so (gpu_backend.cu) hands it to
// the device library (gpu_module.cpp), which opens the module on the first
// GPU request. The module is built apart from the engine: what the engine
// decides comes with each call (whether 32-bit arithmetic is exact for a
// layout, how many parts the host's offsets are produced in).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "backend.hpp"

namespace layoutx::device_detail {

// How many parts the host's walk of n indices takes.
using PartsOf = std::function<int(std::uint64_t n)>;

struct GpuBackend {
  std::string (*unavailable_reason)();
  std::string (*description)();
  std::vector<Outcome> (*run)(const std::vector<CheckSpec>& specs, std::uint64_t bitmap_bits, std::size_t first_limit);
  Outcome (*compare_host)(const CheckSpec& spec, const device::OffsetSource& host, std::size_t first_limit,
                          const PartsOf& parts);
  // `narrow`: l's offsets over [0, n) fit 32-bit arithmetic (fits_int32).
  void (*generate)(const FlatLayout& l, std::uint64_t n, bool narrow, const device::OffsetBlocks& sink);
  void (*generate_lines)(const FlatLayout& l, std::uint64_t n, bool narrow, const device::TextSink& sink);
};

// The module's one exported function: the backend, or null when the module
// was built for another version of this interface (a stale build beside a
// newer program).
constexpr const char* kGpuEntryPoint = "layoutx_gpu_backend";
constexpr int kGpuInterfaceVersion = 1;
using GpuEntry = const GpuBackend* (*)(int interface_version);

}  // namespace layoutx::device_detail
