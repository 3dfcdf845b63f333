// CuTe's tensors, as layoutx sees them: a layout L stands for the tensor
// make_coord_tensor(L), whose data starts at the zero of L's codomain (0, or
// the coordinate (0,0,...) of a coordinate layout). Slicing such a tensor at a
// coordinate holding `_` gives a layout and where its data starts; so do its
// partitions (tensor_impl.hpp: inner_partition, outer_partition, local_tile,
// local_partition), answered as (layout, where its data starts).
#pragma once

#include "layoutx/error.hpp"
#include "layoutx/value.hpp"

namespace layoutx {

// A tensor reduced to what layoutx answers about it: its layout and where its
// data starts (an offset, or a coordinate for a coordinate layout).
struct TensorSlice {
  Layout layout;
  IntTuple origin;
};

// A coordinate with `_` in it slices; slice(c, t) keeps the parts of t at its `_`s
// (CuTe's slice: the kept parts concatenate).
bool has_underscore(const Value& v);
IntTuple slice(const Value& c, const IntTuple& t, Notation n);
// The coordinate with each `_` a static 0 (CuTe's Underscore is an Int<0>).
IntTuple underscores_as_zero(const Value& c);

// Where the coordinate lands: crd2idx(coord, L), a coordinate for a layout with scaled-basis strides.
IntTuple offset_at(const Layout& l, const IntTuple& coord);

// The zero of the layout's codomain, CuTe's coprofile: 0, or (0,...) shaped as the sum of the strides.
IntTuple codomain_zero(const Layout& l);

// The tensor of layout l whose data starts at `origin`, sliced at `coord`.
TensorSlice tensor_slice(const IntTuple& origin, const Layout& l, const Value& coord, Notation n);

// Layout::get_flat_coord(idx): the coordinate of idx, one integer per mode.
IntTuple flat_coordinate(const Layout& l, Int idx, Notation n);

// The value CuTe prints for a tensor as layoutx answers it: (layout, origin).
Value to_value(const TensorSlice& t);

// slice_and_offset(coord, l): the slice l(coord) and the offset where it
// starts, crd2idx(coord, l) (`_` counts as 0), as a tuple.
Value slice_and_offset(const Value& coord, const Layout& l, Notation n);
// domain_offset(coord, l): the layout unchanged and the offset l(coord), as a tuple.
Value domain_offset(const IntTuple& coord, const Layout& l);

// CuTe's dice: the elements of b where the projection holds an integer (`_` drops one).
Value dice(const Value& projection, const Value& b, Notation n);

// The partitions of the tensor of layout l, each answered as (layout, where
// its data starts); they throw Error where CuTe refuses. inner_partition: the
// tile at `coord` of l divided by the tiler; outer_partition: element `coord`
// of every tile.
Value inner_partition(const Layout& l, const Value& tiler, const Value& coord, Diagnostics& diag);
Value outer_partition(const Layout& l, const Value& tiler, const Value& coord, Diagnostics& diag);
// local_tile(l, tiler, coord[, projection]): inner_partition, the tiler and
// coordinate diced by the projection when there is one.
Value local_tile(const Layout& l, const Value& tiler, const Value& coord, const Value* projection, Diagnostics& diag);
// local_partition(l, threads, index[, projection]): what thread `index` of the
// thread layout owns when l is tiled by the thread layout's shape.
Value local_partition(const Layout& l, const Layout& threads, Int index, const Value* projection, Diagnostics& diag);

}  // namespace layoutx
