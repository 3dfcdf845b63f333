// composition(A, B) of two values, for every pair of kinds CuTe composes: the
// `o` operator and composition(A, B) of the language. A layout B is checked
// against A(B(i)) point by point (a warning when CuTe's answer breaks it).
#pragma once

#include "layoutx/error.hpp"
#include "layoutx/value.hpp"

namespace layoutx {

// Throws Error for a pair CuTe does not compose.
Value compose_values(const Value& a, const Value& b, Diagnostics& diag);

}  // namespace layoutx
