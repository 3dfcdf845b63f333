// print --rows A:B and --cols A:B: a window of the grid.
#pragma once

#include <CLI/CLI.hpp>

#include "layoutx/render.hpp"

namespace layoutx::cli {

// Adds --rows and --cols to `sub`; each fills its side of `grid`'s window.
void add_window_options(CLI::App* sub, GridOptions& grid);

}  // namespace layoutx::cli
