// A picture as a self-contained SVG: cells 40 px square, labels on the axes,
// thicker rules at the edges of hierarchical blocks.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "picture_palette.hpp"
#include "svg_writer.hpp"

namespace layoutx {

namespace {

constexpr double kCell = 40, kMargin = 12, kLabelFont = 12, kCaptionFont = 13, kTitleFont = 14;

double text_width(std::string_view s, double font) { return static_cast<double>(s.size()) * font * 0.6; }

// Coordinates are mostly whole pixels; print those without a fraction.
std::string num(double x) {
  const double whole = std::round(x);
  if (whole == x && std::fabs(x) < 1e15) return std::to_string(static_cast<long long>(whole));
  return fmt::format("{:.1f}", x);
}

struct Box {
  double x0 = std::numeric_limits<double>::max(), y0 = x0;
  double x1 = std::numeric_limits<double>::lowest(), y1 = x1;
  void add(double ax0, double ay0, double ax1, double ay1) {
    x0 = std::min(x0, ax0), y0 = std::min(y0, ay0), x1 = std::max(x1, ax1), y1 = std::max(y1, ay1);
  }
};

// Where a panel and its labels go, in picture coordinates (y down).
struct PanelGeometry {
  double x = 0, y = 0;  // top-left corner of cell (0,0)
  double row_label_width = 0;
  bool vertical_col_labels = false;
  double col_label_height = 0;  // the band above the cells the column labels take
};

double widest(const std::vector<std::string>& labels) {
  double w = 0;
  for (const auto& l : labels) w = std::max(w, text_width(l, kLabelFont));
  return w;
}

PanelGeometry place(const PicturePanel& p, Box& box) {
  PanelGeometry g;
  g.x = static_cast<double>(p.left) * kCell;
  g.y = static_cast<double>(p.top) * kCell;
  box.add(g.x, g.y, g.x + static_cast<double>(p.cols) * kCell, g.y + static_cast<double>(p.rows) * kCell);
  g.row_label_width = widest(p.row_labels);
  if (!p.row_labels.empty()) box.add(g.x - 6 - g.row_label_width, g.y, g.x, g.y);
  const double col_width = widest(p.col_labels);
  g.vertical_col_labels = col_width > kCell - 4;
  if (!p.col_labels.empty()) g.col_label_height = (g.vertical_col_labels ? col_width : kLabelFont) + 8;
  box.add(g.x, g.y - g.col_label_height, g.x, g.y);
  if (!p.title.empty())
    box.add(g.x, g.y - g.col_label_height - kTitleFont - 8, g.x + text_width(p.title, kTitleFont), g.y);
  return g;
}

void cell(std::string& out, const PictureCell& c, const PanelGeometry& g, Palette palette) {
  const double x = g.x + static_cast<double>(c.col) * kCell, y = g.y + static_cast<double>(c.row) * kCell;
  const Rgb fill = c.key >= 0 ? palette_color(palette, c.key) : Rgb{};
  std::size_t longest = 1;
  for (const auto& l : c.lines) longest = std::max(longest, l.size());
  const double lines = static_cast<double>(std::max<std::size_t>(c.lines.size(), 1));
  const double font = std::min(
      {lines > 1 ? 11.0 : 14.0, (kCell - 6) / (0.6 * static_cast<double>(longest)), (kCell - 4) / (lines * 1.15)});
  out += "<g class=\"cell\"><title>";
  append_escaped(out, c.hover);
  fmt::format_to(std::back_inserter(out), "</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
                 num(x), num(y), num(kCell), num(kCell), hex_color(fill));
  for (std::size_t i = 0; i < c.lines.size(); ++i) {
    const double cy = y + kCell / 2 + (static_cast<double>(i) - (lines - 1) / 2) * font * 1.15;
    fmt::format_to(std::back_inserter(out), "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\">{}</text>",
                   num(x + kCell / 2), num(cy), num(font), is_dark(fill) ? "white" : "black", xml_escape(c.lines[i]));
  }
  out += "</g>\n";
}

void grid(std::string& out, const PicturePanel& p, const PanelGeometry& g) {
  const double w = static_cast<double>(p.cols) * kCell, h = static_cast<double>(p.rows) * kCell;
  std::string d;
  for (std::int64_t r = 1; r < p.rows; ++r)
    d += fmt::format("M{} {}h{}", num(g.x), num(g.y + static_cast<double>(r) * kCell), num(w));
  for (std::int64_t c = 1; c < p.cols; ++c)
    d += fmt::format("M{} {}v{}", num(g.x + static_cast<double>(c) * kCell), num(g.y), num(h));
  if (!d.empty()) fmt::format_to(std::back_inserter(out), "<path d=\"{}\" stroke=\"black\" stroke-width=\"1\"/>\n", d);
  for (const auto& rule : p.rules) {
    const double at = static_cast<double>(rule.at) * kCell;
    const std::string rd = rule.horizontal ? fmt::format("M{} {}h{}", num(g.x), num(g.y + at), num(w))
                                           : fmt::format("M{} {}v{}", num(g.x + at), num(g.y), num(h));
    fmt::format_to(std::back_inserter(out), "<path d=\"{}\" stroke=\"black\" stroke-width=\"{}\"/>\n", rd,
                   num(1.5 + 1.5 * rule.level));
  }
  fmt::format_to(
      std::back_inserter(out),
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"black\" stroke-width=\"2.5\"/>\n",
      num(g.x), num(g.y), num(w), num(h));
}

void labels(std::string& out, const PicturePanel& p, const PanelGeometry& g) {
  for (std::size_t r = 0; r < p.row_labels.size(); ++r)
    fmt::format_to(std::back_inserter(out), "<text class=\"label e\" x=\"{}\" y=\"{}\">{}</text>\n", num(g.x - 6),
                   num(g.y + (static_cast<double>(r) + 0.5) * kCell), xml_escape(p.row_labels[r]));
  for (std::size_t c = 0; c < p.col_labels.size(); ++c) {
    const double cx = g.x + (static_cast<double>(c) + 0.5) * kCell;
    if (g.vertical_col_labels)
      fmt::format_to(std::back_inserter(out),
                     "<text class=\"label s\" x=\"{0}\" y=\"{1}\" "
                     "transform=\"rotate(-90 {0} {1})\">{2}</text>\n",
                     num(cx), num(g.y - 6), xml_escape(p.col_labels[c]));
    else
      fmt::format_to(std::back_inserter(out), "<text class=\"label\" x=\"{}\" y=\"{}\">{}</text>\n", num(cx),
                     num(g.y - 6 - kLabelFont / 2), xml_escape(p.col_labels[c]));
  }
  if (!p.title.empty())
    fmt::format_to(std::back_inserter(out),
                   "<text class=\"s\" x=\"{}\" y=\"{}\" font-size=\"{}\" "
                   "font-weight=\"bold\">{}</text>\n",
                   num(g.x), num(g.y - g.col_label_height - 4 - kTitleFont / 2), num(kTitleFont), xml_escape(p.title));
}

// The legend below the panels: a title, then swatches with their labels, a row of kLegendColumns at a time.
constexpr double kSwatch = 14, kLegendEntry = 84;
constexpr std::size_t kLegendColumns = 8;

double legend_height(const Picture& p) {
  if (p.legend.empty()) return 0;
  const std::size_t rows = (p.legend.size() + kLegendColumns - 1) / kLegendColumns;
  return 12 + (kCaptionFont + 5) + static_cast<double>(rows) * (kSwatch + 6);
}

double legend_width(const Picture& p) {
  if (p.legend.empty()) return 0;
  const double columns = static_cast<double>(std::min(p.legend.size(), kLegendColumns));
  return std::max(columns * kLegendEntry, text_width(p.legend_title, kCaptionFont));
}

void legend(std::string& out, const Picture& p, double x, double y) {
  out += "<g class=\"legend\">\n";
  fmt::format_to(std::back_inserter(out), "<text class=\"s\" x=\"{}\" y=\"{}\" font-size=\"{}\">{}</text>\n", num(x),
                 num(y + 12 + kCaptionFont / 2), num(kCaptionFont), xml_escape(p.legend_title));
  const double top = y + 12 + kCaptionFont + 5;
  for (std::size_t i = 0; i < p.legend.size(); ++i) {
    const double ex = x + static_cast<double>(i % kLegendColumns) * kLegendEntry;
    const double ey = top + static_cast<double>(i / kLegendColumns) * (kSwatch + 6);
    fmt::format_to(
        std::back_inserter(out),
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"black\" stroke-width=\"0.5\"/>"
        "<text class=\"s label\" x=\"{}\" y=\"{}\">{}</text>\n",
        num(ex), num(ey), num(kSwatch), num(kSwatch), hex_color(palette_color(p.palette, p.legend[i].key)),
        num(ex + kSwatch + 4), num(ey + kSwatch / 2), xml_escape(p.legend[i].label));
  }
  out += "</g>\n";
}

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string out;
  append_escaped(out, text);
  return out;
}

void append_escaped(std::string& out, std::string_view text) {
  if (text.find_first_of("&<>\"'") == std::string_view::npos &&
      std::none_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; })) {
    out += text;
    return;
  }
  for (char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // Control characters are not allowed in XML 1.0 text.
        out += static_cast<unsigned char>(ch) < 0x20 && ch != '\n' && ch != '\t' ? '?' : ch;
    }
  }
}

std::string svg_element(const Picture& picture) {
  Box box;
  std::vector<PanelGeometry> geometry;
  for (const auto& p : picture.panels) geometry.push_back(place(p, box));
  if (picture.panels.empty()) box.add(0, 0, 0, 0);
  const double caption_height = static_cast<double>(picture.comments.size()) * (kCaptionFont + 5);
  double caption_width = 0;
  for (const auto& c : picture.comments) caption_width = std::max(caption_width, text_width(c, kCaptionFont));
  const double width = std::max({box.x1 - box.x0, caption_width, legend_width(picture)}) + 2 * kMargin;
  const double height =
      box.y1 - box.y0 + caption_height + 2 * kMargin + (caption_height > 0 ? 8 : 0) + legend_height(picture);

  std::size_t cells = 0;
  for (const auto& p : picture.panels) cells += p.cells.size();
  std::string out;
  out.reserve(cells * 260 + 4096);
  out += fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n",
      num(width), num(height));
  std::string desc;
  for (const auto& c : picture.comments) desc += (desc.empty() ? "" : "; ") + c;
  fmt::format_to(std::back_inserter(out), "<desc>{}</desc>\n", xml_escape(desc));
  // Classes, not attributes: a style sheet overrides presentation attributes.
  out +=
      "<style>text{dominant-baseline:central;text-anchor:middle}.s{text-anchor:start}.e{text-anchor:end}"
      ".label{font-size:12px;fill:#333}</style>\n";
  out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  for (std::size_t i = 0; i < picture.comments.size(); ++i)
    fmt::format_to(std::back_inserter(out), "<text class=\"s\" x=\"{}\" y=\"{}\" font-size=\"{}\">{}</text>\n",
                   num(kMargin), num(kMargin + (static_cast<double>(i) + 0.5) * (kCaptionFont + 5)), num(kCaptionFont),
                   xml_escape(picture.comments[i]));
  fmt::format_to(std::back_inserter(out), "<g transform=\"translate({} {})\">\n", num(kMargin - box.x0),
                 num(kMargin + caption_height + (caption_height > 0 ? 8 : 0) - box.y0));
  for (std::size_t i = 0; i < picture.panels.size(); ++i) {
    const auto& p = picture.panels[i];
    const auto& g = geometry[i];
    fmt::format_to(std::back_inserter(out), "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"white\"/>\n",
                   num(g.x), num(g.y), num(static_cast<double>(p.cols) * kCell),
                   num(static_cast<double>(p.rows) * kCell));
    for (const auto& c : p.cells) cell(out, c, g, picture.palette);
    grid(out, p, g);
    labels(out, p, g);
  }
  if (!picture.legend.empty()) legend(out, picture, box.x0, box.y1);
  return out + "</g>\n</svg>\n";
}

std::string render_svg(const Picture& picture) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svg_element(picture);
}

}  // namespace layoutx
