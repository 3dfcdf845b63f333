// The scan behind every thread-value view: which (thread, value) claims which
// tile cell first, in print_latex_tv's order (threads, then their values).
#pragma once

#include <cstdint>
#include <vector>

#include "layoutx/render_picture.hpp"

namespace layoutx {

struct TileExtent {
  std::int64_t rows = 0, cols = 0;
};

// Rows and columns of a tile layout of rank 1 or 2 (rank 1 is one column).
TileExtent tile_extent(const Layout& tile, Notation n);

struct TvClaim {
  std::int64_t index = 0;  // the tile index claimed
  TvOwner owner;
};

struct TvScan {
  TileExtent extent;
  std::vector<std::int64_t> index;  // row-major: the index each cell holds
  std::vector<TvOwner> owners;      // row-major: the owner of each cell
  std::vector<TvClaim> order;       // claims in scan order
};

// The offsets L(i) of the first `count` 1-D indices i of a layout (fewer
// when it has fewer), by the one walker (one add per index) where its sums
// provably equal evaluate's, else by evaluate.
std::vector<std::int64_t> layout_offsets(const Layout& l, std::int64_t count);

// The thread number ThrID gives each of the first `threads` thread indices
// (past ThrID's size, evaluate's answer, as CuTe's call of it gives).
std::vector<std::int64_t> thread_numbers(const Layout& thr_id, std::int64_t threads);

TvScan scan_tv(const TvView& view, const PictureOptions& options);

// One panel of a TV picture at (top, left), cells in CuTe's emission order.
PicturePanel tv_panel(const TvView& view, const PictureOptions& options, std::int64_t top, std::int64_t left);

}  // namespace layoutx
