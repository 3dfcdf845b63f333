// offsets: the offset of every index, one per line, or a table with the
// index and coordinate columns; --device computes them on the GPU.
#include <fmt/format.h>

#include "driver.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/device.hpp"
#include "io/output.hpp"

namespace layoutx::cli {

namespace {

OffsetFormat parse_format(const std::string& f, bool split) {
  if (f == "csv") return split ? OffsetFormat::CsvSplit : OffsetFormat::Csv;
  if (f == "tsv") return split ? OffsetFormat::TsvSplit : OffsetFormat::Tsv;
  if (f == "json") return OffsetFormat::Json;
  if (f == "jsonl") return OffsetFormat::Jsonl;
  return OffsetFormat::Plain;
}

// A coordinate layout's coordinates are its offsets' counterpart; a swizzle
// composed with it would act on a coordinate, which no swizzle does.
AnyLayout offsets_layout(const Value& v, Notation n) {
  AnyLayout l = require_layout(v, "offsets", n);
  if (std::holds_alternative<ComposedLayout>(l) && is_coordinate_layout(inner_layout(l)))
    throw Error(
        fmt::format("offsets: {} composes a swizzle with a coordinate layout (scaled-basis strides); a swizzle "
                    "acts on offsets, not on coordinates",
                    to_text(l, n)));
  return l;
}

// --device: the GPU computes every offset and writes the text; the host passes it on.
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
    device::generate_offset_lines(require_offset_layout(v, "offsets --device", notation(s)),
                                  [](std::string_view text) { out(text); });
  });
}

}  // namespace

Command register_offsets(CLI::App* sub, Settings& s) {
  auto exprs = std::make_shared<std::vector<std::string>>();
  auto format = std::make_shared<std::string>("plain");
  sub->add_option("-f,--format", *format, "Table format: plain, csv, tsv, json, jsonl (with index and coordinate)")
      ->check(CLI::IsMember({"plain", "csv", "tsv", "json", "jsonl"}));
  auto split = std::make_shared<bool>(false);
  sub->add_flag("--split-coords", *split,
                "With -f csv or tsv: one column per leaf of the coordinate (coord0, coord1, ...) instead of one");
  auto device = std::make_shared<bool>(false);
  sub->add_flag("--device", *device, "Compute the offsets on the CUDA GPU (plain format)");
  add_expressions(sub, *exprs);
  return {sub, [&s, exprs, format, split, device] {
            if (*split && *format != "csv" && *format != "tsv") {
              report_error("--split-coords splits the coordinate column of -f csv and -f tsv", "", 0, false);
              return kUsage;
            }
            const OffsetFormat f = parse_format(*format, *split);
            if (*device) return run_device_offsets(s, *exprs, f);
            return for_each_expression(s, *exprs, [&](const Value& v) {
              render_offsets(offsets_layout(v, notation(s)), f, [](std::string_view chunk) { out(chunk); });
            });
          }};
}

}  // namespace layoutx::cli
