// The language's functions on tensors: slice_and_offset, domain_offset and
// CuTe's tensor partitioning (tensor_impl.hpp: inner_partition, outer_partition,
// local_tile, local_partition) on a layout. CuTe partitions tensors; a layout L
// here stands for the tensor make_coord_tensor(L), whose data starts at the zero
// of L's codomain (0, or the coordinate (0,0,...) of a coordinate layout). A
// partition answers what the partitioned tensor holds: (its layout, where its
// data starts), as slice_and_offset answers (layout, offset).
#include <fmt/format.h>

#include <functional>

#include "builtins.hpp"
#include "layoutx/algebra.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/swizzle_slice.hpp"
#include "layoutx/tensor_slice.hpp"

namespace layoutx::lang::tensors {

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

// CuTe's dice: the elements of b where the projection holds an integer (`_` drops one).
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

Value rethrown(const Call& c, const std::function<Value()>& f) {
  try {
    return f();
  } catch (const SourceError&) {
    throw;
  } catch (const Error& e) {
    c.fail(e.message(c.diag.notation()));
  }
}

Value partition(const Layout& l, const Value& tiler, const Value& coord, bool inner, Diagnostics& diag) {
  const Notation n = diag.notation();
  const Layout tiled = zipped_divide(l, to_tiler(tiler, n), diag);
  const int r0 = rank_of(tiled.shape[0]), r1 = rank_of(tiled.shape[1]);
  const IntTuple origin = codomain_zero(l);
  if (inner) return sliced_tensor(origin, tiled, Value::tuple({underscores(r0), padded_coordinate(coord, r1, n)}), n);
  return sliced_tensor(origin, tiled, Value::tuple({padded_coordinate(coord, r0, n), underscores(r1)}), n);
}

Layout partitioned_layout(const Call& c) {
  const Value& v = c.args.at(0);
  if (v.kind == Value::Kind::Composed)
    c.fail_arg(0, fmt::format("{} of a swizzled layout is not supported: CuTe has no coordinate tensor of a ComposedLayout (make_coord_tensor does not compile; a swizzled tensor is partitioned through its smem pointer); partition its inner layout", c.name()));
  return c.layout(0);
}

}  // namespace

// slice_and_offset(c, L): the slice L(c) and the offset where it starts, crd2idx(c, L) (`_` counts as 0).
Value fn_slice_and_offset(const Call& c) {
  c.expect_args(2, 2);
  const AnyLayout any = c.any_layout(1);
  const Value& coord = c.args[0];
  if (const auto* composed = std::get_if<ComposedLayout>(&any)) try {
      const SlicedLayout s = slice_and_offset(coord, *composed, c.diag);
      return Value::tuple({Value::of(s.layout), Value::of(s.offset)});
    } catch (const SourceError&) {
      throw;
    } catch (const Error& e) {
      c.fail(e.message(c.diag.notation()));
    }
  const Layout& l = std::get<Layout>(any);
  try {
    const Layout sliced{slice(coord, l.shape, c.diag.notation()), slice(coord, l.stride, c.diag.notation())};
    return Value::tuple({Value::of(sliced), Value::of(offset_at(l, underscores_as_zero(coord)))});
  } catch (const SourceError&) {
    throw;
  } catch (const Error& e) {
    c.fail(e.message(c.diag.notation()));
  }
}

// domain_offset(c, L): the layout unchanged and the offset L(c).
Value fn_domain_offset(const Call& c) {
  c.expect_args(2, 2);
  const Layout l = c.layout(1);
  const IntTuple coord = c.int_tuple(0);
  try {
    return Value::tuple({Value::of(l), Value::of(offset_at(l, coord))});
  } catch (const SourceError&) {
    throw;
  } catch (const Error& e) {
    c.fail(e.message(c.diag.notation()));
  }
}

Value fn_inner_partition(const Call& c) {
  c.expect_args(3, 3);
  c.expect_template_args(0, 0);
  const Layout l = partitioned_layout(c);
  return rethrown(c, [&] { return partition(l, c.args[1], c.args[2], true, c.diag); });
}

Value fn_outer_partition(const Call& c) {
  c.expect_args(3, 3);
  c.expect_template_args(0, 0);
  const Layout l = partitioned_layout(c);
  return rethrown(c, [&] { return partition(l, c.args[1], c.args[2], false, c.diag); });
}

// local_tile(L, tiler, coord[, projection]): the tile at coord of L divided by the tiler.
Value fn_local_tile(const Call& c) {
  c.expect_args(3, 4);
  c.expect_template_args(0, 0);
  const Layout l = partitioned_layout(c);
  return rethrown(c, [&] {
    const Notation n = c.diag.notation();
    if (c.args.size() == 4)
      return partition(l, dice(c.args[3], c.args[1], n), dice(c.args[3], c.args[2], n), true, c.diag);
    return partition(l, c.args[1], c.args[2], true, c.diag);
  });
}

// local_partition(L, threads, index[, projection]): what thread `index` of the thread
// layout owns when L is tiled by the thread layout's shape.
Value fn_local_partition(const Call& c) {
  c.expect_args(3, 4);
  c.expect_template_args(0, 0);
  const Layout l = partitioned_layout(c);
  if (c.args[1].kind != Value::Kind::Layout && !c.args[1].is_int_tuple())
    c.fail_arg(1, fmt::format("local_partition takes a thread layout, got {} {}", a_kind_name(c.args[1]),
                              c.text(c.args[1])));
  const Int index = c.integer(2);
  return rethrown(c, [&] {
    Layout threads = c.layout(1);
    const Notation n = c.diag.notation();
    if (c.args.size() == 4) threads = dice(c.args[3], Value::of(threads), n).layout;
    const Value tiler = Value::of(product_each(threads.shape));
    return partition(l, tiler, Value::of(flat_coordinate(threads, index, n)), false, c.diag);
  });
}

}  // namespace layoutx::lang::tensors
