// The table of a coordinate layout (scaled-basis strides): what `offsets`
// prints when each index maps to a coordinate rather than an offset. The
// codomain column holds CuTe's print of the coordinate (JSON: nested arrays).
#include <fmt/format.h>

#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/render.hpp"

namespace layoutx {

namespace {

// Coordinates are printed as print_tensor shows them: without static marks.
IntTuple unmarked(const IntTuple& t) {
  return transform_leaf(t, [](Int i) { return Int{i.value, false, i.basis}; });
}

std::string json_array(const IntTuple& t) {
  if (t.is_leaf()) {
    if (t.value().is_scaled_basis()) return json_array(as_arithmetic_tuple(t.value()));
    return fmt::format("{}", t.value().value);
  }
  std::string out = "[";
  for (int i = 0; i < t.rank(); ++i) {
    if (i) out += ',';
    out += json_array(t[i]);
  }
  return out + "]";
}

}  // namespace

void render_coordinate_offsets(const Layout& l, OffsetFormat format, const Sink& sink) {
  if (format == OffsetFormat::CsvSplit || format == OffsetFormat::TsvSplit)
    throw Error("--split-coords needs a layout whose offsets are integers; this one maps to coordinates");
  const std::int64_t n = size(l).value;
  // The last index has every mode at its far end: the coordinate there is where
  // the sums that CuTe refuses (or that overflow) show, before a byte is written.
  if (n > 0) evaluate_coordinate(l, dynamic_int(n - 1));
  auto domain = [&](std::int64_t i) { return unmarked(idx2crd(dynamic_int(i), l.shape)); };
  auto codomain = [&](std::int64_t i) { return unmarked(evaluate_coordinate(l, dynamic_int(i))); };
  std::string out;
  auto flush = [&] {
    if (!out.empty()) sink(out);
    out.clear();
  };
  switch (format) {
    case OffsetFormat::Csv:
      out += "index,coordinate,offset\n";
      break;
    case OffsetFormat::Tsv:
      out += "index\tcoordinate\toffset\n";
      break;
    case OffsetFormat::Json:
      out += "[\n";
      break;
    default:
      break;
  }
  for (std::int64_t i = 0; i < n; ++i) {
    switch (format) {
      case OffsetFormat::Plain:
        out += to_text(codomain(i)) + "\n";
        break;
      case OffsetFormat::Csv:
        out += fmt::format("{},\"{}\",\"{}\"\n", i, to_text(domain(i)), to_text(codomain(i)));
        break;
      case OffsetFormat::Tsv:
        out += fmt::format("{}\t{}\t{}\n", i, to_text(domain(i)), to_text(codomain(i)));
        break;
      case OffsetFormat::Json:
        out += fmt::format("{}{{\"index\":{},\"coord\":{},\"offset\":{}}}", i ? ",\n  " : "  ", i, json_array(domain(i)),
                           json_array(codomain(i)));
        break;
      case OffsetFormat::Jsonl:
        out += fmt::format("{{\"index\":{},\"coord\":{},\"offset\":{}}}\n", i, json_array(domain(i)), json_array(codomain(i)));
        break;
      case OffsetFormat::CsvSplit:
      case OffsetFormat::TsvSplit:
        break;  // refused above
    }
    if (out.size() >= (std::size_t{1} << 20)) flush();
  }
  if (format == OffsetFormat::Json) out += n > 0 ? "\n]\n" : "]\n";
  flush();
}

}  // namespace layoutx
