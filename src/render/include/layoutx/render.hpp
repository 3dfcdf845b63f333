// Renderers: read engine values and produce text. They never parse.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "layoutx/value.hpp"

namespace layoutx {

// CuTe's print text of a value, in the notation asked for.
std::string render_notation(const Value& v, Notation n);
// The same appended to `out`.
void append_notation(std::string& out, const Value& v, Notation n);

// Rows or columns [begin, end) of a grid (print --rows/--cols); end -1 is the last.
struct GridWindow {
  std::int64_t begin = 0, end = -1;
  bool whole() const { return begin == 0 && end == -1; }
};

struct GridOptions {
  std::int64_t max_cells = std::int64_t{1} << 20;  // larger grids are refused (--max-cells)
  // A window of the grid: its cells keep their row and column numbers, and
  // the limit counts only the cells shown.
  GridWindow rows, cols;
  Notation notation;  // of the title (cells are offsets, which carry no marks)
};

// CuTe's print_layout for rank-2 layouts and composed layouts, byte for byte;
// rank 1 is drawn as a column (as CuTe's print_latex pads it), rank >= 3 with
// mode 0 down the rows and the remaining modes, column-major, across.
std::string render_grid(const Value& v, const GridOptions& options);

// CsvSplit and TsvSplit give each leaf of the coordinate its own column (coord0, coord1, ...).
enum class OffsetFormat { Plain, Csv, Tsv, Json, Jsonl, CsvSplit, TsvSplit };

// Stream the offset table of a layout, index 0..size-1 in CuTe's column-major
// order, through `sink` in large chunks; never holds the whole table.
// Plain: one offset per line. The others: index, coordinate, offset.
using Sink = std::function<void(std::string_view)>;
void render_offsets(const AnyLayout& l, OffsetFormat format, const Sink& sink);
// The same table for a coordinate layout (scaled-basis strides): each index's
// coordinate in the offset column (render_offsets hands such a layout here).
void render_coordinate_offsets(const Layout& l, OffsetFormat format, const Sink& sink);

// The numbers render_offsets writes, before they become text: the offsets of
// l's indices [lo, hi) in index order, through `sink` a block at a time (what
// `check` compares, a range at a time on every core). 0 <= lo <= hi <= size.
using OffsetValueSink = std::function<void(const std::int64_t* offsets, std::size_t count)>;
void stream_offset_values(const AnyLayout& l, std::int64_t lo, std::int64_t hi, const OffsetValueSink& sink);

// shape/stride/size/cosize/rank/depth, as text lines or a JSON object.
// The same lines first, then the offset function's properties (injective,
// surjective, ..., max_common_vector); `tv` adds the thread-value ones.
struct InfoOptions {
  bool json = false;
  bool tv = false;  // mode 0 is the thread, mode 1 the value
  Notation notation;
};
std::string render_info(const Value& v, const InfoOptions& options);

// What a cell's colour follows (print --color-by): its offset; its row (the
// thread, when the layout maps (thread, value) to offsets); its column (the
// value); or the shared-memory bank (32 banks of 4 bytes) of its offset, for
// elements `bits` wide.
enum class ColorBy { Offset, Thread, Value, Bank };
struct GridColoring {
  ColorBy by = ColorBy::Offset;
  int bits = 32;
};

// render_grid with an ANSI background colour on every cell. With the escape
// sequences removed it is byte-identical to render_grid.
std::string render_grid_color(const Value& v, const GridOptions& options, const GridColoring& coloring);

// The same two grids handed to `sink` a block of rows at a time (never held
// whole); every check is made before the first byte goes out.
void render_grid(const Value& v, const GridOptions& options, const Sink& sink);
void render_grid_color(const Value& v, const GridOptions& options, const GridColoring& coloring, const Sink& sink);

}  // namespace layoutx
