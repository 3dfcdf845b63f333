#include "picture_json.hpp"

#include <fmt/format.h>

#include <iterator>
#include <map>

#include "layoutx/json_text.hpp"

namespace layoutx::serve {

namespace {

std::string strings(const std::vector<std::string>& list) {
  json::Array a;
  for (const auto& s : list) a.raw(json::quote(s));
  return a.done();
}

// A cell's lines joined by newlines: the page writes them one under the other.
std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += (s.empty() ? "" : "\n") + l;
  return s;
}

// Cells are most of a picture's text: written straight into one string.
void append_cell(std::string& out, const PictureCell& c, Palette palette, int bits, bool hovers) {
  const CellColors colors = cell_colors(palette, c.key);
  const std::int64_t bank = c.offset >= 0 ? bank_of(c.offset, bits) : -1;
  fmt::format_to(std::back_inserter(out), "[{},{},{},{},\"{}\",{},{},{},{}]", c.row, c.col,
                 json::quote(joined(c.lines)), hovers ? json::quote(c.hover) : "\"\"", colors.fill,
                 colors.white_text ? 1 : 0, c.index, c.offset, bank);
}

std::string panel_json(const PicturePanel& p, std::string_view cells_key, const std::string& cells) {
  json::Array rules;
  for (const PictureRule& r : p.rules) rules.raw(json::Array().num(r.horizontal ? 1 : 0).num(r.at).num(r.level).done());
  return json::Object()
      .str("title", p.title)
      .nums({{"top", p.top}, {"left", p.left}, {"rows", p.rows}, {"cols", p.cols}})
      .raw("row_labels", strings(p.row_labels))
      .raw("col_labels", strings(p.col_labels))
      .raw("rules", rules.done())
      .raw(cells_key, cells)
      .done();
}

std::string cells_json(const PicturePanel& p, Palette palette, int bits, bool hovers) {
  std::string cells = "[";
  cells.reserve(p.cells.size() * (hovers ? 96 : 48));
  for (const PictureCell& c : p.cells) {
    if (cells.size() > 1) cells += ',';
    append_cell(cells, c, palette, bits, hovers);
  }
  return cells + ']';
}

std::string legend_json(const Picture& picture) {
  json::Array legend;
  for (const LegendEntry& l : picture.legend)
    legend.raw(json::Object().str("label", l.label).str("fill", cell_colors(picture.palette, l.key).fill).done());
  return legend.done();
}

void append_numbers(std::string& out, const std::vector<std::int64_t>& numbers) {
  out += '[';
  for (std::size_t k = 0; k < numbers.size(); ++k) {
    if (k) out += ',';
    fmt::format_to(std::back_inserter(out), "{}", numbers[k]);
  }
  out += ']';
}

// Each distinct key once, as [fill, white_text], and every cell's entry in that list.
std::string grid_json(const LayoutCells& l, int bits) {
  std::map<std::int64_t, std::int64_t> entry;  // key -> its place in the fills
  std::vector<std::int64_t> fill(l.keys.size()), bank(l.offsets.size());
  json::Array fills;
  for (std::size_t k = 0; k < l.keys.size(); ++k) {
    const auto [it, added] = entry.try_emplace(l.keys[k], static_cast<std::int64_t>(entry.size()));
    if (added) {
      const CellColors c = cell_colors(l.picture.palette, l.keys[k]);
      fills.raw(json::Array().raw(json::quote(c.fill)).num(c.white_text ? 1 : 0).done());
    }
    fill[k] = it->second;
    bank[k] = l.offsets[k] >= 0 ? bank_of(l.offsets[k], bits) : -1;
  }
  std::string out = "{\"fills\": " + fills.done() + ", \"fill\": ";
  out.reserve(l.offsets.size() * 16);
  append_numbers(out, fill);
  out += ", \"offset\": ";
  append_numbers(out, l.offsets);
  out += ", \"bank\": ";
  append_numbers(out, bank);
  return out + '}';
}

}  // namespace

std::string picture_json(const Picture& picture, int bits, bool hovers) {
  json::Array panels;
  for (const PicturePanel& p : picture.panels)
    panels.raw(panel_json(p, "cells", cells_json(p, picture.palette, bits, hovers)));
  return json::Object()
      .raw("comments", strings(picture.comments))
      .str("legend_title", picture.legend_title)
      .raw("legend", legend_json(picture))
      .raw("panels", panels.done())
      .done();
}

std::string layout_grid_json(const LayoutCells& cells, int bits) {
  const Picture& picture = cells.picture;
  return json::Object()
      .raw("comments", strings(picture.comments))
      .str("legend_title", picture.legend_title)
      .raw("legend", legend_json(picture))
      .raw("panels", json::Array().raw(panel_json(picture.panels.front(), "grid", grid_json(cells, bits))).done())
      .done();
}

}  // namespace layoutx::serve
