// Triton linear layouts as CuTe layouts and back.
//
// A distributed linear layout (register, lane, warp, block) is a CuTe TV
// layout: (thread, value) -> the element's index in the tensor, column-major
// over the shape as CuTe indexes a tile; thread = lane + lanes * (warp + warps
// * block), numbering the threads of the whole cluster, value = register.
// A shared linear layout (offset -> element) is the inverse of CuTe's smem
// layout: element coordinate -> offset. Bases that need XOR become a swizzle
// composed on top (Sw<B,M,S> o layout).
#pragma once

#include <cstdint>
#include <vector>

#include "layoutx/linear_layout.hpp"
#include "layoutx/swizzle_algebra.hpp"

namespace layoutx::triton {

// The CuTe form of a linear layout (TV layout, or smem layout for a shared one).
// Throws Error when the XOR pattern is no single CuTe swizzle.
AnyLayout to_cute(const LinearLayout& l);

// The linear layout of a CuTe TV layout (mode 0 threads, mode 1 values) over
// a tensor of the given shape, `lanes` threads a warp and `warps` warps a CTA
// (0: one CTA, every thread past the lanes a warp). Throws Error naming the
// mode that is not linear over F2.
LinearLayout from_cute_tv(const AnyLayout& tv, const std::vector<std::int64_t>& shape, std::int64_t lanes = 32,
                          std::int64_t warps = 0);

// The layout alone as a linear layout over F2 (its function index -> offset):
// one thread whose register bits map into a 1-D tensor. Throws Error naming
// the mode that is not linear over F2.
LinearLayout from_cute_layout(const AnyLayout& l);

// The shared linear layout (offset -> element) of a CuTe smem layout
// (element coordinate -> offset) over a tensor of the given shape.
LinearLayout from_cute_smem(const AnyLayout& smem, const std::vector<std::int64_t>& shape);

}  // namespace layoutx::triton
