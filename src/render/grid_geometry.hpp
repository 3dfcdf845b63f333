// Which cell of a drawn grid holds which coordinate of a layout, exactly as
// render_grid (print) lays a layout out: rank 2 as rows x columns, rank 1 as
// one column, rank >= 3 with modes 1.. across the columns, column-major.
#pragma once

#include <cstdint>
#include <string>

#include "layoutx/render.hpp"
#include "layoutx/value.hpp"

namespace layoutx {

struct GridGeometry {
  AnyLayout layout;
  int rank = 0;
  Notation notation;              // of the title
  IntTuple row_shape, col_shape;  // the modes along each axis (col_shape is 1 for rank 1)
  std::int64_t rows = 0, cols = 0;

  // The coordinate of cell (m, n) in the layout's domain.
  IntTuple coordinate(std::int64_t m, std::int64_t n) const;
  Int offset(std::int64_t m, std::int64_t n) const { return evaluate(layout, coordinate(m, n)); }
  // The column-major 1-D index of cell (m, n).
  std::int64_t index(std::int64_t m, std::int64_t n) const { return m + rows * n; }
};

// The layout print_layout draws for a value: the layout itself, but for a
// canonical shared-memory atom (Sw o smem_ptr[Nb](unset) o L) its
// position-independent form, as CuTe's print_layout overload for it does.
AnyLayout drawn_layout(const Value& v);

// Refuses values that are not layouts (a shape stands for its compact layout);
// `command` names the caller in the message.
GridGeometry grid_geometry(const Value& v, const char* command, Notation n);

// print's first lines: the layout, and for rank != 2 a note on how it is drawn.
std::string grid_title(const GridGeometry& g);

// The rows and columns a grid of `rows` x `cols` shows under the options'
// windows, each [begin, end); refuses a window past the grid's edge and more
// cells than options.max_cells.
struct GridSpan {
  std::int64_t row_begin = 0, row_end = 0, col_begin = 0, col_end = 0;
};
GridSpan grid_span(std::int64_t rows, std::int64_t cols, const GridOptions& options);
// The title's note on a window ("" when the whole grid is shown).
std::string window_note(const GridSpan& span, std::int64_t rows, std::int64_t cols);

}  // namespace layoutx
