// print_layout: the layout line, then an m-by-n table of offsets.
#include <fmt/format.h>

#include <cstring>
#include <functional>
#include <optional>
#include <string_view>

#include "layoutx/analysis.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/layout_walk.hpp"
#include "layoutx/notation.hpp"
#include "decimal.hpp"
#include "grid_geometry.hpp"
#include "layoutx/render.hpp"
#include "layoutx/wide_integer.hpp"

namespace layoutx {

namespace {

using render_detail::num_digits;
using walk::Mode;
using walk::Odometer;
using walk::SwizzleChain;

// Rows are handed to the sink in blocks of about a megabyte, so a grid of any
// size is never held whole. The buffer only grows: a row is written through a
// pointer into room made for its longest text, and only what was written
// counts (no zero-filling of the room on every row).
class RowWriter {
 public:
  explicit RowWriter(const Sink& sink) : sink_(sink) {}
  void append(std::string_view text) {
    std::memcpy(room(text.size()), text.data(), text.size());
    used_ += text.size();
  }
  // Room for at least n more bytes; then commit(end of what was written).
  char* room(std::size_t n) {
    if (buffer_.size() < used_ + n) buffer_.resize(std::max(used_ + n, 2 * buffer_.size()));
    return buffer_.data() + used_;
  }
  void commit(const char* end) { used_ = static_cast<std::size_t>(end - buffer_.data()); }
  void row_done() {
    if (used_ >= kBlock) flush();
  }
  void flush() {
    if (used_ > 0) sink_(std::string_view(buffer_.data(), used_));
    used_ = 0;
  }

 private:
  static constexpr std::size_t kBlock = std::size_t{1} << 20;
  const Sink& sink_;
  std::string buffer_;
  std::size_t used_ = 0;
};

// The cells' offsets, row after row. Cell (m, n) is the layout at 1-D index
// m + rows * n (mode 0 down the rows, the other modes across, column-major),
// so where the odometer is exact the cells are a walk over the leaves with the
// column leaves least significant; otherwise the engine evaluates each cell's
// coordinate, as it does for every cell of a window (print --rows/--cols).
class CellOffsets {
 public:
  using Evaluate = std::function<std::int64_t(std::int64_t, std::int64_t)>;
  CellOffsets(const AnyLayout& l, std::int64_t rows, std::int64_t cols, bool whole, Evaluate at)
      : at_(std::move(at)), chain_(SwizzleChain::of(l)) {
    const Layout& inner = inner_layout(l);
    std::vector<Mode> leaves = walk::leaf_modes(inner);
    const std::size_t row_leaves = inner.shape.rank() >= 2 ? layoutx::leaves(inner.shape[0]).size() : leaves.size();
    std::vector<Mode> order(leaves.begin() + static_cast<std::ptrdiff_t>(row_leaves), leaves.end());
    order.insert(order.end(), leaves.begin(), leaves.begin() + static_cast<std::ptrdiff_t>(row_leaves));
    if (whole && rows > 0 && cols > 0 && walk::walk_is_exact(order, chain_)) {
      const std::vector<Mode> walked = walk::walked_modes(order);
      walk_.emplace(walked);
      first_mode_ = walked.front();
      runs_ = chain_.empty() && offsets_fit_bcd(walked);
    }
  }

  // Up to `limit` cells from the current one along the walk's first mode,
  // whose offsets are first, first + run_stride(), ...: the odometer moves
  // past them. 0 where each cell is taken by next() (a swizzle, a negative
  // stride, offsets of 16 digits or more).
  std::int64_t run(std::int64_t limit, std::int64_t& first) {
    if (!runs_) return 0;
    const std::int64_t count = std::min(limit, first_mode_.shape - walk_->digits()[0]);
    first = walk_->offset();
    for (std::int64_t k = 0; k < count; ++k) walk_->step(0);
    return count;
  }
  std::int64_t run_stride() const { return first_mode_.stride; }

  // The offset of the next cell in row-major order (m, n).
  std::int64_t next(std::int64_t m, std::int64_t n) {
    if (!walk_) return at_(m, n);
    const std::int64_t x = walk_->offset();
    walk_->step(0);
    return chain_.empty() ? x : chain_(x);
  }

 private:
  // Non-negative strides and offsets below BcdNumber's limit.
  static bool offsets_fit_bcd(const std::vector<Mode>& modes) {
    Int128 largest = 0;
    for (const Mode& m : modes) {
      if (m.stride < 0 || m.shape < 1) return false;
      largest += static_cast<Int128>(m.shape - 1) * m.stride;
    }
    return largest < static_cast<Int128>(render_detail::BcdNumber::kLimit);
  }

  Evaluate at_;
  SwizzleChain chain_;
  std::optional<Odometer> walk_;
  Mode first_mode_{1, 0};
  bool runs_ = false;
};

void draw(RowWriter& w, const std::string& title, const GridSpan& span, std::int64_t cosize, CellOffsets& cells) {
  const int idx_width = num_digits(cosize) + 2;
  static const std::string delim = "+-----------------------";
  const std::string rule = delim.substr(0, std::min<std::size_t>(idx_width + 1, delim.size()));
  std::string border = "    ";
  for (std::int64_t n = span.col_begin; n < span.col_end; ++n) border += rule;
  border += "+\n";
  std::string head = title;
  head += "\n    ";
  for (std::int64_t n = span.col_begin; n < span.col_end; ++n)
    fmt::format_to(std::back_inserter(head), "  {:>{}} ", n, idx_width - 2);
  head += "\n";
  w.append(head);
  w.row_done();
  // Each cell is "| " and its offset right-aligned in idx_width - 2 columns, then " ".
  const std::size_t width = static_cast<std::size_t>(idx_width - 2);
  const std::size_t most = std::max(width, render_detail::kMaxIntChars) + 3;
  for (std::int64_t m = span.row_begin; m < span.row_end; ++m) {
    w.append(border);
    w.append(fmt::format("{:>2}  ", m));
    // 8 bytes of slack: BcdNumber writes whole words.
    char* p = w.room(static_cast<std::size_t>(span.col_end - span.col_begin) * most + 2 + 8);
    for (std::int64_t n = span.col_begin; n < span.col_end;) {
      std::int64_t first = 0;
      const std::int64_t run = cells.run(span.col_end - n, first);
      if (run == 0) {
        // Written in place, right-aligned, its length found once.
        const std::int64_t x = cells.next(m, n++);
        *p++ = '|';
        *p++ = ' ';
        p = render_detail::put_int_aligned(p, x, width);
        *p++ = ' ';
        continue;
      }
      // A run of the walk's first mode: the offsets go up by its stride, added
      // to as decimal digits (no division per cell, as offsets does).
      render_detail::BcdNumber offset(static_cast<std::uint64_t>(first));
      const render_detail::BcdNumber stride(static_cast<std::uint64_t>(cells.run_stride()));
      for (std::int64_t k = 0; k < run; ++k) {
        if (k) offset.add(stride);
        *p++ = '|';
        *p++ = ' ';
        for (std::size_t pad = static_cast<std::size_t>(offset.length()); pad < width; ++pad) *p++ = ' ';
        p = offset.put(p);
        *p++ = ' ';
      }
      n += run;
    }
    *p++ = '|';
    *p++ = '\n';
    w.commit(p);
    w.row_done();
  }
  w.append(border);
  w.flush();
}

// The grid of a coordinate layout: print_layout's frame, each cell the
// coordinate the layout maps it to, as wide as the widest coordinate.
void draw_coordinates(RowWriter& w, const std::string& title, std::int64_t rows, std::int64_t cols,
                      const std::function<IntTuple(std::int64_t, std::int64_t)>& at) {
  std::vector<std::string> cells;
  cells.reserve(static_cast<std::size_t>(rows * cols));
  std::size_t width = 1;
  for (std::int64_t m = 0; m < rows; ++m)
    for (std::int64_t n = 0; n < cols; ++n) {
      cells.push_back(to_text(at(m, n), Notation{.static_marks = false}));  // coordinates, as print_tensor shows them
      width = std::max(width, cells.back().size());
    }
  for (std::int64_t n = 0; n < cols; ++n) width = std::max(width, fmt::formatted_size("{}", n));
  // Built in place: GCC 12 reports a false -Wrestrict for "+" + std::string(n, c).
  std::string rule(width + 3, '-');
  rule.front() = '+';
  std::string border = "    ";
  for (std::int64_t n = 0; n < cols; ++n) border += rule;
  border += "+\n";
  std::string head = title + "\n    ";
  for (std::int64_t n = 0; n < cols; ++n) fmt::format_to(std::back_inserter(head), "  {:>{}} ", n, width);
  head += "\n";
  w.append(head);
  w.row_done();
  std::string row;
  for (std::int64_t m = 0; m < rows; ++m) {
    row = border;
    fmt::format_to(std::back_inserter(row), "{:>2}  ", m);
    for (std::int64_t n = 0; n < cols; ++n)
      fmt::format_to(std::back_inserter(row), "| {:>{}} ", cells[static_cast<std::size_t>(m * cols + n)], width);
    row += "|\n";
    w.append(row);
    w.row_done();
  }
  w.append(border);
  w.flush();
}

}  // namespace

void render_grid(const Value& v, const GridOptions& options, const Sink& sink) {
  if (!v.is_layout_like() && !v.is_int_tuple())
    throw Error(fmt::format("print needs a layout, got {} {}", a_kind_name(v), to_text(v, options.notation)));
  const AnyLayout l = drawn_layout(v);
  const Layout& inner = inner_layout(l);
  const IntTuple& shape = inner.shape;
  const int r = shape.rank();

  std::int64_t rows = 0, cols = 0;
  std::string title = render_notation(Value::of(l), options.notation);
  if (r == 2) {
    rows = product(shape[0]).value;
    cols = product(shape[1]).value;
  } else if (r == 1) {
    rows = product(shape).value;
    cols = 1;
    title += "\n(rank 1: drawn as one column, index i in row i)";
  } else {
    rows = product(shape[0]).value;
    cols = product(take(shape, 1, r)).value;
    title += fmt::format("\n(rank {}: mode 0 down the rows; modes 1..{} across the columns, column-major)", r, r - 1);
  }
  const GridSpan span = grid_span(rows, cols, options);
  title += window_note(span, rows, cols);

  auto at = [&](std::int64_t m, std::int64_t n) {
    IntTuple coord = r == 1 ? IntTuple(static_int(m)) : IntTuple::tuple({static_int(m), static_int(n)});
    if (r >= 3) {
      // Split the column index over modes 1..r-1 (column-major).
      std::vector<IntTuple> c{static_int(m)};
      std::int64_t rest = n;
      for (int i = 1; i < r; ++i) {
        const std::int64_t s = product(shape[i]).value;
        c.emplace_back(static_int(i + 1 == r ? rest : rest % s));
        rest /= s;
      }
      coord = IntTuple(std::move(c));
    }
    return evaluate(l, coord).value;
  };
  if (const auto* plain = std::get_if<Layout>(&l); plain && is_coordinate_layout(*plain)) {
    title += "\n(a coordinate layout: each cell holds the coordinate it maps to)";
    auto crd = [&](std::int64_t m, std::int64_t n) {
      IntTuple coord = r == 1 ? IntTuple(dynamic_int(m)) : IntTuple::tuple({dynamic_int(m), dynamic_int(n)});
      if (r >= 3) {
        std::vector<IntTuple> c{dynamic_int(m)};
        std::int64_t rest = n;
        for (int i = 1; i < r; ++i) {
          const std::int64_t s = product(shape[i]).value;
          c.emplace_back(dynamic_int(i + 1 == r ? rest : rest % s));
          rest /= s;
        }
        coord = IntTuple(std::move(c));
      }
      return evaluate_coordinate(*plain, coord);
    };
    RowWriter w(sink);
    draw_coordinates(w, title, rows, cols, crd);
    return;
  }
  const std::int64_t cosize_of_l = cosize(l).value;
  require_offsets_fit(l);  // every cell can be evaluated: nothing stops half-written
  CellOffsets cells(l, rows, cols, options.rows.whole() && options.cols.whole(), at);
  RowWriter w(sink);
  draw(w, title, span, cosize_of_l, cells);
}

std::string render_grid(const Value& v, const GridOptions& options) {
  std::string out;
  render_grid(v, options, [&](std::string_view text) { out += text; });
  return out;
}

}  // namespace layoutx
