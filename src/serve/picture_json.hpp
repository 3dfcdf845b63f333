// A picture (render_picture.hpp's model) as JSON for the page to draw.
#pragma once

#include <string>

#include "layoutx/render_picture.hpp"

namespace layoutx::serve {

// {"comments", "legend", "panels": [{"title", "top", "left", "rows", "cols",
// "row_labels", "col_labels", "rules": [[horizontal, at, level]...],
// "cells": [[row, col, text, hover, fill, white_text, index, offset, bank]...]}]}:
// the colours are the ones the SVG writer fills with; index, offset and the
// shared-memory bank (elements `bits` wide) are -1 in TV pictures. Without
// `hovers` every hover is "" (a third of the text, which the page asks for
// only when the pointer is over the picture).
std::string picture_json(const Picture& picture, int bits, bool hovers = true);

// A layout's picture as picture_json writes it, its one panel's cells as
// columns of numbers instead ("grid": {"fills": [[fill, white_text]...],
// "fill", "offset", "bank": one entry per cell, cell (m, n) at m * cols + n}):
// a quarter of the text, with neither a string nor a hover line per cell.
std::string layout_grid_json(const LayoutCells& cells, int bits);

}  // namespace layoutx::serve
