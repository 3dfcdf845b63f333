// CuTe's arithmetic_tuple.hpp: scaled-basis strides (E<Ns...>, printed v@N)
// and the coordinates a layout with such strides maps to (arithmetic tuples).
// A coordinate here is an IntTuple: an integer, a scaled basis (a leaf whose
// Int has a basis), or a tuple of coordinates (an arithmetic tuple).
#pragma once

#include <vector>

#include "layoutx/layout.hpp"

namespace layoutx {

// The basis of E<Ns...> (throws Error past Basis::kMaxRank modes or a mode past 255).
Basis make_basis(const std::vector<int>& modes);
// E<Ns...>: the scaled basis 1@Ns (static 1); E<> is the integer 1.
Int basis_element(const std::vector<int>& modes);

bool has_basis(const IntTuple& t);  // some leaf is a scaled basis
inline bool is_coordinate_layout(const Layout& l) { return has_basis(l.stride); }

// make_basis_like(shape): E<i> at each mode i, E<i,j> inside nested modes, ...
IntTuple make_basis_like(const IntTuple& shape);
// make_identity_layout(shape): shape:make_basis_like(shape), mapping a coordinate to itself.
Layout make_identity_layout(const IntTuple& shape);

// as_arithmetic_tuple(v@(N0,N1,...)): (_0,...N0 zeros...,(_0,...,v)); an integer stays one.
IntTuple as_arithmetic_tuple(Int scaled);
// CuTe's + on integers, scaled bases and arithmetic tuples (padding the shorter with _0).
IntTuple coordinate_sum(const IntTuple& a, const IntTuple& b);

// crd2idx(coord, shape, stride) when the strides are scaled bases: the codomain coordinate.
IntTuple evaluate_coordinate(const Layout& l, const IntTuple& coord);
// coshape and cosize of a layout with scaled-basis strides.
IntTuple coordinate_coshape(const Layout& l);
Int coordinate_cosize(const Layout& l);

// The layout must have integer strides for `what` (CuTe's function does not compile otherwise).
void require_integer_strides(const Layout& l, const char* what);

}  // namespace layoutx
