// TiledCopy's layouts and partitions, step for step as copy_atom.hpp builds them.
#include "layoutx/tiled_copy.hpp"

#include <fmt/format.h>

#include <utility>

#include "layoutx/algebra.hpp"
#include "layoutx/notation.hpp"

namespace layoutx {

namespace {

Value underscore() { return Value::tag(Value::Kind::Underscore); }

Value underscores(int n) {
  if (n == 1) return underscore();
  return Value::tuple(std::vector<Value>(static_cast<std::size_t>(n), underscore()));
}

int modes(const IntTuple& t) { return t.is_leaf() ? 1 : t.rank(); }

// A shape as a tiler: each mode n as n:1 (a nested mode as its compact layout).
Tiler shape_tiler(const IntTuple& shape) {
  if (shape.is_leaf()) return Tiler::of(shape.value());
  std::vector<Tiler> out;
  for (const IntTuple& m : shape.elems()) out.push_back(m.is_leaf() ? Tiler::of(m.value()) : Tiler::of(make_layout(m)));
  return Tiler::tuple(std::move(out));
}

// right_inverse(ValLayoutRef).compose(ValLayoutSrc or Dst): reference (thr,val) -> target (thr,val).
Layout ref_to_target(const TiledCopy& copy, const Layout& target, Diagnostics& diag) {
  return composition(right_inverse(copy.values.ref, diag.trace()), target, diag);
}

// tile2thrfrg: the tile mode of `tiled` ((M,N),Rest) becomes (thread, value).
Layout tile_to_thread_values(const TiledCopy& copy, const Layout& tiled, const Layout& ref2trg, Diagnostics& diag) {
  const Int atom_threads = product(copy.values.ref.shape[0]), atom_values = product(copy.values.ref.shape[1]);
  const Layout atom_tv = zipped_divide(copy.layout_tv, shape_tiler(IntTuple::tuple({atom_threads, atom_values})), diag);
  const Layout target_tv = composition(atom_tv, Tiler::tuple({Tiler::of(ref2trg), Tiler::underscore()}), diag);
  const IntTuple profile = IntTuple::tuple({static_int(1), IntTuple::tuple({static_int(1), static_int(1)})});
  const Layout thrval2mn = coalesce(zip(target_tv), profile);
  const Layout tv = composition(tiled, Tiler::tuple({Tiler::of(thrval2mn), Tiler::underscore()}), diag);
  const Value unfold = Value::tuple({Value::tuple({underscore(), underscore()}), underscore()});
  return tensor_slice(IntTuple(static_int(0)), tv, unfold, diag.notation()).layout;
}

Layout tidfrg(const TiledCopy& copy, const Layout& l, const Layout& target, Diagnostics& diag) {
  if (modes(l.shape) < modes(copy.tiler_mn))
    throw Error(
        fmt::format("static_assert(rank(tensor) >= rank(Tiler_MN)): rank of tensor to be partitioned too small: "
                    "{} against the tile {}",
                    to_text(l, diag.notation()), to_text(copy.tiler_mn, diag.notation())));
  const Layout tiled = zipped_divide(l, shape_tiler(copy.tiler_mn), diag);
  return tile_to_thread_values(copy, tiled, ref_to_target(copy, target, diag), diag);
}

TensorSlice thread_slice(Int thread, const Layout& l, const Layout& thr_frg, Diagnostics& diag) {
  const Value coord = Value::tuple({Value::of(thread), underscore(), underscores(modes(l.shape))});
  return tensor_slice(codomain_zero(l), thr_frg, coord, diag.notation());
}

Layout layout_TV(const TiledCopy& copy, const Layout& target, Diagnostics& diag) {
  const Layout ref = make_layout(IntTuple::tuple({copy.tiler_mn, static_int(1)}));
  const Layout frg = tile_to_thread_values(copy, ref, ref_to_target(copy, target, diag), diag);
  const Value first = Value::tuple({underscore(), underscore(), Value::of(static_int(0))});
  return tensor_slice(IntTuple(static_int(0)), frg, first, diag.notation()).layout;
}

// Copy_Atom<Op, T>: recast to T, each layout still has one row per thread of ThrID.
void require_thread_per_value_row(const TiledCopy& copy, Notation n) {
  const Int threads = size(copy.atom.thr_id);
  const std::pair<const char*, const Layout*> layouts[] = {
      {"Src", &copy.values.src}, {"Dst", &copy.values.dst}, {"Ref", &copy.values.ref}};
  for (const auto& [which, l] : layouts)
    if (product(l->shape[0]).value != threads.value)
      throw Error(fmt::format(
          "CopyOperation is not valid for {} of ValType: {} recast to {}-bit values is {}, with {} "
          "threads where the atom has {}",
          which, copy.atom.name, copy.bits, to_text(*l, n), to_text(product(l->shape[0]), n), to_text(threads, n)));
}

}  // namespace

TiledCopy make_tiled_copy(const CopyAtom& atom, int bits, const Layout& thr_layout, const Layout& val_layout,
                          Diagnostics& diag) {
  const Layout layout_mn = raked_product(thr_layout, val_layout, diag);
  const Layout layout_tv = composition(right_inverse(layout_mn, diag.trace()),
                                       make_layout(IntTuple::tuple({size(thr_layout), size(val_layout)})), diag);
  return make_tiled_copy_impl(atom, bits, layout_tv, product_each(layout_mn.shape), diag);
}

Int thread_count(const TiledCopy& copy) { return product(copy.layout_tv.shape[0]); }

Layout layout_S_TV(const TiledCopy& copy, Diagnostics& diag) { return layout_TV(copy, copy.values.src, diag); }
Layout layout_D_TV(const TiledCopy& copy, Diagnostics& diag) { return layout_TV(copy, copy.values.dst, diag); }

Layout tidfrg_S(const TiledCopy& copy, const Layout& l, Diagnostics& diag) {
  return tidfrg(copy, l, copy.values.src, diag);
}
Layout tidfrg_D(const TiledCopy& copy, const Layout& l, Diagnostics& diag) {
  return tidfrg(copy, l, copy.values.dst, diag);
}

namespace {

// A swizzled tensor's thread part: CuTe tiles a ComposedLayout through its
// inner layout, then slices the composed result at the thread.
SlicedLayout swizzled_thread_slice(Int thread, const ComposedLayout& l, const Layout& thr_frg, Diagnostics& diag) {
  const Value coord = Value::tuple({Value::of(thread), underscore(), underscores(modes(l.layout.shape))});
  ComposedLayout fragments = l;
  fragments.layout = thr_frg;
  return slice_and_offset(coord, fragments, diag);
}

}  // namespace

SlicedLayout partition_S(const TiledCopy& copy, Int thread, const ComposedLayout& l, Diagnostics& diag) {
  return swizzled_thread_slice(thread, l, tidfrg_S(copy, l.layout, diag), diag);
}
SlicedLayout partition_D(const TiledCopy& copy, Int thread, const ComposedLayout& l, Diagnostics& diag) {
  return swizzled_thread_slice(thread, l, tidfrg_D(copy, l.layout, diag), diag);
}

TensorSlice partition_S(const TiledCopy& copy, Int thread, const Layout& l, Diagnostics& diag) {
  return thread_slice(thread, l, tidfrg_S(copy, l, diag), diag);
}
TensorSlice partition_D(const TiledCopy& copy, Int thread, const Layout& l, Diagnostics& diag) {
  return thread_slice(thread, l, tidfrg_D(copy, l, diag), diag);
}

std::string copy_atom_text(const CopyAtom& atom, int bits, const CopyElements& values, Notation n) {
  return fmt::format(
      "Copy_Atom\n  ThrID:        {}\n  ValLayoutSrc: {}\n  ValLayoutDst: {}\n  ValLayoutRef: {}\n  ValueType:    {}b",
      to_text(atom.thr_id, n), to_text(values.src, n), to_text(values.dst, n), to_text(values.ref, n), bits);
}

std::string to_text(const TiledCopy& copy, Notation n) {
  return fmt::format("TiledCopy\n  Tiler_MN:       {}\n  TiledLayout_TV: {}\n{}", to_text(copy.tiler_mn, n),
                     to_text(copy.layout_tv, n), copy_atom_text(copy.atom, copy.bits, copy.values, n));
}

TiledCopy make_tiled_copy_impl(const CopyAtom& atom, int bits, const Layout& layout_tv, const IntTuple& tiler_mn,
                               Diagnostics& diag) {
  TiledCopy copy;
  copy.atom = atom;
  copy.bits = bits;
  copy.values = copy_elements(atom, bits, diag);
  require_thread_per_value_row(copy, diag.notation());
  copy.layout_tv = layout_tv;
  copy.tiler_mn = tiler_mn;
  // TiledCopy's static_asserts: its threads and values are whole atoms.
  const Int atom_threads = product(copy.values.ref.shape[0]), atom_values = product(copy.values.ref.shape[1]);
  const Int threads = product(layout_tv.shape[0]), values = product(layout_tv.shape[1]);
  const Notation n = diag.notation();
  if (threads.value % atom_threads.value != 0)
    throw Error(fmt::format("TiledCopy uses too few thrs for selected CopyAtom: {} threads, the atom takes {}",
                            to_text(threads, n), to_text(atom_threads, n)));
  if (values.value % atom_values.value != 0)
    throw Error(fmt::format("TiledCopy uses too few vals for selected CopyAtom: {} values, the atom moves {}",
                            to_text(values, n), to_text(atom_values, n)));
  return copy;
}

Layout retile(const TiledCopy& copy, const Layout& l, Diagnostics& diag) {
  const int r = modes(l.shape);
  const Int v = product(l.shape.is_leaf() ? l.shape : l.shape[0]);
  const Int threads = product(copy.layout_tv.shape[0]);
  const Int atom_values = product(copy.values.ref.shape[1]);
  // (m,n) -> v_idx: the shape and order of the first V values inside TiledLayout_TV
  const Layout inverse = right_inverse(copy.layout_tv, diag.trace());
  const Layout frg_layout_mn =
      upcast(composition(inverse, make_layout(copy.tiler_mn), diag), (threads * v).value, diag);
  // (atom_vals,rest_vals) -> (v,m,n)
  const Layout frg_layout_v = zipped_divide(
      logical_product(make_layout(IntTuple(v)), Tiler::of(right_inverse(frg_layout_mn, diag.trace())), diag),
      Tiler::of(make_layout(IntTuple(atom_values))), diag);
  const IntTuple tile = prepend(product_each(frg_layout_mn.shape), IntTuple(v));
  const Layout tiled = zipped_divide(l, shape_tiler(tile), diag);  // ((TileV,TileM,TileN,...),(1,RestM,RestN,...))
  const Layout values = composition(tiled, Tiler::tuple({Tiler::of(frg_layout_v), Tiler::underscore()}), diag);
  std::vector<Value> rest{Value::of(static_int(0))};
  for (int i = 1; i < r; ++i) rest.push_back(underscore());
  const Value coord = Value::tuple({underscore(), r == 1 ? rest.front() : Value::tuple(std::move(rest))});
  return tensor_slice(IntTuple(static_int(0)), values, coord, diag.notation()).layout;
}

}  // namespace layoutx
