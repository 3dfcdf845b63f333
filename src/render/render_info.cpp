// `info`: the contract's keys, as "key: value" lines or one JSON object.
#include <fmt/format.h>

#include "layoutx/notation.hpp"
#include "layoutx/render.hpp"

namespace layoutx {

namespace {

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string render_info(const Value& v, bool json) {
  if (!v.is_layout_like() && !v.is_int_tuple())
    throw Error(fmt::format("info needs a layout, got a {} {}", kind_name(v), to_text(v)));
  const AnyLayout l = v.is_int_tuple() ? AnyLayout{make_layout(v.as_int_tuple())} : v.as_any_layout();
  const Layout& inner = inner_layout(l);
  const auto* composed = std::get_if<ComposedLayout>(&l);

  std::vector<std::pair<std::string, std::string>> rows;
  rows.emplace_back("layout", render_notation(Value::of(l)));
  rows.emplace_back("shape", to_text(inner.shape));
  if (!composed) rows.emplace_back("stride", to_text(inner.stride));
  rows.emplace_back("size", to_text(size(inner)));
  rows.emplace_back("cosize", to_text(cosize(inner)));
  rows.emplace_back("rank", to_text(static_int(inner.shape.rank())));
  rows.emplace_back("depth", to_text(static_int(depth(inner.shape))));
  if (composed) {
    rows.emplace_back("swizzle", to_text(composed->swizzle));
    rows.emplace_back("offset", to_text(composed->offset));
    rows.emplace_back("inner", to_text(inner));
  }

  std::string out;
  if (!json) {
    for (const auto& [k, val] : rows) out += fmt::format("{}: {}\n", k, val);
    return out;
  }
  out = "{";
  for (std::size_t i = 0; i < rows.size(); ++i)
    out += fmt::format("{}{}: {}", i ? ", " : "", json_string(rows[i].first), json_string(rows[i].second));
  return out + "}\n";
}

}  // namespace layoutx
