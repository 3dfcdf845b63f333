// Pictures of layouts and thread-value (TV) layouts. One model (Picture: panels
// of cells) is built from engine values, then written as SVG, as a TikZ
// document in the manner of CuTe's print_latex, or as an HTML page.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "layoutx/render.hpp"

namespace layoutx {

// Cell colours. Gray8 is CuTe's TikzColor_BWx8 (offset mod 8), Thread8 its
// TikzColor_TV (thread mod 8), Bank32 one colour per shared-memory bank.
enum class Palette { Gray8, Thread8, Bank32 };

struct PictureCell {
  std::int64_t row = 0, col = 0;         // within the panel
  std::vector<std::string> lines;        // the text in the cell, one entry per line
  std::string hover;                     // what hovering shows (index, coordinate, offset)
  std::int64_t key = -1;                 // palette entry; negative leaves the cell white
  std::int64_t index = -1, offset = -1;  // a layout's cell: its 1-D index and offset (-1 in TV pictures)
};

// A line thicker than the grid: the edge of a block of a hierarchical mode.
// Deeper levels are the edges of larger blocks and are drawn thicker.
struct PictureRule {
  bool horizontal = true;  // between rows (true) or between columns
  std::int64_t at = 0;     // the boundary: 1 .. rows-1 (or cols-1)
  int level = 1;
};

struct PicturePanel {
  std::string title;
  std::int64_t top = 0, left = 0;  // position of cell (0,0), in cells; may be negative
  std::int64_t rows = 0, cols = 0;
  std::vector<std::string> row_labels, col_labels;  // empty: no labels on that axis
  std::vector<PictureRule> rules;
  std::vector<PictureCell> cells;  // in drawing order; cells not listed stay empty
};

// What a colour means, where the colours alone would not say (one bank each).
struct LegendEntry {
  std::int64_t key = 0;  // the palette entry
  std::string label;
};

struct Picture {
  std::vector<std::string> comments;  // "Layout: ..." lines (TikZ comments, SVG description, HTML heading)
  Palette palette = Palette::Gray8;
  std::vector<PicturePanel> panels;
  std::string legend_title;  // above the legend; the legend is drawn when `legend` is not empty
  std::vector<LegendEntry> legend;
};

struct PictureOptions {
  std::int64_t max_cells = 65536;                        // cells in one picture, and in text grids of TV layouts
  const char* max_cells_option = "--max-picture-cells";  // the option that sets max_cells, for messages
  std::int64_t grid_max_cells = 1 << 20;                 // --max-cells: the global limit on grids
  ColorBy color_by = ColorBy::Offset;                    // what the colour of a layout cell follows
  int bits = 32;                                         // element width, for ColorBy::Bank
  Notation notation;                                     // of the layouts named in titles and comments
};

// A cell's colours as the writers draw them: its fill ("#rrggbb"; white for a
// negative key) and whether its text is white (on a dark fill).
struct CellColors {
  std::string fill;
  bool white_text = false;
};
CellColors cell_colors(Palette palette, std::int64_t key);

// The shared-memory bank (32 banks, 4 bytes each) of element `offset` when
// elements are `bits` wide.
std::int64_t bank_of(std::int64_t offset, int bits);

// Throws Error naming the option to raise when rows x cols cells are past either limit.
void check_picture_size(std::int64_t rows, std::int64_t cols, const PictureOptions& options);

// print_latex's picture of a layout (plain or composed): mode 0 down, mode 1
// across (rank 1: one column; rank >= 3: modes 1.. across, column-major), each
// cell holding its offset. Hierarchical modes are drawn as nested blocks, with
// each row and column labelled by its (hierarchical) coordinate in the mode.
Picture layout_picture(const AnyLayout& layout, const PictureOptions& options);

// The numbers of layout_picture's cells without their texts: the picture with
// its one panel's frame (size, labels, rules) and no cells, and each cell's
// offset and palette key, cell (m, n) at m * cols + n. Found by the offsets'
// walk rather than a coordinate per cell, for pictures redrawn at each key.
struct LayoutCells {
  Picture picture;
  std::vector<std::int64_t> offsets, keys;
};
LayoutCells layout_cells(const AnyLayout& layout, const PictureOptions& options);

// A thread-value layout over a tile, as CuTe's print_latex_tv draws it.
struct TvView {
  std::string title;        // shown above the panel ("A", "Src", ...); may be empty
  Layout tv;                // (thread, value) -> index of a tile cell
  Layout thr_id;            // thread -> the thread number shown (CuTe's ThrID); n:1 for none
  Layout tile;              // (row, col) -> index: the index each cell of the tile holds
  bool transposed = false;  // draw tile mode 1 down and mode 0 across (B in an MMA picture)
};

// The (thread, value) that owns a cell; thread is the number thr_id gives.
struct TvOwner {
  std::int64_t thread = -1, value = -1;  // -1: no (thread, value) reaches the cell
  bool owned() const { return thread >= 0; }
};

// The owner of every tile cell, row-major over (rows, cols) of `tile` (not
// transposed). Like print_latex_tv, threads are scanned in order and, for each,
// its values; the first (thread, value) to reach a cell owns it. Throws Error
// when the layout reaches an index that is no cell of the tile.
std::vector<TvOwner> tv_owners(const TvView& view, const PictureOptions& options);

Picture tv_picture(const TvView& view, const PictureOptions& options);
// print_latex(MMA_Atom / TiledMMA): C at the origin, A to its left, B (K x N) above.
Picture mma_picture(const TvView& c, const TvView& a, const TvView& b, const PictureOptions& options);
// print_latex(TiledCopy): the source and destination tiles side by side.
Picture copy_picture(const TvView& src, const TvView& dst, const PictureOptions& options);

// Text views. A grid in print_layout's frame with a "T<thread>V<value>" label
// in each cell; the inverse view lists, for each thread, the cells of its values;
// and the MMA view places B above, A left of C, as CuTe's print_layout_mma does.
std::string render_tv_grid(const TvView& view, const PictureOptions& options);
std::string render_tv_threads(const TvView& view, const PictureOptions& options);
std::string render_mma_grids(const TvView& c, const TvView& a, const TvView& b, const PictureOptions& options);

// Writers. The SVG is self-contained; the HTML page holds the SVG inline and
// shows a cell's index, coordinate and offset while the pointer is over it.
std::string render_svg(const Picture& picture);
std::string render_tikz(const Picture& picture);
std::string render_html(const Picture& picture, std::string_view title);

}  // namespace layoutx
