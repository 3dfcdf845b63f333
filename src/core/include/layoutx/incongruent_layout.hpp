// A Layout whose shape and stride are not congruent: CuTe's make_layout(shape,
// stride) builds one (its congruence assertion is disabled) and prints it, but
// indexing it does not compile. Programs may make and print one; nothing else
// takes it.
#pragma once

#include <string>

#include "layoutx/value.hpp"

namespace layoutx {

struct IncongruentLayout : ValueObject {
  IntTuple shape, stride;

  IncongruentLayout(IntTuple s, IntTuple d) : shape(std::move(s)), stride(std::move(d)) {}
  std::string type_name() const override;
  std::string print(Notation n) const override;
};

// make_layout(shape, stride) as CuTe builds it: a Layout when the two are
// congruent, else the IncongruentLayout CuTe prints.
Value make_layout_as_built(const IntTuple& shape, const IntTuple& stride);

}  // namespace layoutx
