#include "layoutx/profile_relations.hpp"

#include <fmt/format.h>

#include "layoutx/notation.hpp"

namespace layoutx {

bool weakly_congruent(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple() && b.is_tuple()) {
    if (a.rank() != b.rank()) return false;
    for (int i = 0; i < a.rank(); ++i)
      if (!weakly_congruent(a.elems()[i], b.elems()[i])) return false;
    return true;
  }
  return a.is_leaf();
}

Int static_and(Int a, Int b) {
  if (a.is_constant(0) || b.is_constant(0)) return static_int(0);
  return Int{a.value != 0 && b.value != 0 ? 1 : 0, a.is_static && b.is_static};
}

namespace {

// a == b as CuTe answers it: static when both sides are.
Int truth_of_equal(Int a, Int b) { return Int{a.value == b.value ? 1 : 0, a.is_static && b.is_static}; }

}  // namespace

Int compatible(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple() && b.is_tuple()) {
    if (a.rank() != b.rank()) return static_int(0);
    Int all = static_int(1);
    for (int i = 0; i < a.rank(); ++i) all = static_and(all, compatible(a.elems()[i], b.elems()[i]));
    return all;
  }
  if (a.is_leaf()) return truth_of_equal(a.value(), product(b));
  return static_int(0);
}

Int evenly_divides(const IntTuple& shape, const IntTuple& tiler) {
  if (tiler.is_tuple()) {
    if (tiler.rank() > shape.rank()) return static_int(0);
    Int all = static_int(1);
    for (int i = 0; i < tiler.rank(); ++i) all = static_and(all, evenly_divides(shape[i], tiler.elems()[i]));
    return all;
  }
  return truth_of_equal(product(shape), product(tiler) * product(ceil_div(shape, tiler)));
}

IntTuple elem_scale(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf()) return a.value() * product(b);
  // CuTe's transform(a, b, f) pairs the modes: b must be a tuple of a's rank there.
  if (b.is_leaf() || b.rank() != a.rank())
    throw naming_values([&](Notation shown) {
      return fmt::format("Mismatched tuple_size: elem_scale pairs the modes of {} with those of {}", to_text(a, shown),
                         to_text(b, shown));
    });
  std::vector<IntTuple> out;
  for (int i = 0; i < a.rank(); ++i) out.push_back(elem_scale(a.elems()[i], b[i]));
  return IntTuple(std::move(out));
}

}  // namespace layoutx
