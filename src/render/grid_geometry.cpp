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
  if (v.kind == Value::Kind::Composed && v.composed.pointer && v.composed.pointer->sparsity == 0)
    return position_independent(v.composed);
  return *v.as_layout();
}

GridGeometry grid_geometry(const Value& v, const char* command) {
  if (!v.is_layout_like() && !v.is_int_tuple())
    throw Error(fmt::format("{} needs a layout, got a {} {}", command, kind_name(v), to_text(v)));
  GridGeometry g;
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
  std::string title = render_notation(Value::of(g.layout));
  if (g.rank == 1) title += "\n(rank 1: drawn as one column, index i in row i)";
  if (g.rank >= 3)
    title += fmt::format("\n(rank {}: mode 0 down the rows; modes 1..{} across the columns, column-major)", g.rank,
                         g.rank - 1);
  return title;
}

}  // namespace layoutx
