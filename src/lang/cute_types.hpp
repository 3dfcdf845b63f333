// CuTe's type templates whose values the language reads: Int<4>{},
// Shape<_4,_3>{}, Layout<Shape<_8>,Stride<_1>>{}, ComposedLayout<...>{}.
#pragma once

#include <string_view>

namespace layoutx::lang {

enum class CuteType { None, Integer, Tuple, Layout, Composed };

inline CuteType cute_type(std::string_view name) {
  if (name == "Int" || name == "C") return CuteType::Integer;
  if (name == "Shape" || name == "Stride" || name == "Coord" || name == "Step" || name == "Tile" || name == "tuple")
    return CuteType::Tuple;
  if (name == "Layout") return CuteType::Layout;
  if (name == "ComposedLayout") return CuteType::Composed;
  return CuteType::None;
}

}  // namespace layoutx::lang
