// The GPU backend of a build with CUDA: the module layoutx-gpu.so, built from
// gpu_backend.cu and opened on the first GPU request. Linked into the program,
// the CUDA runtime registered the backend's kernels when every command started
// and unregistered them when it ended, a GPU in the machine or not: 0.14 M
// instructions, 8% of a hello-world's whole start-up.
#include <dlfcn.h>
#include <fmt/format.h>

#include <filesystem>

#include "backend.hpp"
#include "flat_layout_build.hpp"
#include "gpu_interface.hpp"

namespace layoutx::device_detail::gpu {

namespace {

// The module's backend, or why there is none.
struct Opened {
  const GpuBackend* backend = nullptr;
  std::string why;
};

// The module stays open to the end: the CUDA runtime in it unregisters its
// kernels when the process exits.
Opened open_at(const std::filesystem::path& file) {
  void* library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library)
    return {nullptr, fmt::format("layoutx's GPU evaluator {} could not be loaded: {}", file.string(), dlerror())};
  const auto entry = reinterpret_cast<GpuEntry>(dlsym(library, kGpuEntryPoint));
  const GpuBackend* backend = entry ? entry(kGpuInterfaceVersion) : nullptr;
  if (!backend)
    return {nullptr, fmt::format("{} is not the GPU evaluator of this layoutx (it is another build's: build or "
                                 "install them together)",
                                 file.string())};
  return {backend, ""};
}

// Beside the program (the build folder), else where it is installed, relative to the program's folder.
Opened open_module() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec)
    return {nullptr, fmt::format("layoutx's GPU evaluator {} was not looked for: the program's own path is "
                                 "unknown (/proc/self/exe: {})",
                                 LAYOUTX_GPU_MODULE, ec.message())};
  const std::filesystem::path beside = self.parent_path() / LAYOUTX_GPU_MODULE;
  const std::filesystem::path installed = (self.parent_path() / LAYOUTX_GPU_INSTALLED).lexically_normal();
  for (const auto& file : {beside, installed})
    if (std::filesystem::exists(file, ec)) return open_at(file);
  return {nullptr, fmt::format("layoutx was built with CUDA, but its GPU evaluator {} is missing: it is neither at {} "
                               "nor at {}",
                               LAYOUTX_GPU_MODULE, beside.string(), installed.string())};
}

const Opened& opened() {
  static const Opened module = open_module();
  return module;
}

const GpuBackend& backend() {
  const Opened& o = opened();
  if (!o.backend) throw Error(o.why);
  return *o.backend;
}

}  // namespace

std::string unavailable_reason() {
  const Opened& o = opened();
  return o.backend ? o.backend->unavailable_reason() : o.why;
}

std::string description() { return backend().description(); }

std::vector<Outcome> run(const std::vector<CheckSpec>& specs, std::uint64_t bitmap_bits, std::size_t first_limit) {
  return backend().run(specs, bitmap_bits, first_limit);
}

Outcome compare_host(const CheckSpec& spec, const device::OffsetSource& host, std::size_t first_limit, int threads) {
  return backend().compare_host(spec, host, first_limit,
                                [threads](std::uint64_t n) { return parts_within(n, threads); });
}

void generate(const FlatLayout& l, std::uint64_t n, const device::OffsetBlocks& sink) {
  backend().generate(l, n, fits_int32(l, n), sink);
}

void generate_lines(const FlatLayout& l, std::uint64_t n, const device::TextSink& sink) {
  backend().generate_lines(l, n, fits_int32(l, n), sink);
}

}  // namespace layoutx::device_detail::gpu
