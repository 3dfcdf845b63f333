// CuTe's relations between the profiles of int tuples (int_tuple.hpp:
// weakly_congruent, compatible, evenly_divides) and elem_scale. CuTe answers
// the relations with a type (a static 1 or 0) where it can, and with a
// run-time bool where dynamic sizes decide.
#pragma once

#include "layoutx/int_tuple.hpp"

namespace layoutx {

// CuTe's profile relations. weakly_congruent: b's profile refines a's (an
// integer of a matches any sub-tuple of b).
bool weakly_congruent(const IntTuple& a, const IntTuple& b);
// compatible: every integer of a is the size of b's mode at the same place;
// static when CuTe's answer is a type (a static 1 or 0), dynamic otherwise.
Int compatible(const IntTuple& a, const IntTuple& b);
// evenly_divides(shape, tiler): the tiler divides the shape mode by mode.
Int evenly_divides(const IntTuple& shape, const IntTuple& tiler);
// CuTe's conjunction of static and dynamic truth values (a static false wins).
Int static_and(Int a, Int b);
// elem_scale(a, b): a scaled by the product of b's mode at each integer of a.
IntTuple elem_scale(const IntTuple& a, const IntTuple& b);

}  // namespace layoutx
