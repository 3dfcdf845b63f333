// Slicing the tensor a layout stands for (tensor_impl.hpp's operator() with `_`).
#include "layoutx/tensor_slice.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/notation.hpp"

namespace layoutx {

namespace {

// CuTe's slice(c, t): `_` keeps a mode, an integer drops it; results concatenate.
void slice_into(const Value& c, const IntTuple& t, std::vector<IntTuple>& out, Notation n) {
  if (c.kind == Value::Kind::Underscore) {
    out.push_back(t);
    return;
  }
  if (c.kind != Value::Kind::Tuple) return;
  if (t.is_leaf() || t.rank() != static_cast<int>(c.elems.size()))
    throw Error(fmt::format("Mismatched Ranks: slice coordinate {} against {}", to_text(c, n), to_text(t, n)));
  for (int i = 0; i < t.rank(); ++i) slice_into(c.elems[i], t[i], out, n);
}

IntTuple stride_sum(const IntTuple& strides) {
  if (strides.is_leaf()) return strides;
  IntTuple sum = IntTuple(static_int(0));
  for (const IntTuple& d : strides.elems()) sum = coordinate_sum(sum, stride_sum(d));
  return sum;
}

// idx2crd(idx, shape, stride): each mode's (idx / stride) % shape.
IntTuple strided_coordinate(Int idx, const IntTuple& shape, const IntTuple& stride, Notation n) {
  if (shape.is_tuple()) {
    if (stride.is_leaf() || stride.rank() != shape.rank())
      throw Error(fmt::format("Mismatched Ranks: shape {} and stride {}", to_text(shape, n), to_text(stride, n)));
    std::vector<IntTuple> out;
    for (int i = 0; i < shape.rank(); ++i) out.push_back(strided_coordinate(idx, shape[i], stride[i], n));
    return IntTuple(std::move(out));
  }
  if (shape.value().is_constant(1)) return IntTuple(static_int(0));
  if (stride.value().value == 0)
    throw Error(fmt::format("division by zero: the thread layout's stride 0 over {} threads gives no coordinate",
                            to_text(shape, n)));
  return (idx / stride.value()) % shape.value();
}

}  // namespace

bool has_underscore(const Value& v) {
  if (v.kind == Value::Kind::Underscore) return true;
  if (v.kind != Value::Kind::Tuple) return false;
  return std::any_of(v.elems.begin(), v.elems.end(), has_underscore);
}

IntTuple slice(const Value& c, const IntTuple& t, Notation n) {
  if (c.kind == Value::Kind::Underscore) return t;
  std::vector<IntTuple> out;
  if (c.kind == Value::Kind::Tuple) {
    if (t.is_leaf() || t.rank() != static_cast<int>(c.elems.size()))
      throw Error(fmt::format("Mismatched Ranks: slice coordinate {} against {}", to_text(c, n), to_text(t, n)));
    for (int i = 0; i < t.rank(); ++i) slice_into(c.elems[i], t[i], out, n);
  }
  return IntTuple(std::move(out));
}

IntTuple underscores_as_zero(const Value& c) {
  if (c.kind == Value::Kind::Underscore) return IntTuple(static_int(0));
  if (c.kind == Value::Kind::Integer) return IntTuple(c.integer);
  if (c.kind != Value::Kind::Tuple) throw Error(fmt::format("a coordinate holds integers and `_`, not a {}", kind_name(c)));
  std::vector<IntTuple> out;
  for (const Value& e : c.elems) out.push_back(underscores_as_zero(e));
  return IntTuple(std::move(out));
}

IntTuple offset_at(const Layout& l, const IntTuple& coord) {
  if (is_coordinate_layout(l)) return evaluate_coordinate(l, coord);
  return IntTuple(crd2idx(coord, l.shape, l.stride));
}

IntTuple codomain_zero(const Layout& l) {
  if (!is_coordinate_layout(l)) return IntTuple(static_int(0));
  IntTuple sum = stride_sum(l.stride);
  if (sum.is_leaf() && sum.value().is_scaled_basis()) sum = as_arithmetic_tuple(sum.value());
  return repeat_like(sum, static_int(0));
}

TensorSlice tensor_slice(const IntTuple& origin, const Layout& l, const Value& coord, Notation n) {
  const Layout sliced{slice(coord, l.shape, n), slice(coord, l.stride, n)};
  return {sliced, coordinate_sum(origin, offset_at(l, underscores_as_zero(coord)))};
}

IntTuple flat_coordinate(const Layout& l, Int idx, Notation n) {
  const IntTuple hier = strided_coordinate(idx, l.shape, l.stride, n);
  if (l.shape.is_leaf()) return hier;
  if (l.shape.rank() == 1) return IntTuple(crd2idx(hier, l.shape));
  std::vector<IntTuple> out;
  for (int i = 0; i < l.shape.rank(); ++i) out.push_back(IntTuple(crd2idx(hier[i], l.shape[i])));
  return IntTuple(std::move(out));
}

Value to_value(const TensorSlice& t) { return Value::tuple({Value::of(t.layout), Value::of(t.origin)}); }

}  // namespace layoutx
