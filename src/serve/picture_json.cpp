#include "picture_json.hpp"

#include <fmt/format.h>

#include <iterator>

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
  fmt::format_to(std::back_inserter(out), "[{},{},{},{},\"{}\",{},{},{},{}]", c.row, c.col, json::quote(joined(c.lines)),
                 hovers ? json::quote(c.hover) : "\"\"", colors.fill, colors.white_text ? 1 : 0, c.index, c.offset, bank);
}

std::string panel_json(const PicturePanel& p, Palette palette, int bits, bool hovers) {
  json::Array rules;
  for (const PictureRule& r : p.rules)
    rules.raw(json::Array().num(r.horizontal ? 1 : 0).num(r.at).num(r.level).done());
  std::string cells = "[";
  cells.reserve(p.cells.size() * (hovers ? 96 : 48));
  for (const PictureCell& c : p.cells) {
    if (cells.size() > 1) cells += ',';
    append_cell(cells, c, palette, bits, hovers);
  }
  cells += ']';
  return json::Object()
      .str("title", p.title)
      .nums({{"top", p.top}, {"left", p.left}, {"rows", p.rows}, {"cols", p.cols}})
      .raw("row_labels", strings(p.row_labels))
      .raw("col_labels", strings(p.col_labels))
      .raw("rules", rules.done())
      .raw("cells", cells)
      .done();
}

}  // namespace

std::string picture_json(const Picture& picture, int bits, bool hovers) {
  json::Array panels, legend;
  for (const PicturePanel& p : picture.panels) panels.raw(panel_json(p, picture.palette, bits, hovers));
  for (const LegendEntry& l : picture.legend)
    legend.raw(json::Object().str("label", l.label).str("fill", cell_colors(picture.palette, l.key).fill).done());
  return json::Object()
      .raw("comments", strings(picture.comments))
      .str("legend_title", picture.legend_title)
      .raw("legend", legend.done())
      .raw("panels", panels.done())
      .done();
}

}  // namespace layoutx::serve
