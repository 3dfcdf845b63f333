#include "picture_json.hpp"

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

std::string cell_json(const PictureCell& c, Palette palette, int bits) {
  const CellColors colors = cell_colors(palette, c.key);
  const std::int64_t bank = c.offset >= 0 ? bank_of(c.offset, bits) : -1;
  std::string out = "[";
  out += std::to_string(c.row) + "," + std::to_string(c.col) + "," + json::quote(joined(c.lines)) + "," +
         json::quote(c.hover) + ",\"" + colors.fill + "\"," + (colors.white_text ? "1" : "0") + "," +
         std::to_string(c.index) + "," + std::to_string(c.offset) + "," + std::to_string(bank) + "]";
  return out;
}

std::string panel_json(const PicturePanel& p, Palette palette, int bits) {
  json::Array rules, cells;
  for (const PictureRule& r : p.rules)
    rules.raw(json::Array().num(r.horizontal ? 1 : 0).num(r.at).num(r.level).done());
  for (const PictureCell& c : p.cells) cells.raw(cell_json(c, palette, bits));
  return json::Object()
      .str("title", p.title)
      .nums({{"top", p.top}, {"left", p.left}, {"rows", p.rows}, {"cols", p.cols}})
      .raw("row_labels", strings(p.row_labels))
      .raw("col_labels", strings(p.col_labels))
      .raw("rules", rules.done())
      .raw("cells", cells.done())
      .done();
}

}  // namespace

std::string picture_json(const Picture& picture, int bits) {
  json::Array panels, legend;
  for (const PicturePanel& p : picture.panels) panels.raw(panel_json(p, picture.palette, bits));
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
