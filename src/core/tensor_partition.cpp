// The tensor a layout stands for: slicing it (tensor_impl.hpp's operator() with
// `_`) and partitioning it (inner_partition, outer_partition, local_tile,
// local_partition).
#include "layoutx/tensor_partition.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "layoutx/algebra.hpp"
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
  if (c.kind != Value::Kind::Tuple)
    throw Error(fmt::format("a coordinate holds integers and `_`, not a {}", kind_name(c)));
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

namespace {

Value underscores(int n) {
  if (n == 1) return Value::tag(Value::Kind::Underscore);
  return Value::tuple(std::vector<Value>(static_cast<std::size_t>(n), Value::tag(Value::Kind::Underscore)));
}

int rank_of(const IntTuple& t) { return t.is_leaf() ? 1 : t.rank(); }

// append<N>(coord, _) when the coordinate is a tuple; an integer coordinate indexes the mode flat.
Value padded_coordinate(const Value& coord, int n, Notation notation) {
  if (coord.kind != Value::Kind::Tuple) return coord;
  if (static_cast<int>(coord.elems.size()) > n)
    throw Error(fmt::format("static_assert(N > tuple_size): the coordinate {} has more modes than the {} it slices",
                            to_text(coord, notation), n));
  Value padded = coord;
  while (static_cast<int>(padded.elems.size()) < n) padded.elems.push_back(Value::tag(Value::Kind::Underscore));
  return padded;
}

// A tensor whose data starts at `origin`, of layout l, sliced at a coordinate
// holding `_`: (the slice, where its data starts).
Value sliced_tensor(const IntTuple& origin, const Layout& l, const Value& coord, Notation n) {
  return to_value(tensor_slice(origin, l, coord, n));
}

std::vector<Value> lift_dice(const Value& a, const Value& b, Notation n) {
  if (a.kind == Value::Kind::Tuple) {
    if (b.kind != Value::Kind::Tuple || b.elems.size() != a.elems.size())
      throw Error(fmt::format("Mismatched Ranks: projection {} against {}", to_text(a, n), to_text(b, n)));
    std::vector<Value> kept;
    for (std::size_t i = 0; i < a.elems.size(); ++i) {
      std::vector<Value> part = lift_dice(a.elems[i], b.elems[i], n);
      kept.insert(kept.end(), part.begin(), part.end());
    }
    return kept;
  }
  if (a.kind == Value::Kind::Underscore) return {};
  return {b};
}

Value partition(const Layout& l, const Value& tiler, const Value& coord, bool inner, Diagnostics& diag) {
  const Notation n = diag.notation();
  const Layout tiled = zipped_divide(l, to_tiler(tiler, n), diag);
  const int r0 = rank_of(tiled.shape[0]), r1 = rank_of(tiled.shape[1]);
  const IntTuple origin = codomain_zero(l);
  if (inner) return sliced_tensor(origin, tiled, Value::tuple({underscores(r0), padded_coordinate(coord, r1, n)}), n);
  return sliced_tensor(origin, tiled, Value::tuple({padded_coordinate(coord, r0, n), underscores(r1)}), n);
}

}  // namespace

Value slice_and_offset(const Value& coord, const Layout& l, Notation n) {
  const Layout sliced{slice(coord, l.shape, n), slice(coord, l.stride, n)};
  return Value::tuple({Value::of(sliced), Value::of(offset_at(l, underscores_as_zero(coord)))});
}

Value domain_offset(const IntTuple& coord, const Layout& l) {
  return Value::tuple({Value::of(l), Value::of(offset_at(l, coord))});
}

Value dice(const Value& projection, const Value& b, Notation n) {
  if (b.kind == Value::Kind::Layout) {
    const Value shape = dice(projection, Value::of(b.layout.shape), n);
    const Value stride = dice(projection, Value::of(b.layout.stride), n);
    return Value::of(Layout{shape.as_int_tuple(), stride.as_int_tuple()});
  }
  if (projection.kind == Value::Kind::Tuple) return Value::tuple(lift_dice(projection, b, n));
  if (projection.kind == Value::Kind::Underscore) return Value::tuple({});
  return b;
}

Value inner_partition(const Layout& l, const Value& tiler, const Value& coord, Diagnostics& diag) {
  return partition(l, tiler, coord, true, diag);
}

Value outer_partition(const Layout& l, const Value& tiler, const Value& coord, Diagnostics& diag) {
  return partition(l, tiler, coord, false, diag);
}

Value local_tile(const Layout& l, const Value& tiler, const Value& coord, const Value* projection, Diagnostics& diag) {
  if (!projection) return partition(l, tiler, coord, true, diag);
  const Notation n = diag.notation();
  return partition(l, dice(*projection, tiler, n), dice(*projection, coord, n), true, diag);
}

Value local_partition(const Layout& l, const Layout& threads, Int index, const Value* projection, Diagnostics& diag) {
  const Notation n = diag.notation();
  const Layout kept = projection ? dice(*projection, Value::of(threads), n).layout : threads;
  const Value tiler = Value::of(product_each(kept.shape));
  return partition(l, tiler, Value::of(flat_coordinate(kept, index, n)), false, diag);
}

}  // namespace layoutx
