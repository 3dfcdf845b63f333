#include "grid_geometry.hpp"

#include <fmt/format.h>

#include "layoutx/render.hpp"

namespace layoutx {

IntTuple GridGeometry::coordinate(std::int64_t m, std::int64_t n) const {
  if (rank == 1) return IntTuple(static_int(m));
  if (rank == 2) return IntTuple::tuple({static_int(m), static_int(n)});
  // Split the column index over modes 1..r-1, column-major; the last mode takes the rest.
  std::vector<IntTuple> c{static_int(m)};
  std::int64_t rest = n;
  for (int i = 0; i + 1 < rank; ++i) {
    const std::int64_t s = product(col_shape[i]).value;
    c.emplace_back(static_int(i + 2 == rank ? rest : rest % s));
    rest /= s;
  }
  return IntTuple(std::move(c));
}

AnyLayout drawn_layout(const Value& v) {
  if (v.kind == Value::Kind::Composed && v.composed().pointer && v.composed().pointer->sparsity == 0)
    return position_independent(v.composed());
  return *v.as_layout();
}

GridGeometry grid_geometry(const Value& v, const char* command, Notation n) {
  if (!v.is_layout_like() && !v.is_int_tuple())
    throw Error(fmt::format("{} needs a layout, got {} {}", command, a_kind_name(v), to_text(v, n)));
  GridGeometry g;
  g.notation = n;
  g.layout = drawn_layout(v);
  const IntTuple& shape = inner_layout(g.layout).shape;
  g.rank = shape.rank();
  if (g.rank == 1) {
    g.row_shape = shape;
    g.col_shape = IntTuple(static_int(1));
  } else if (g.rank == 2) {
    g.row_shape = shape[0];
    g.col_shape = shape[1];
  } else {
    g.row_shape = shape[0];
    g.col_shape = take(shape, 1, g.rank);
  }
  g.rows = product(g.row_shape).value;
  g.cols = product(g.col_shape).value;
  return g;
}

std::string grid_title(const GridGeometry& g) {
  std::string title = render_notation(Value::of(g.layout), g.notation);
  if (g.rank == 1) title += "\n(rank 1: drawn as one column, index i in row i)";
  if (g.rank >= 3)
    title += fmt::format("\n(rank {}: mode 0 down the rows; modes 1..{} across the columns, column-major)", g.rank,
                         g.rank - 1);
  return title;
}

namespace {

// One side of the window: [begin, end) within [0, count).
std::pair<std::int64_t, std::int64_t> side(const GridWindow& w, std::int64_t count, const char* option,
                                           const char* noun) {
  const std::int64_t end = w.end < 0 ? count : std::min(w.end, count);
  if (w.begin < 0 || (w.begin >= count && count > 0) || (w.end >= 0 && w.end <= w.begin))
    throw Error(fmt::format("{} {}:{} shows none of the {} {} (numbered 0 to {})", option, w.begin,
                            w.end < 0 ? std::string() : std::to_string(w.end), count, noun, count - 1));
  return {w.begin, end};
}

}  // namespace

GridSpan grid_span(std::int64_t rows, std::int64_t cols, const GridOptions& options) {
  GridSpan s;
  std::tie(s.row_begin, s.row_end) = side(options.rows, rows, "--rows", "rows");
  std::tie(s.col_begin, s.col_end) = side(options.cols, cols, "--cols", "columns");
  const std::int64_t shown_rows = s.row_end - s.row_begin, shown_cols = s.col_end - s.col_begin;
  // Each side on its own too: an empty side draws no cells, but the other side's header still would.
  if (shown_rows > options.max_cells || shown_cols > options.max_cells ||
      (shown_rows > 0 && shown_cols > options.max_cells / shown_rows))
    throw Error(
        fmt::format("the grid would have {} x {} cells, more than the limit of {} (raise it with --max-cells{})",
                    shown_rows, shown_cols, options.max_cells,
                    options.rows.whole() && options.cols.whole() ? ", or show a part with --rows/--cols" : ""));
  return s;
}

std::string window_note(const GridSpan& span, std::int64_t rows, std::int64_t cols) {
  if (span.row_begin == 0 && span.row_end == rows && span.col_begin == 0 && span.col_end == cols) return "";
  return fmt::format("\n(rows {} to {} of {}, columns {} to {} of {})", span.row_begin, span.row_end - 1, rows,
                     span.col_begin, span.col_end - 1, cols);
}

}  // namespace layoutx
