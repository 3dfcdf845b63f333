// --permute of a TiledMMA (atom and partition): CuTe's permutation tile, one
// layout, extent or _ per mode of M, N, K.
#pragma once

#include <fmt/format.h>

#include <vector>

#include "layoutx/notation.hpp"
#include "layoutx/tiler.hpp"
#include "layoutx/value.hpp"

namespace layoutx {

inline std::vector<Tiler> permutation_modes(const Value& v, Notation n) {
  if (v.kind != Value::Kind::Tuple)
    throw Error(
        fmt::format("--permute needs a tuple such as (32,32,16) or (_,(4,4,2):(1,8,4),_), got {}", to_text(v, n)));
  std::vector<Tiler> modes;
  for (const auto& e : v.elems) {
    if (e.kind == Value::Kind::Layout)
      modes.push_back(Tiler::of(e.layout));
    else if (e.kind == Value::Kind::Integer)
      modes.push_back(Tiler::of(e.integer));
    else if (e.kind == Value::Kind::Underscore)
      modes.push_back(Tiler::underscore());
    else
      throw Error(fmt::format("each mode of --permute is a layout, an extent or _, not {}", to_text(e, n)));
  }
  return modes;
}

}  // namespace layoutx
