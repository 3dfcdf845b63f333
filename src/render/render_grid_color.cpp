// print_layout with coloured cells: the same frame as render_grid, with an
// ANSI background around the inside of every cell.
#include <fmt/format.h>

#include "decimal.hpp"
#include "grid_geometry.hpp"
#include "layoutx/analysis.hpp"
#include "layoutx/render.hpp"
#include "picture_palette.hpp"

namespace layoutx {

namespace {

using render_detail::num_digits;

std::string cell_color(const GridColoring& coloring, std::int64_t m, std::int64_t n, std::int64_t offset) {
  Rgb c;
  switch (coloring.by) {
    case ColorBy::Offset: c = palette_color(Palette::Thread8, offset); break;
    case ColorBy::Thread: c = palette_color(Palette::Thread8, m); break;
    case ColorBy::Value: c = palette_color(Palette::Thread8, n); break;
    case ColorBy::Bank: c = palette_color(Palette::Bank32, bank_of(offset, coloring.bits)); break;
  }
  return fmt::format("\x1b[48;5;{};30m", xterm256(c));
}

}  // namespace

void render_grid_color(const Value& v, const GridOptions& options, const GridColoring& coloring, const Sink& sink) {
  const GridGeometry g = grid_geometry(v, "print", options.notation);
  const GridSpan span = grid_span(g.rows, g.cols, options);
  if (coloring.by == ColorBy::Bank && (coloring.bits < 1 || coloring.bits > 1024))
    throw Error(fmt::format("an element of {} bits has no bank; give --bits between 1 and 1024", coloring.bits));

  const int width = num_digits(cosize(g.layout).value);
  require_offsets_fit(g.layout);  // every cell can be evaluated: nothing stops half-written
  static const std::string delim = "+-----------------------";
  const std::string rule = delim.substr(0, std::min<std::size_t>(width + 3, delim.size()));
  std::string out = grid_title(g) + window_note(span, g.rows, g.cols) + "\n    ";
  // Blocks of about a megabyte go to the sink: the grid is never held whole.
  auto row_done = [&] {
    if (out.size() < (std::size_t{1} << 20)) return;
    sink(out);
    out.clear();
  };
  auto border = [&] {
    out += "    ";
    for (std::int64_t n = span.col_begin; n < span.col_end; ++n) out += rule;
    out += "+\n";
  };
  for (std::int64_t n = span.col_begin; n < span.col_end; ++n)
    fmt::format_to(std::back_inserter(out), "  {:>{}} ", n, width);
  out += "\n";
  for (std::int64_t m = span.row_begin; m < span.row_end; ++m) {
    border();
    fmt::format_to(std::back_inserter(out), "{:>2}  ", m);
    for (std::int64_t n = span.col_begin; n < span.col_end; ++n) {
      const std::int64_t offset = g.offset(m, n).value;
      fmt::format_to(std::back_inserter(out), "|{} {:>{}} \x1b[0m", cell_color(coloring, m, n, offset), offset, width);
    }
    out += "|\n";
    row_done();
  }
  border();
  sink(out);
}

std::string render_grid_color(const Value& v, const GridOptions& options, const GridColoring& coloring) {
  std::string out;
  render_grid_color(v, options, coloring, [&](std::string_view text) { out += text; });
  return out;
}

}  // namespace layoutx
