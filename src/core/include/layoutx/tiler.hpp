// A tiler: what CuTe accepts as the second operand of composition, the
// divides and the products: a layout, an integer (n means n:1), `_`, or a
// tuple of tilers applied mode by mode.
#pragma once

#include <vector>

#include "layoutx/layout.hpp"

namespace layoutx {

struct Tiler {
  enum class Kind { Layout, Integer, Underscore, Tuple };

  Kind kind = Kind::Underscore;
  Layout layout;             // Kind::Layout
  Int extent;                // Kind::Integer
  std::vector<Tiler> modes;  // Kind::Tuple

  static Tiler of(const Layout& l) { return Tiler{Kind::Layout, l, {}, {}}; }
  static Tiler of(Int n) { return Tiler{Kind::Integer, {}, n, {}}; }
  static Tiler underscore() { return Tiler{}; }
  static Tiler tuple(std::vector<Tiler> modes) { return Tiler{Kind::Tuple, {}, {}, std::move(modes)}; }

  // The tuple structure (leaves are placeholders) that tile_unzip follows.
  IntTuple profile() const;
};

}  // namespace layoutx
