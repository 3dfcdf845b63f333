#include "layoutx/integer_strides.hpp"

#include <algorithm>

#include "layoutx/arithmetic_tuple.hpp"

namespace layoutx {

bool all_static_ones(const IntTuple& shape) {
  if (shape.is_leaf()) return shape.value().is_constant(1);
  return std::all_of(shape.elems().begin(), shape.elems().end(), all_static_ones);
}

bool holds_coordinate_layout(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Layout: return is_coordinate_layout(v.layout);
    case Value::Kind::Composed: return is_coordinate_layout(v.composed().layout);
    case Value::Kind::Integer: return v.integer.is_scaled_basis();
    case Value::Kind::Tuple: return std::any_of(v.elems.begin(), v.elems.end(), holds_coordinate_layout);
    default: return false;
  }
}

namespace {

constexpr std::int64_t kPlaceholderBase = std::int64_t{1} << 40;

}  // namespace

std::optional<Placeholders> with_placeholders(const Layout& l) {
  Placeholders p;
  bool unit_modes_only = true;
  const IntTuple stride = transform_leaf(l.shape, l.stride, [&](Int s, Int d) {
    if (!d.is_scaled_basis()) return d;
    unit_modes_only = unit_modes_only && s.is_constant(1);
    p.originals.push_back(d);
    return Int{kPlaceholderBase + static_cast<std::int64_t>(p.originals.size()), d.is_static};
  });
  if (!unit_modes_only) return std::nullopt;
  p.stand_in = Layout{l.shape, stride};
  return p;
}

IntTuple restored(const IntTuple& stride, const std::vector<Int>& originals) {
  return transform_leaf(stride, [&](Int d) {
    const std::int64_t k = d.value - kPlaceholderBase;
    if (d.is_scaled_basis() || k < 1 || k > static_cast<std::int64_t>(originals.size())) return d;
    return originals[k - 1];
  });
}

}  // namespace layoutx
