// print_layout: the layout line, then an m-by-n table of offsets.
#include <fmt/format.h>

#include "layoutx/analysis.hpp"
#include "layoutx/notation.hpp"
#include "decimal.hpp"
#include "grid_geometry.hpp"
#include "layoutx/render.hpp"

namespace layoutx {

namespace {

using render_detail::num_digits;

// Rows are handed to the sink in blocks of about a megabyte, so a grid of any
// size is never held whole.
class RowWriter {
 public:
  explicit RowWriter(const Sink& sink) : sink_(sink) {}
  std::string& text() { return text_; }
  void row_done() {
    if (text_.size() >= kBlock) flush();
  }
  void flush() {
    if (!text_.empty()) sink_(text_);
    text_.clear();
  }

 private:
  static constexpr std::size_t kBlock = std::size_t{1} << 20;
  const Sink& sink_;
  std::string text_;
};

void draw(RowWriter& w, const std::string& title, std::int64_t rows, std::int64_t cols, std::int64_t cosize,
          const std::function<std::int64_t(std::int64_t, std::int64_t)>& at) {
  const int idx_width = num_digits(cosize) + 2;
  static const std::string delim = "+-----------------------";
  const std::string rule = delim.substr(0, std::min<std::size_t>(idx_width + 1, delim.size()));
  std::string& out = w.text();
  auto border = [&] {
    out += "    ";
    for (std::int64_t n = 0; n < cols; ++n) out += rule;
    out += "+\n";
  };
  out += title;
  out += "\n    ";
  for (std::int64_t n = 0; n < cols; ++n) fmt::format_to(std::back_inserter(out), "  {:>{}} ", n, idx_width - 2);
  out += "\n";
  w.row_done();
  for (std::int64_t m = 0; m < rows; ++m) {
    border();
    fmt::format_to(std::back_inserter(out), "{:>2}  ", m);
    for (std::int64_t n = 0; n < cols; ++n) fmt::format_to(std::back_inserter(out), "| {:>{}} ", at(m, n), idx_width - 2);
    out += "|\n";
    w.row_done();
  }
  border();
  w.flush();
}

}  // namespace

void render_grid(const Value& v, const GridOptions& options, const Sink& sink) {
  if (!v.is_layout_like() && !v.is_int_tuple())
    throw Error(fmt::format("print needs a layout, got a {} {}", kind_name(v), to_text(v)));
  const AnyLayout l = drawn_layout(v);
  const Layout& inner = inner_layout(l);
  const IntTuple& shape = inner.shape;
  const int r = shape.rank();

  std::int64_t rows = 0, cols = 0;
  std::string title = render_notation(Value::of(l));
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
  // Each side on its own too: an empty side draws no cells, but the other side's header still would.
  if (rows > options.max_cells || cols > options.max_cells || (rows > 0 && cols > options.max_cells / rows))
    throw Error(fmt::format("the grid would have {} x {} cells, more than the limit of {} (raise it with --max-cells)",
                            rows, cols, options.max_cells));

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
  const std::int64_t cosize_of_l = cosize(l).value;
  require_offsets_fit(l);  // every cell can be evaluated: nothing stops half-written
  RowWriter w(sink);
  draw(w, title, rows, cols, cosize_of_l, at);
}

std::string render_grid(const Value& v, const GridOptions& options) {
  std::string out;
  render_grid(v, options, [&](std::string_view text) { out += text; });
  return out;
}

}  // namespace layoutx
