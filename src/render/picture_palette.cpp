#include "picture_palette.hpp"

#include <fmt/format.h>

#include <array>

#include "layoutx/wide_integer.hpp"

namespace layoutx {

namespace {

// TikzColor_BWx8: black!NN, in CuTe's order.
constexpr std::array<int, 8> kGrayPercent = {0, 40, 20, 60, 10, 50, 30, 70};

// TikzColor_TV
constexpr std::array<Rgb, 8> kThreadColors = {{{175, 175, 255},
                                               {175, 255, 175},
                                               {255, 255, 175},
                                               {255, 175, 175},
                                               {210, 210, 255},
                                               {210, 255, 210},
                                               {255, 255, 210},
                                               {255, 210, 210}}};

std::int64_t wrap(std::int64_t key, std::int64_t n) { return ((key % n) + n) % n; }

// 32 light colours of the xterm 256-colour cube, chosen far apart from each
// other, so that a terminal shows every bank in its own colour too.
constexpr std::array<Rgb, 32> kBankColors = {
    {{255, 175, 175}, {0, 255, 95},    {175, 255, 0},   {95, 255, 255},  {255, 135, 0},   {135, 215, 135},
     {175, 135, 255}, {215, 255, 255}, {255, 255, 95},  {0, 215, 215},   {215, 135, 95},  {95, 175, 215},
     {95, 215, 0},    {255, 95, 215},  {175, 135, 175}, {175, 175, 0},   {215, 255, 175}, {255, 175, 255},
     {255, 215, 0},   {95, 255, 95},   {95, 255, 175},  {175, 215, 215}, {175, 255, 95},  {0, 255, 175},
     {0, 255, 255},   {135, 175, 95},  {135, 175, 175}, {135, 175, 255}, {135, 255, 215}, {175, 175, 135},
     {215, 135, 215}, {215, 215, 95}}};

}  // namespace

Rgb palette_color(Palette palette, std::int64_t key) {
  switch (palette) {
    case Palette::Gray8: {
      const int level = 255 * (100 - kGrayPercent[static_cast<std::size_t>(wrap(key, 8))]) / 100;
      return {level, level, level};
    }
    case Palette::Thread8: return kThreadColors[static_cast<std::size_t>(wrap(key, 8))];
    case Palette::Bank32: return kBankColors[static_cast<std::size_t>(wrap(key, 32))];
  }
  return {};
}

std::string tikz_color(Palette palette, std::int64_t key) {
  if (palette == Palette::Gray8)
    return fmt::format("black!{:02}", kGrayPercent[static_cast<std::size_t>(wrap(key, 8))]);
  const Rgb c = palette_color(palette, key);
  return fmt::format("{{rgb,255:red,{};green,{};blue,{}}}", c.r, c.g, c.b);
}

std::string hex_color(Rgb c) { return fmt::format("#{:02x}{:02x}{:02x}", c.r, c.g, c.b); }

bool is_dark(Rgb c) { return c.r * 299 + c.g * 587 + c.b * 114 < 128 * 1000; }

CellColors cell_colors(Palette palette, std::int64_t key) {
  const Rgb fill = key >= 0 ? palette_color(palette, key) : Rgb{};
  return {hex_color(fill), is_dark(fill)};
}

int xterm256(Rgb c) {
  auto level = [](int v) {
    static constexpr std::array<int, 6> steps = {0, 95, 135, 175, 215, 255};
    int best = 0;
    for (int i = 1; i < 6; ++i)
      if (std::abs(steps[i] - v) < std::abs(steps[best] - v)) best = i;
    return best;
  };
  return 16 + 36 * level(c.r) + 6 * level(c.g) + level(c.b);
}

std::int64_t bank_of(std::int64_t offset, int bits) {
  // Floor division: negative offsets (negative strides) still land in a bank.
  const Int128 bit = static_cast<Int128>(offset) * bits;
  Int128 word = bit / 32;
  if (bit % 32 != 0 && bit < 0) --word;
  return static_cast<std::int64_t>(((word % 32) + 32) % 32);
}

}  // namespace layoutx
