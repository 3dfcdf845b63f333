// offsets --device: the GPU computes every offset and writes the text; the host passes it on.
#include <fmt/format.h>

#include "driver.hpp"
#include "layoutx/device.hpp"
#include "output.hpp"

namespace layoutx::cli {

int run_device_offsets(const Settings& s, const std::vector<std::string>& expressions, OffsetFormat format) {
  if (format != OffsetFormat::Plain) {
    report_error("offsets --device writes the plain format only (one offset per line)", "", 0, false);
    return kUsage;
  }
  const std::string why = device::gpu_unavailable_reason();
  if (!why.empty()) {
    report_error(fmt::format("offsets --device: {}", why), "", 0, false);
    return kRejected;
  }
  return for_each_expression(s, expressions, [&](const Value& v) {
    device::generate_offset_lines(require_layout(v, "offsets"), [](std::string_view text) { out(text); });
  });
}

}  // namespace layoutx::cli
