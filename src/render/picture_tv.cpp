// Thread-value pictures: who owns each cell of a tile (print_latex_tv), and the
// MMA (print_latex(MMA_Atom)) and copy (print_latex(TiledCopy)) arrangements.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "layoutx/layout_walk.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/render_picture.hpp"
#include "tv_scan.hpp"

namespace layoutx {

namespace {

// Offsets of the 1-D indices of a layout mode: a layout is linear in its
// modes, so L(t, v) = L0(t) + L1(v) and only T + V evaluations are needed.
std::vector<std::int64_t> mode_offsets(const Layout& l, int mode) {
  return layout_offsets(l.shape.rank() > mode ? get(l, mode) : trivial_layout(), INT64_MAX);
}

}  // namespace

std::vector<std::int64_t> layout_offsets(const Layout& l, std::int64_t count) {
  const std::int64_t n = std::min(size(l).value, count);
  std::vector<std::int64_t> out(
      static_cast<std::size_t>(std::max<std::int64_t>(n, 0)));  // a negative size has no cells
  const std::vector<walk::Mode> modes = walk::leaf_modes(l);
  if (n > 0 && walk::walk_is_exact(modes, walk::SwizzleChain::of(AnyLayout(l)))) {
    walk::Odometer od(walk::walked_modes(modes));
    for (std::int64_t i = 0; i < n; ++i, od.step()) out[static_cast<std::size_t>(i)] = od.offset();
    return out;
  }
  for (std::int64_t i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = evaluate(l, IntTuple(static_int(i))).value;
  return out;
}

std::vector<std::int64_t> thread_numbers(const Layout& thr_id, std::int64_t threads) {
  std::vector<std::int64_t> out = layout_offsets(thr_id, threads);
  for (auto t = static_cast<std::int64_t>(out.size()); t < threads; ++t)
    out.push_back(evaluate(thr_id, IntTuple(static_int(t))).value);
  return out;
}

TileExtent tile_extent(const Layout& tile, Notation n) {
  if (tile.shape.rank() > 2)
    throw Error(
        fmt::format("a tile has one or two modes (rows, columns); {} has {}", to_text(tile, n), tile.shape.rank()));
  return {size(tile.shape.rank() == 2 ? get(tile, 0) : tile).value,
          tile.shape.rank() == 2 ? size(get(tile, 1)).value : 1};
}

TvScan scan_tv(const TvView& view, const PictureOptions& options) {
  if (view.tv.shape.rank() != 2)
    throw Error(fmt::format("a TV layout has two modes, (thread, value); {} has {}", to_text(view.tv, options.notation),
                            view.tv.shape.rank()));
  TvScan scan;
  scan.extent = tile_extent(view.tile, options.notation);
  check_picture_size(scan.extent.rows, scan.extent.cols, options);
  const std::int64_t threads = size(get(view.tv, 0)).value, values = size(get(view.tv, 1)).value;
  // Broadcast layouts (stride-0 threads) reach each cell many times; allow that, within reason.
  const std::int64_t budget = std::max<std::int64_t>(options.max_cells, 1) * 256;
  if (threads > budget || values > budget || (threads > 0 && values > budget / threads))
    throw Error(
        fmt::format("the TV layout has {} x {} (thread, value) pairs, more than the {} allowed "
                    "(256 per cell of the limit; raise it with {})",
                    threads, values, budget, options.max_cells_option));

  const auto tile_rows = mode_offsets(view.tile, 0), tile_cols = mode_offsets(view.tile, 1);
  std::unordered_map<std::int64_t, std::int64_t> claim;                  // index -> position in scan.order, or -1
  const bool some_cells = scan.extent.rows > 0 && scan.extent.cols > 0;  // negative extents draw nothing
  scan.index.resize(some_cells ? static_cast<std::size_t>(scan.extent.rows * scan.extent.cols) : 0);
  for (std::int64_t m = 0; m < scan.extent.rows; ++m)
    for (std::int64_t n = 0; n < scan.extent.cols; ++n) {
      const std::int64_t i = checked_add(tile_rows[static_cast<std::size_t>(m)], tile_cols[static_cast<std::size_t>(n)],
                                         "the tile's index of a cell");
      scan.index[static_cast<std::size_t>(m * scan.extent.cols + n)] = i;
      claim.emplace(i, -1);
    }

  const auto tv_threads = mode_offsets(view.tv, 0), tv_values = mode_offsets(view.tv, 1);
  // A thread at the same offset as an earlier one reaches the same cells, all
  // claimed already (broadcast operands: GMMA's shared-memory A and B).
  std::unordered_set<std::int64_t> thread_offsets;
  const std::vector<std::int64_t> numbers = thread_numbers(view.thr_id, threads);
  for (std::int64_t t = 0; t < threads; ++t) {
    if (!thread_offsets.insert(tv_threads[static_cast<std::size_t>(t)]).second) continue;
    const std::int64_t label = numbers[static_cast<std::size_t>(t)];
    for (std::int64_t v = 0; v < values; ++v) {
      const std::int64_t i =
          checked_add(tv_threads[static_cast<std::size_t>(t)], tv_values[static_cast<std::size_t>(v)],
                      "the TV layout's index of a (thread, value)");
      auto it = claim.find(i);
      if (it == claim.end())
        throw Error(
            fmt::format("the TV layout {} sends thread {} value {} to index {}, which is no cell of the tile {}",
                        to_text(view.tv, options.notation), t, v, i, to_text(view.tile, options.notation)));
      if (it->second < 0) {
        it->second = static_cast<std::int64_t>(scan.order.size());
        scan.order.push_back({i, {label, v}});
      }
    }
  }
  scan.owners.resize(scan.index.size());
  for (std::size_t c = 0; c < scan.index.size(); ++c) {
    const std::int64_t k = claim.at(scan.index[c]);
    if (k >= 0) scan.owners[c] = scan.order[static_cast<std::size_t>(k)].owner;
  }
  return scan;
}

std::vector<TvOwner> tv_owners(const TvView& view, const PictureOptions& options) {
  return scan_tv(view, options).owners;
}

PicturePanel tv_panel(const TvView& view, const PictureOptions& options, std::int64_t top, std::int64_t left) {
  const TvScan scan = scan_tv(view, options);
  const std::int64_t rows = scan.extent.rows, cols = scan.extent.cols;
  PicturePanel panel;
  panel.title = view.title;
  panel.top = top;
  panel.left = left;
  panel.rows = view.transposed ? cols : rows;
  panel.cols = view.transposed ? rows : cols;
  for (std::int64_t i = 0; i < panel.rows; ++i) panel.row_labels.push_back(std::to_string(i));
  for (std::int64_t i = 0; i < panel.cols; ++i) panel.col_labels.push_back(std::to_string(i));

  // The first cell holding each claimed index, to emit cells in the order CuTe does.
  std::unordered_map<std::int64_t, std::int64_t> first_cell;
  for (std::size_t c = 0; c < scan.index.size(); ++c) first_cell.emplace(scan.index[c], static_cast<std::int64_t>(c));
  auto emit = [&](std::int64_t c, const TvOwner& owner) {
    const std::int64_t m = c / cols, n = c % cols;
    PictureCell cell;
    cell.row = view.transposed ? n : m;
    cell.col = view.transposed ? m : n;
    cell.lines = {fmt::format("T{}", owner.thread), fmt::format("V{}", owner.value)};
    cell.hover = fmt::format("thread {}  value {}  cell ({},{})  index {}", owner.thread, owner.value, m, n,
                             scan.index[static_cast<std::size_t>(c)]);
    cell.key = owner.thread;
    panel.cells.push_back(std::move(cell));
  };
  std::vector<bool> drawn(scan.index.size(), false);
  for (const auto& claimed : scan.order) {
    const std::int64_t c = first_cell.at(claimed.index);
    drawn[static_cast<std::size_t>(c)] = true;
    emit(c, claimed.owner);
  }
  // A tile may hold one index in several cells; those repeat the owner.
  for (std::size_t c = 0; c < scan.index.size(); ++c)
    if (!drawn[c] && scan.owners[c].owned()) emit(static_cast<std::int64_t>(c), scan.owners[c]);
  return panel;
}

Picture tv_picture(const TvView& view, const PictureOptions& options) {
  Picture p;
  p.palette = Palette::Thread8;
  p.comments.push_back("Layout TV: " + to_text(view.tv, options.notation));
  p.panels.push_back(tv_panel(view, options, 0, 0));
  return p;
}

Picture mma_picture(const TvView& c, const TvView& a, const TvView& b, const PictureOptions& options) {
  Picture p;
  p.palette = Palette::Thread8;
  const Notation n = options.notation;
  p.comments = {"LayoutC: " + to_text(c.tv, n), "LayoutA: " + to_text(a.tv, n), "LayoutB: " + to_text(b.tv, n)};
  PicturePanel pc = tv_panel(c, options, 0, 0);
  const std::int64_t k = tile_extent(a.tile, n).cols;
  PicturePanel pa = tv_panel(a, options, 0, -k - 1);
  PicturePanel pb = tv_panel(b, options, -k - 1, 0);
  // CuTe labels C through A's rows and B's columns.
  pc.row_labels.clear();
  pc.col_labels.clear();
  p.panels = {std::move(pc), std::move(pa), std::move(pb)};
  check_picture_size(
      1, static_cast<std::int64_t>(p.panels[0].cells.size() + p.panels[1].cells.size() + p.panels[2].cells.size()),
      options);
  return p;
}

Picture copy_picture(const TvView& src, const TvView& dst, const PictureOptions& options) {
  Picture p;
  p.palette = Palette::Thread8;
  p.comments = {"Layout S TV: " + to_text(src.tv, options.notation),
                "Layout D TV: " + to_text(dst.tv, options.notation)};
  PicturePanel ps = tv_panel(src, options, 0, 0);
  PicturePanel pd = tv_panel(dst, options, 0, ps.cols + 3);
  p.panels = {std::move(ps), std::move(pd)};
  return p;
}

}  // namespace layoutx
