// `info`: the fixed keys first (shape, stride, size, cosize, rank,
// depth: outside checks read them), then the offset function's properties,
// as "key: value" lines or one JSON object.
#include <fmt/format.h>

#include "layoutx/json_text.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/render.hpp"
#include "layoutx/render_analysis.hpp"
#include "layoutx/wide_integer.hpp"

namespace layoutx {

namespace {

struct Row {
  std::string key, text, json;
};

Row text_row(std::string key, std::string value) {
  std::string quoted = json::quote(value);
  return Row{std::move(key), std::move(value), std::move(quoted)};
}

// A count: CuTe's text (with its static mark) on a line, a JSON number in JSON.
Row number_row(std::string key, Int value, Notation n) {
  return Row{std::move(key), to_text(value, n), std::to_string(value.value)};
}

// The properties never make info fail: what cannot be computed is said so.
void add_properties(std::vector<Row>& rows, const AnyLayout& l, bool tv, Notation n) {
  try {
    for (auto& p : property_rows(l, tv)) rows.push_back(Row{std::move(p.key), std::move(p.text), std::move(p.json)});
  } catch (const Error& e) {
    if (tv) throw;  // asked for explicitly: the reason is the answer
    rows.push_back(text_row("properties", fmt::format("unavailable: {}", e.message(n))));
  }
}

// CuTe's cosize is 1 + the sum of (s-1)*|d|; with strides of opposite signs
// it can leave 64 bits while every offset fits, and info still answers
// (in words: JSON readers hold no such number).
Row cosize_row(const Layout& l, Notation n) {
  try {
    return number_row("cosize", cosize(l), n);
  } catch (const Error&) {
    Int128 sum = 1;
    const std::vector<Int> s = leaves(l.shape), d = leaves(l.stride);
    for (std::size_t i = 0; i < s.size(); ++i) {
      const Int128 stride = d[i].value;
      sum += (Int128{s[i].value} - 1) * (stride < 0 ? -stride : stride);
    }
    std::string digits;
    for (UInt128 u = static_cast<UInt128>(sum < 0 ? -sum : sum); u != 0 || digits.empty(); u /= 10)
      digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    return text_row("cosize",
                    fmt::format("{}{} (past 64 bits: CuTe's int64_t cosize overflows)", sum < 0 ? "-" : "", digits));
  }
}

void add_offset_rows(std::vector<Row>& rows, const AnyLayout& l, const Layout& inner, const ComposedLayout* composed,
                     const InfoOptions& options);

}  // namespace

std::string render_info(const Value& v, const InfoOptions& options) {
  if (!v.is_layout_like() && !v.is_int_tuple())
    throw Error(fmt::format("info needs a layout, got {} {}", a_kind_name(v), to_text(v, options.notation)));
  const AnyLayout l = *v.as_layout();
  const Layout& inner = inner_layout(l);
  const auto* composed = std::get_if<ComposedLayout>(&l);

  std::vector<Row> rows;
  const Notation n = options.notation;
  rows.push_back(text_row("layout", render_notation(Value::of(l), n)));
  if (!composed && is_coordinate_layout(inner)) {
    // Scaled-basis strides: the layout maps to coordinates, and the offset properties do not apply.
    rows.push_back(text_row("shape", to_text(inner.shape, n)));
    rows.push_back(text_row("stride", to_text(inner.stride, n)));
    rows.push_back(text_row("size", to_text(size(inner), n)));
    rows.push_back(text_row("cosize", to_text(coordinate_cosize(inner), n)));
    rows.push_back(text_row("rank", to_text(static_int(inner.shape.rank()), n)));
    rows.push_back(text_row("depth", to_text(static_int(depth(inner.shape)), n)));
    rows.push_back(text_row("coshape", to_text(coordinate_coshape(inner), n)));
    rows.push_back(text_row("codomain", "coordinates (scaled-basis strides: L(i) is a coordinate, not an offset)"));
  } else {
    add_offset_rows(rows, l, inner, composed, options);
  }

  std::string out;
  if (!options.json) {
    for (const auto& r : rows) out += fmt::format("{}: {}\n", r.key, r.text);
    return out;
  }
  json::Object o;
  for (const auto& r : rows) o.raw(r.key, r.json);
  return o.done() + "\n";
}

namespace {

void add_offset_rows(std::vector<Row>& rows, const AnyLayout& l, const Layout& inner, const ComposedLayout* composed,
                     const InfoOptions& options) {
  const Notation n = options.notation;
  rows.push_back(text_row("shape", to_text(inner.shape, n)));
  if (!composed) rows.push_back(text_row("stride", to_text(inner.stride, n)));
  rows.push_back(number_row("size", size(inner), n));
  rows.push_back(cosize_row(inner, n));
  rows.push_back(number_row("rank", static_int(inner.shape.rank()), n));
  rows.push_back(number_row("depth", static_int(depth(inner.shape)), n));
  if (composed) {
    rows.push_back(text_row("swizzle", to_text(composed->swizzle)));
    rows.push_back(number_row("offset", composed->offset, n));
    rows.push_back(text_row("inner", to_text(inner, n)));
  }
  add_properties(rows, l, options.tv, n);
}

}  // namespace

}  // namespace layoutx
