// The table of a coordinate layout (scaled-basis strides): what `offsets`
// prints when each index maps to a coordinate rather than an offset. The
// codomain column holds CuTe's print of the coordinate (JSON: nested arrays).
#include <fmt/format.h>

#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/render.hpp"

namespace layoutx {

namespace {

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

// The integers of a coordinate in order, a scaled basis read as its arithmetic tuple.
void coordinate_leaves(const IntTuple& t, std::vector<std::int64_t>& out) {
  if (t.is_leaf()) {
    if (t.value().is_scaled_basis()) return coordinate_leaves(as_arithmetic_tuple(t.value()), out);
    out.push_back(t.value().value);
    return;
  }
  for (int i = 0; i < t.rank(); ++i) coordinate_leaves(t[i], out);
}

std::vector<std::int64_t> coordinate_leaves(const IntTuple& t) {
  std::vector<std::int64_t> out;
  coordinate_leaves(t, out);
  return out;
}

// `name`0, `name`1, ... for n columns; one column `name` when there are none.
std::string columns(std::string_view name, std::size_t n, std::string_view separator) {
  if (n == 0) return fmt::format("{}{}", separator, name);
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += fmt::format("{}{}{}", separator, name, i);
  return out;
}

// One column per leaf of the index's coordinate and one per leaf of the
// coordinate it maps to (every index maps to a coordinate of the same form).
std::string split_row(std::int64_t i, const IntTuple& domain, const IntTuple& codomain, std::string_view separator) {
  std::string out = std::to_string(i);
  for (const std::int64_t x : coordinate_leaves(domain)) out += fmt::format("{}{}", separator, x);
  for (const std::int64_t x : coordinate_leaves(codomain)) out += fmt::format("{}{}", separator, x);
  return out + "\n";
}

}  // namespace

void render_coordinate_offsets(const Layout& l, OffsetFormat format, const Sink& sink) {
  const std::int64_t n = size(l).value;
  // The last index has every mode at its far end: the coordinate there is where
  // the sums that CuTe refuses (or that overflow) show, before a byte is written.
  const IntTuple last = n > 0 ? evaluate_coordinate(l, dynamic_int(n - 1)) : IntTuple(std::vector<IntTuple>{});
  auto domain = [&](std::int64_t i) { return idx2crd(dynamic_int(i), l.shape); };
  auto codomain = [&](std::int64_t i) { return evaluate_coordinate(l, dynamic_int(i)); };
  // Coordinates are printed as print_tensor shows them: without static marks.
  const Notation plain{.static_marks = false};
  const std::string_view separator = format == OffsetFormat::CsvSplit ? "," : "\t";
  std::string out;
  auto flush = [&] {
    if (!out.empty()) sink(out);
    out.clear();
  };
  switch (format) {
    case OffsetFormat::Csv: out += "index,coordinate,offset\n"; break;
    case OffsetFormat::Tsv: out += "index\tcoordinate\toffset\n"; break;
    case OffsetFormat::Json: out += "[\n"; break;
    case OffsetFormat::CsvSplit:
    case OffsetFormat::TsvSplit:
      out += "index" + columns("coord", leaves(l.shape).size(), separator) +
             columns("offset", coordinate_leaves(last).size(), separator) + "\n";
      break;
    default: break;
  }
  for (std::int64_t i = 0; i < n; ++i) {
    switch (format) {
      case OffsetFormat::Plain: out += to_text(codomain(i), plain) + "\n"; break;
      case OffsetFormat::Csv:
        out += fmt::format("{},\"{}\",\"{}\"\n", i, to_text(domain(i), plain), to_text(codomain(i), plain));
        break;
      case OffsetFormat::Tsv:
        out += fmt::format("{}\t{}\t{}\n", i, to_text(domain(i), plain), to_text(codomain(i), plain));
        break;
      case OffsetFormat::Json:
        out += fmt::format("{}{{\"index\":{},\"coord\":{},\"offset\":{}}}", i ? ",\n  " : "  ", i,
                           json_array(domain(i)), json_array(codomain(i)));
        break;
      case OffsetFormat::Jsonl:
        out += fmt::format("{{\"index\":{},\"coord\":{},\"offset\":{}}}\n", i, json_array(domain(i)),
                           json_array(codomain(i)));
        break;
      case OffsetFormat::CsvSplit:
      case OffsetFormat::TsvSplit: out += split_row(i, domain(i), codomain(i), separator); break;
    }
    if (out.size() >= (std::size_t{1} << 20)) flush();
  }
  if (format == OffsetFormat::Json) out += n > 0 ? "\n]\n" : "]\n";
  flush();
}

}  // namespace layoutx
