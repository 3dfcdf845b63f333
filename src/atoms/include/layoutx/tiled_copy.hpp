// make_tiled_copy: a copy atom of T-bit elements (Copy_Atom<Op, T>) tiled over
// a thread layout and a value layout, and the per-thread partitions of the
// source and destination tensors it copies (CuTe's TiledCopy, copy_atom.hpp).
#pragma once

#include "layoutx/atoms.hpp"
#include "layoutx/swizzle_slice.hpp"
#include "layoutx/tensor_partition.hpp"

namespace layoutx {

struct TiledCopy {
  CopyAtom atom;        // as Copy_Traits has it, in bits
  int bits = 0;         // the element width T
  CopyElements values;  // ValLayoutSrc / Dst / Ref in elements of T
  Layout layout_tv;     // TiledLayout_TV: (thread index, value) -> index into the Tiler_MN tile
  IntTuple tiler_mn;    // Tiler_MN: the shape of the tile one copy covers
};

// make_tiled_copy(Copy_Atom<Op, T>{}, thr_layout, val_layout): thr_layout maps
// (m,n) to a thread index, val_layout (m,n) to a value index.
TiledCopy make_tiled_copy(const CopyAtom& atom, int bits, const Layout& thr_layout, const Layout& val_layout,
                          Diagnostics& diag);

// size(TiledCopy): the threads it takes, size<0>(TiledLayout_TV).
Int thread_count(const TiledCopy& copy);

// get_layoutS_TV / get_layoutD_TV: (thread index, value) -> index into the tile.
Layout layout_S_TV(const TiledCopy& copy, Diagnostics& diag);
Layout layout_D_TV(const TiledCopy& copy, Diagnostics& diag);

// tidfrg_S / tidfrg_D of a tensor's layout L: (thread, value, (RestM,RestN,...)) -> what L maps to.
Layout tidfrg_S(const TiledCopy& copy, const Layout& l, Diagnostics& diag);
Layout tidfrg_D(const TiledCopy& copy, const Layout& l, Diagnostics& diag);

// get_slice(t).partition_S / partition_D of the tensor L stands for
// (make_coord_tensor(L)): thread t's (CopyV,RestM,RestN,...) part and where it starts.
TensorSlice partition_S(const TiledCopy& copy, Int thread, const Layout& l, Diagnostics& diag);
TensorSlice partition_D(const TiledCopy& copy, Int thread, const Layout& l, Diagnostics& diag);
// The same of a swizzled tensor (Sw o offset o L): the part as CuTe slices the
// ComposedLayout, and the offset its pointer moves by.
SlicedLayout partition_S(const TiledCopy& copy, Int thread, const ComposedLayout& l, Diagnostics& diag);
SlicedLayout partition_D(const TiledCopy& copy, Int thread, const ComposedLayout& l, Diagnostics& diag);

// make_tiled_copy_impl: the atom over a given TiledLayout_TV and Tiler_MN
// (what make_tiled_copy_A/B/C take from a TiledMMA).
TiledCopy make_tiled_copy_impl(const CopyAtom& atom, int bits, const Layout& layout_tv, const IntTuple& tiler_mn,
                               Diagnostics& diag);

// TiledCopy::retile of a tensor's layout (retile_S / retile_D): a fragment
// whose first mode holds the thread's values regrouped as
// ((atom values, rest values), RestM, RestN, ...).
Layout retile(const TiledCopy& copy, const Layout& l, Diagnostics& diag);

// print(Copy_Atom<Op, T>): ThrID, the value layouts in elements of T, ValueType.
std::string copy_atom_text(const CopyAtom& atom, int bits, const CopyElements& values, Notation n);
// print(TiledCopy): CuTe's text, Tiler_MN and TiledLayout_TV, then the Copy_Atom.
std::string to_text(const TiledCopy& copy, Notation n);

}  // namespace layoutx
