// print_latex's picture of a layout, with hierarchical modes drawn as nested
// blocks and each row and column labelled by its coordinate in its mode.
#include <fmt/format.h>

#include "decimal.hpp"
#include "grid_geometry.hpp"
#include "layoutx/render_picture.hpp"
#include "picture_palette.hpp"

namespace layoutx {

namespace {

using render_detail::plain;

std::vector<std::string> axis_labels(const IntTuple& shape, std::int64_t n) {
  std::vector<std::string> labels;
  labels.reserve(static_cast<std::size_t>(std::max<std::int64_t>(n, 0)));  // a negative extent draws nothing
  for (std::int64_t i = 0; i < n; ++i)
    labels.push_back(shape.is_leaf() ? std::to_string(i) : plain(idx2crd(static_int(i), shape)));
  return labels;
}

// The edges of the blocks of a hierarchical mode: with leaves s0, s1, ... (s0
// fastest), a boundary b gets one level for each prefix product s0*..*sj
// (j below the last leaf) that divides it, so larger blocks have thicker edges.
void add_rules(std::vector<PictureRule>& rules, const IntTuple& shape, std::int64_t extent, bool horizontal) {
  const std::vector<Int> sizes = leaves(shape);
  std::vector<std::int64_t> prefix;
  std::int64_t p = 1;
  for (std::size_t j = 0; j + 1 < sizes.size(); ++j) {
    p *= sizes[j].value;
    if (p > 1 && p < extent) prefix.push_back(p);
  }
  if (prefix.empty()) return;
  for (std::int64_t b = 1; b < extent; ++b) {
    int level = 0;
    for (std::int64_t q : prefix) level += b % q == 0;
    if (level > 0) rules.push_back({horizontal, b, level});
  }
}

std::int64_t cell_key(ColorBy by, int bits, std::int64_t m, std::int64_t n, std::int64_t offset) {
  switch (by) {
    case ColorBy::Offset: return offset;
    case ColorBy::Thread: return m;
    case ColorBy::Value: return n;
    case ColorBy::Bank: return bank_of(offset, bits);
  }
  return offset;
}

Palette palette_for(ColorBy by) {
  if (by == ColorBy::Bank) return Palette::Bank32;
  return by == ColorBy::Offset ? Palette::Gray8 : Palette::Thread8;
}

// print_latex shows a rank-1 layout as append<2>(layout, 1:0).
std::string comment_for(const GridGeometry& g) {
  if (g.rank == 1 && std::holds_alternative<Layout>(g.layout))
    return "Layout: " + render_notation(Value::of(append_to_rank(std::get<Layout>(g.layout), 2)), g.notation);
  return "Layout: " + render_notation(Value::of(g.layout), g.notation);
}

}  // namespace

void check_picture_size(std::int64_t rows, std::int64_t cols, const PictureOptions& options) {
  // Each side is checked too: an empty side makes no cells but could still be walked.
  auto over = [&](std::int64_t limit) { return rows > limit || cols > limit || (rows > 0 && cols > limit / rows); };
  const char* what = "the picture would have {} x {} cells, more than the limit of {} (raise it with {})";
  if (over(options.grid_max_cells))
    throw Error(fmt::format(fmt::runtime(what), rows, cols, options.grid_max_cells, "--max-cells"));
  if (over(options.max_cells))
    throw Error(fmt::format(fmt::runtime(what), rows, cols, options.max_cells, options.max_cells_option));
}

// One entry per bank the cells reach, in bank order.
void add_bank_legend(Picture& picture, const std::vector<std::int64_t>& keys, int bits) {
  std::vector<bool> reached(32, false);
  for (const std::int64_t key : keys)
    if (key >= 0 && key < 32) reached[static_cast<std::size_t>(key)] = true;
  picture.legend_title =
      fmt::format("colour: the shared-memory bank of the offset ({}-bit elements, 32 banks of 4 bytes)", bits);
  for (std::int64_t b = 0; b < 32; ++b)
    if (reached[static_cast<std::size_t>(b)]) picture.legend.push_back({b, fmt::format("bank {}", b)});
}

LayoutCells layout_cells(const AnyLayout& layout, const PictureOptions& options) {
  const GridGeometry g = grid_geometry(Value::of(layout), "draw", options.notation);
  check_picture_size(g.rows, g.cols, options);
  if (options.color_by == ColorBy::Bank && (options.bits < 1 || options.bits > 1024))
    throw Error(fmt::format("an element of {} bits has no bank; give --bits between 1 and 1024", options.bits));

  LayoutCells out;
  Picture& picture = out.picture;
  picture.palette = palette_for(options.color_by);
  picture.comments.push_back(comment_for(g));
  PicturePanel panel;
  panel.rows = g.rows;
  panel.cols = g.cols;
  panel.row_labels = axis_labels(g.row_shape, g.rows);
  panel.col_labels = axis_labels(g.col_shape, g.cols);
  add_rules(panel.rules, g.row_shape, g.rows, true);
  add_rules(panel.rules, g.col_shape, g.cols, false);
  picture.panels.push_back(std::move(panel));
  if (g.rows <= 0 || g.cols <= 0) return out;  // no cells (a product of two negative extents is no count)

  // Cell (m, n) holds 1-D index m + rows * n: the walk's order is the columns'.
  const auto cells = static_cast<std::size_t>(g.rows * g.cols), rows = static_cast<std::size_t>(g.rows),
             cols = static_cast<std::size_t>(g.cols);
  out.offsets.resize(cells);
  std::size_t index = 0;
  stream_offset_values(g.layout, 0, g.rows * g.cols, [&](const std::int64_t* offsets, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k, ++index) out.offsets[(index % rows) * cols + index / rows] = offsets[k];
  });
  out.keys.resize(cells);
  for (std::size_t k = 0; k < cells; ++k)
    out.keys[k] = cell_key(options.color_by, options.bits, static_cast<std::int64_t>(k / cols),
                           static_cast<std::int64_t>(k % cols), out.offsets[k]);
  if (options.color_by == ColorBy::Bank) add_bank_legend(picture, out.keys, options.bits);
  return out;
}

Picture layout_picture(const AnyLayout& layout, const PictureOptions& options) {
  LayoutCells l = layout_cells(layout, options);
  PicturePanel& panel = l.picture.panels.front();
  const IntTuple shape = inner_layout(drawn_layout(Value::of(layout))).shape;
  panel.cells.reserve(l.offsets.size());
  for (std::size_t k = 0; k < l.offsets.size(); ++k) {
    PictureCell cell;
    cell.row = static_cast<std::int64_t>(k) / panel.cols;
    cell.col = static_cast<std::int64_t>(k) % panel.cols;
    cell.index = cell.row + panel.rows * cell.col;
    cell.offset = l.offsets[k];
    cell.key = l.keys[k];
    cell.lines.push_back(std::to_string(cell.offset));
    cell.hover = fmt::format("index {}  coordinate {}  offset {}", cell.index,
                             plain(idx2crd(static_int(cell.index), shape)), cell.offset);
    panel.cells.push_back(std::move(cell));
  }
  return std::move(l.picture);
}

}  // namespace layoutx
