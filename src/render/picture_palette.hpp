// The colours of pictures and coloured grids: CuTe's TikZ colour maps
// (TikzColor_BWx8 by offset, TikzColor_TV by thread) and one colour per bank.
#pragma once

#include <cstdint>
#include <string>

#include "layoutx/render_picture.hpp"

namespace layoutx {

struct Rgb {
  int r = 255, g = 255, b = 255;
};

Rgb palette_color(Palette palette, std::int64_t key);
// The colour as CuTe's TikZ output names it ("black!40", "{rgb,255:red,..}").
std::string tikz_color(Palette palette, std::int64_t key);
// "#rrggbb"
std::string hex_color(Rgb c);
// Dark fills take white text.
bool is_dark(Rgb c);
// The nearest entry of the xterm 256-colour cube.
int xterm256(Rgb c);

}  // namespace layoutx
