// Checks of CuTe's answers against what the operations mean, point by point
// (up to a budget of points). CuTe's algorithms answer some inputs with a
// layout that is not the operation's result; these add a warning to the
// caller's Diagnostics when that happens, so no wrong answer is silent.
#pragma once

#include "layoutx/swizzle_algebra.hpp"

namespace layoutx {

// Points checked at most per call; larger domains are sampled evenly.
inline constexpr std::int64_t kPostconditionBudget = std::int64_t{1} << 16;

// r(i) == a(b(i)) wherever b(i) lies in a's domain.
void check_composition(const AnyLayout& a, const Layout& b, const AnyLayout& r, Diagnostics& diag);
void check_composition(const Layout& a, const Layout& b, const AnyLayout& r, Diagnostics& diag);
// l(r(i)) == i for i < size(r).
void check_right_inverse(const AnyLayout& l, const AnyLayout& r, Diagnostics& diag);
// r(l(i)) == i for i < size(l), when l is injective.
void check_left_inverse(const AnyLayout& l, const AnyLayout& r, Diagnostics& diag);

}  // namespace layoutx
