// A picture as a standalone TikZ document, line for line in the manner of
// CuTe's print_latex: nodes, then the grid, then the axis labels, per panel.
// TikZ's x axis points down and y right, so (row, col) are node coordinates.
#include <fmt/format.h>

#include <algorithm>

#include "layoutx/render_picture.hpp"
#include "picture_palette.hpp"

namespace layoutx {

namespace {

void cells(std::string& out, const Picture& picture, const PicturePanel& p) {
  for (const auto& c : p.cells) {
    std::string text;
    for (std::size_t i = 0; i < c.lines.size(); ++i) text += (i ? " \\\\ " : "") + c.lines[i];
    if (c.lines.size() > 1) text = "\\shortstack{" + text + "}";
    fmt::format_to(std::back_inserter(out), "\\node[fill={}] at ({},{}) {{{}}};\n",
                   c.key >= 0 ? tikz_color(picture.palette, c.key) : "white", p.top + c.row, p.left + c.col, text);
  }
}

void grid(std::string& out, const PicturePanel& p) {
  fmt::format_to(std::back_inserter(out), "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] ({},{}) grid ({},{});\n\n",
                 p.top, p.left, p.top + p.rows, p.left + p.cols);
}

void labels(std::string& out, const PicturePanel& p) {
  for (std::size_t r = 0; r < p.row_labels.size(); ++r)
    fmt::format_to(std::back_inserter(out), "\\node at ({},{}) {{\\Large{{\\texttt{{{}}}}}}};\n",
                   p.top + static_cast<std::int64_t>(r), p.left - 1, p.row_labels[r]);
  for (std::size_t c = 0; c < p.col_labels.size(); ++c)
    fmt::format_to(std::back_inserter(out), "\\node at ({},{}) {{\\Large{{\\texttt{{{}}}}}}};\n", p.top - 1,
                   p.left + static_cast<std::int64_t>(c), p.col_labels[c]);
}

// The edges of hierarchical blocks (print_latex has none: its modes are flat).
void rules(std::string& out, const PicturePanel& p) {
  for (const auto& r : p.rules) {
    const std::string width = fmt::format("{:.1f}pt", 0.8 + 0.8 * r.level);
    if (r.horizontal)
      fmt::format_to(std::back_inserter(out),
                     "\\draw[color=black,line width={},shift={{(-0.5,-0.5)}}] ({},{}) -- ({},{});\n", width,
                     p.top + r.at, p.left, p.top + r.at, p.left + p.cols);
    else
      fmt::format_to(std::back_inserter(out),
                     "\\draw[color=black,line width={},shift={{(-0.5,-0.5)}}] ({},{}) -- ({},{});\n", width, p.top,
                     p.left + r.at, p.top + p.rows, p.left + r.at);
  }
  if (!p.rules.empty()) out += "\n";
}

void title(std::string& out, const PicturePanel& p) {
  if (p.title.empty()) return;
  const std::int64_t row = p.top - (p.col_labels.empty() ? 1 : 2);
  fmt::format_to(std::back_inserter(out), "\\node at ({},{:g}) {{\\Large{{\\textbf{{{}}}}}}};\n", row,
                 static_cast<double>(p.left) + static_cast<double>(p.cols - 1) / 2, p.title);
}

// The legend under the panels: its title, then one numbered swatch per entry, 16 to a row.
void legend(std::string& out, const Picture& picture) {
  if (picture.legend.empty()) return;
  std::int64_t row = 0;
  for (const auto& p : picture.panels) row = std::max(row, p.top + p.rows);
  row += 1;
  fmt::format_to(std::back_inserter(out), "\\node[anchor=west] at ({},-0.5) {{{}}};\n", row, picture.legend_title);
  for (std::size_t i = 0; i < picture.legend.size(); ++i) {
    const auto& e = picture.legend[i];
    const std::string label = e.label.substr(e.label.find_last_of(' ') + 1);  // "bank 5" -> 5
    fmt::format_to(std::back_inserter(out), "\\node[fill={},draw] at ({},{}) {{{}}};\n",
                   tikz_color(picture.palette, e.key), row + 1 + static_cast<std::int64_t>(i / 16), i % 16, label);
  }
  out += "\n";
}

}  // namespace

std::string render_tikz(const Picture& picture) {
  std::string out;
  for (const auto& c : picture.comments) out += "% " + c + "\n";
  out +=
      "\\documentclass[convert]{standalone}\n"
      "\\usepackage{tikz}\n\n"
      "\\begin{document}\n"
      "\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n";
  for (const auto& p : picture.panels) {
    cells(out, picture, p);
    grid(out, p);
    labels(out, p);
    rules(out, p);
    title(out, p);
  }
  legend(out, picture);
  out += "\\end{tikzpicture}\n\\end{document}\n";
  return out;
}

}  // namespace layoutx
