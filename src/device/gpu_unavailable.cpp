// The GPU backend of a build without CUDA: every request says so.
#include "backend.hpp"

namespace layoutx::device_detail::gpu {

namespace {
constexpr const char* kReason =
    "layoutx was built without CUDA (configure with -DLAYOUTX_CUDA=ON where nvcc is installed)";
}

std::string unavailable_reason() { return kReason; }
std::string description() { throw Error(kReason); }

std::vector<Outcome> run(const std::vector<CheckSpec>&, std::uint64_t, std::size_t) { throw Error(kReason); }
Outcome compare_host(const CheckSpec&, const device::OffsetSource&, std::size_t, int) { throw Error(kReason); }
void generate(const FlatLayout&, std::uint64_t, const device::OffsetBlocks&) { throw Error(kReason); }
void generate_lines(const FlatLayout&, std::uint64_t, const device::TextSink&) { throw Error(kReason); }

}  // namespace layoutx::device_detail::gpu
