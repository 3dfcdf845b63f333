#include "layoutx/incongruent_layout.hpp"

#include <fmt/format.h>

#include <memory>

#include "layoutx/notation.hpp"

namespace layoutx {

std::string IncongruentLayout::type_name() const {
  return "layout whose shape and stride are not congruent (CuTe builds and prints it, but cannot index it)";
}

std::string IncongruentLayout::print(Notation n) const {
  return fmt::format("{}:{}", to_text(shape, n), to_text(stride, n));
}

Value make_layout_as_built(const IntTuple& shape, const IntTuple& stride) {
  if (congruent(shape, stride)) return Value::of(make_layout(shape, stride));
  return Value::of(std::make_shared<const IncongruentLayout>(shape, stride));
}

}  // namespace layoutx
