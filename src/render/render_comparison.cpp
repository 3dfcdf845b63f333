// eq's report: the verdict, the first differing indices, and a grid in
// print_layout's style where the cells that differ show both offsets.
#include <fmt/format.h>

#include "layoutx/json_text.hpp"
#include "decimal.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/layout_walk.hpp"
#include "layoutx/render_analysis.hpp"
#include "layoutx/value.hpp"

namespace layoutx {

namespace {

using render_detail::plain;

IntTuple coordinate_of(const IntTuple& shape, std::int64_t index) {
  return transform_leaf(idx2crd(static_int(index), shape), [](Int c) { return static_int(c.value); });
}

// A layout's offsets at 1-D indices in any order (the grid reads them row by
// row): the digits of the index over the leaf modes by division, summed in
// plain 64-bit arithmetic where the walker proves every such sum equals
// evaluate's; else evaluate.
class OffsetAt {
 public:
  explicit OffsetAt(const AnyLayout& l) : layout_(l), chain_(walk::SwizzleChain::of(l)) {
    const std::vector<walk::Mode> leaves = walk::leaf_modes(inner_layout(l));
    exact_ = walk::walk_is_exact(leaves, chain_);
    if (exact_) modes_ = walk::walked_modes(leaves);
  }
  std::int64_t operator()(std::int64_t index) const {
    if (!exact_) return evaluate(layout_, IntTuple(static_int(index))).value;
    std::int64_t offset = 0;
    for (const walk::Mode& m : modes_) {
      offset += index % m.shape * m.stride;
      index /= m.shape;
    }
    return chain_.empty() ? offset : chain_(offset);
  }

 private:
  const AnyLayout& layout_;
  walk::SwizzleChain chain_;
  std::vector<walk::Mode> modes_;
  bool exact_ = false;
};

// Rows are mode 0 (rank 1: the whole layout); columns the remaining modes, column-major.
std::pair<std::int64_t, std::int64_t> grid_extent(const IntTuple& shape) {
  const std::int64_t n = product(shape).value;
  const std::int64_t rows = shape.is_leaf() || shape.rank() == 1 ? n : product(shape[0]).value;
  return {rows, rows == 0 ? 0 : n / rows};
}

std::size_t decimal_width(std::int64_t x) { return fmt::formatted_size("{}", x); }

// Two passes over the cells (the column width, then the rows), so that no
// cell is kept: memory stays flat however large the grid; rows go to the sink
// in blocks of about a megabyte.
void marked_grid(const AnyLayout& a, const AnyLayout& b, const EqualityView& view, const Sink& sink) {
  const auto [rows, cols] = grid_extent(inner_layout(a).shape);
  if (rows > 0 && cols > view.max_cells / rows) {
    sink(
        fmt::format("(grid of {} x {} cells left out: more than {}; raise --max-cells)\n", rows, cols, view.max_cells));
    return;
  }
  const OffsetAt at_a(a), at_b(b);
  std::size_t width = 1;
  for (std::int64_t i = 0; i < rows * cols; ++i) {
    const std::int64_t x = at_a(i), y = at_b(i);
    width = std::max(width, x == y ? decimal_width(x) : decimal_width(x) + 1 + decimal_width(y));
  }
  const std::string rule = fmt::format("+{}", std::string(width + 2, '-'));
  std::string out = "cells: the offset where A and B agree, A/B where they differ\n    ";
  for (std::int64_t n = 0; n < cols; ++n) out += fmt::format("  {:>{}} ", n, width);
  out += "\n";
  auto border = [&, cols = cols] {  // clang before 16 cannot capture a structured binding by reference
    out += "    ";
    for (std::int64_t n = 0; n < cols; ++n) out += rule;
    out += "+\n";
  };
  for (std::int64_t m = 0; m < rows; ++m) {
    border();
    out += fmt::format("{:>2}  ", m);
    for (std::int64_t n = 0; n < cols; ++n) {
      const std::int64_t i = m + n * rows;
      const std::int64_t x = at_a(i), y = at_b(i);
      // "| text " with the text right-aligned to the width (red where they differ, with --color).
      const bool marked = x != y && view.color;
      out += marked ? "| \x1b[1;31m" : "| ";
      if (x == y) {
        fmt::format_to(std::back_inserter(out), "{:>{}}", x, width);
      } else {
        out.append(width - std::min(width, decimal_width(x) + 1 + decimal_width(y)), ' ');
        fmt::format_to(std::back_inserter(out), "{}/{}", x, y);
      }
      out += marked ? "\x1b[0m " : " ";
    }
    out += "|\n";
    if (out.size() >= (std::size_t{1} << 20)) {
      sink(out);
      out.clear();
    }
  }
  border();
  sink(out);
}

// The i-th differing value: an offset, or a coordinate layout's coordinate as text.
std::string difference_text(std::size_t i, std::int64_t offset, const std::vector<std::string>& coordinates) {
  return i < coordinates.size() ? coordinates[i] : std::to_string(offset);
}

std::string difference_json(std::size_t i, std::int64_t offset, const std::vector<std::string>& coordinates) {
  return i < coordinates.size() ? json::quote(coordinates[i]) : std::to_string(offset);
}

}  // namespace

std::string render_comparison(const Comparison& c, const AnyLayout& a, const AnyLayout& b, const EqualityView& view) {
  std::string out;
  render_comparison(c, a, b, view, [&](std::string_view text) { out += text; });
  return out;
}

void render_comparison(const Comparison& c, const AnyLayout& a, const AnyLayout& b, const EqualityView& view,
                       const Sink& sink) {
  const IntTuple& shape = inner_layout(a).shape;
  if (view.json) {
    std::string first = "[";
    for (std::size_t i = 0; i < c.first.size(); ++i)
      first += std::string(i ? ", " : "") + json::Object()
                                                .num("index", c.first[i].index)
                                                .raw("coord", json::tuple(coordinate_of(shape, c.first[i].index)))
                                                .raw("a", difference_json(i, c.first[i].a, c.coordinates_a))
                                                .raw("b", difference_json(i, c.first[i].b, c.coordinates_b))
                                                .done();
    sink(json::Object()
             .raw("equal", json::boolean(c.equal))
             .str("mode", "functional")
             .str("a", to_text(a, view.notation))
             .str("b", to_text(b, view.notation))
             .num("size_a", c.size_a)
             .num("size_b", c.size_b)
             .num("differing", c.differing)
             .raw("counted", json::boolean(c.counted))
             .raw("first", first + "]")
             .done() +
         "\n");
    return;
  }
  std::string out = fmt::format("A: {}\nB: {}\nequal: {}\n", to_text(a, view.notation), to_text(b, view.notation),
                                c.equal ? "true" : "false");
  if (c.size_a != c.size_b) {
    sink(out + fmt::format("size: {} vs {} (the domains differ)\n", c.size_a, c.size_b));
    return;
  }
  out += fmt::format("size: {}\n", c.size_a);
  if (c.equal) {
    sink(out);
    return;
  }
  out += c.counted
             ? fmt::format("differing: {} of {} indices\n", c.differing, c.size_a)
             : fmt::format("differing: at least {} of {} indices (stopped at the --limit)\n", c.differing, c.size_a);
  out += "first differences (index, coordinate, A, B):\n";
  for (std::size_t i = 0; i < c.first.size(); ++i) {
    const Difference& d = c.first[i];
    out += fmt::format("  {}\t{}\t{}\t{}\n", d.index, plain(coordinate_of(shape, d.index)),
                       difference_text(i, d.a, c.coordinates_a), difference_text(i, d.b, c.coordinates_b));
  }
  sink(out);
  // The grid holds offsets; a coordinate layout's values are coordinates.
  if (view.grid && !is_coordinate_layout(inner_layout(a)) && !is_coordinate_layout(inner_layout(b)))
    marked_grid(a, b, view, sink);
}

std::string render_structural(bool equal, const AnyLayout& a, const AnyLayout& b, bool as_json, Notation n) {
  const Layout &la = inner_layout(a), &lb = inner_layout(b);
  auto same = [](const IntTuple& x, const IntTuple& y) {
    return transform_leaf(x, [](Int i) {
             return Int{i.value, true, i.basis};
           }) == transform_leaf(y, [](Int i) {
             return Int{i.value, true, i.basis};
           });
  };
  const bool shape = same(la.shape, lb.shape);
  const bool stride = same(la.stride, lb.stride);
  if (as_json)
    return json::Object()
               .raw("equal", json::boolean(equal))
               .str("mode", "structural")
               .str("a", to_text(a, n))
               .str("b", to_text(b, n))
               .raw("same_shape", json::boolean(shape))
               .raw("same_stride", json::boolean(stride))
               .done() +
           "\n";
  return fmt::format("A: {}\nB: {}\nequal: {} (CuTe's ==: same shape and stride{})\nshape: {}\nstride: {}\n",
                     to_text(a, n), to_text(b, n), equal ? "true" : "false",
                     a.index() == 1 || b.index() == 1 ? ", swizzle and offset" : "", shape ? "same" : "different",
                     stride ? "same" : "different");
}

}  // namespace layoutx
