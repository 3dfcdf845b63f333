// TiledMMA's layouts, step for step as mma_atom.hpp builds them.
#include "layoutx/tiled_mma.hpp"

#include <fmt/format.h>

#include "layoutx/algebra.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/notation.hpp"

namespace layoutx {

namespace {

Int mode_size(const Layout& l, int i) { return product(l.shape[i]); }

Tiler extent(Int n) { return Tiler::of(make_layout(IntTuple(n))); }

// permutation_mnk<I>: `_` stands for the atom's extent times the atoms along I.
Tiler permutation_mnk(const TiledMma& mma, int i) {
  const Tiler& p = mma.permutation[static_cast<std::size_t>(i)];
  if (p.kind == Tiler::Kind::Underscore) return Tiler::of(product(mma.atom.shape_mnk[i]) * mode_size(mma.thr_layout_vmnk, i + 1));
  return p;
}

// thrfrg over modes (i, j) of MNK: tile by the permutations, by the atom, turn
// the atom mode into (thread, value), then split the threads by the atom grid.
Layout thrfrg(const TiledMma& mma, int i, int j, const Layout& atom_tv, const Layout& l, Diagnostics& diag) {
  if (l.shape.is_leaf() || l.shape.rank() < 2)
    throw Error(fmt::format("static_assert(rank >= 2): a tiled MMA partitions a tensor of rank 2 or more, not {}",
                            to_text(l, diag.notation())));
  const Layout t = logical_divide(l, Tiler::tuple({permutation_mnk(mma, i), permutation_mnk(mma, j)}), diag);
  const Layout a = zipped_divide(t, Tiler::tuple({extent(product(mma.atom.shape_mnk[i])),
                                                  extent(product(mma.atom.shape_mnk[j]))}),
                                 diag);
  const Layout tv = composition(a, Tiler::tuple({Tiler::of(atom_tv), Tiler::underscore()}), diag);
  const Tiler threads = Tiler::tuple({Tiler::underscore(),
                                      Tiler::tuple({extent(mode_size(mma.thr_layout_vmnk, i + 1)),
                                                    extent(mode_size(mma.thr_layout_vmnk, j + 1))})});
  return zipped_divide(tv, threads, diag);
}

Layout reference_tile(const TiledMma& mma, int i, int j) {
  return make_layout(IntTuple::tuple({tile_size(mma, i), tile_size(mma, j)}));
}

// ThrMMA::partition_X: the thread's coordinate (v,(i,j)) in the thread mode of
// thrfrg_X, every value mode kept.
// The coordinate that slices a thrfrg layout ((V,(M|N,N|K)),(values,rest)) at a thread.
Value thread_coordinate(const TiledMma& mma, Int thread, int i, int j, const Layout& thrfrg_l, Notation n) {
  const IntTuple vmnk = thread_vmnk(mma, thread, n);
  const Value thr = Value::tuple({Value::of(vmnk[0]), Value::tuple({Value::of(vmnk[i + 1]), Value::of(vmnk[j + 1])})});
  const IntTuple& rest = thrfrg_l.shape[1][1];
  const Value rest_all = rest.is_leaf() ? Value::tag(Value::Kind::Underscore)
                                        : Value::tuple(std::vector<Value>(static_cast<std::size_t>(rest.rank()),
                                                                          Value::tag(Value::Kind::Underscore)));
  const Value values = Value::tuple({Value::tag(Value::Kind::Underscore), rest_all});
  return Value::tuple({thr, values});
}

TensorSlice thread_partition(const TiledMma& mma, Int thread, int i, int j, const Layout& thrfrg_l, const Layout& l,
                      Diagnostics& diag) {
  const Notation n = diag.notation();
  return tensor_slice(codomain_zero(l), thrfrg_l, thread_coordinate(mma, thread, i, j, thrfrg_l, n), n);
}

// A swizzled tensor's thread part: CuTe tiles a ComposedLayout through its
// inner layout, then slices the composed result at the thread.
SlicedLayout swizzled_thread_partition(const TiledMma& mma, Int thread, int i, int j, const Layout& thrfrg_l,
                                       const ComposedLayout& l, Diagnostics& diag) {
  ComposedLayout fragments = l;
  fragments.layout = thrfrg_l;
  return slice_and_offset(thread_coordinate(mma, thread, i, j, thrfrg_l, diag.notation()), fragments, diag);
}

// Whether the atom reads operand `which` ('A', 'B' or 'C') through a shared or
// tensor memory descriptor instead of registers: then CuTe's fragment is a
// view of that memory, not a register layout.
bool descriptor_operand(const MmaAtom& atom, char which) {
  const std::string& name = atom.name;
  if (name.rfind("SM100_MMA", 0) == 0 || name.find("UMMA") != std::string::npos) return true;
  auto has_part = [&](std::string_view part) {
    for (std::size_t at = name.find(part); at != std::string::npos; at = name.find(part, at + 1)) {
      const std::size_t end = at + part.size();
      if (at > 0 && name[at - 1] == '_' && (end == name.size() || name[end] == '_' || name[end] == '<')) return true;
    }
    return false;
  };
  if (which == 'A') return has_part("SS");
  if (which == 'B') return has_part("SS") || has_part("RS") || has_part("TS");
  return false;
}

// A fragment owns its registers: CuTe makes one only of a static shape.
void require_static_shape(const IntTuple& shape, Notation n) {
  if (shape.is_leaf()) {
    if (!shape.value().is_static)
      throw StaticRequiredError(fmt::format("static_assert: Dynamic owning tensors not supported: the fragment's shape {} must be static",
                              to_text(shape, n)));
    return;
  }
  for (const IntTuple& m : shape.elems()) require_static_shape(m, n);
}

Layout register_fragment(const TiledMma& mma, char which, const Layout& part, Diagnostics& diag) {
  if (descriptor_operand(mma.atom, which))
    throw Error(fmt::format("{} reads {} through a memory descriptor: its fragment is a view of that memory, "
                            "not a register layout",
                            mma.atom.name, which));
  require_static_shape(part.shape, diag.notation());
  // make_fragment_like orders the modes after the first by their strides:
  // CuTe cannot compare a scaled basis (a coordinate layout's stride) with an integer.
  const Layout& l = part;
  for (int i = 1; i < l.stride.rank(); ++i)
    if (has_basis(l.stride[i]))
      throw Error(fmt::format("make_fragment_like orders the modes after the first by their strides; {} has scaled-basis "
                              "strides there (a coordinate layout), which CuTe cannot compare with integers",
                              to_text(l, diag.notation())));
  return make_fragment_like(l, diag);
}

// (thr_idx, val): compose the thread mode with thr_idx -> (ThrV,ThrM,ThrN,ThrK),
// the right inverse of ThrLayoutVMNK completed by its complement (thread
// numbers with gaps, as SM70's quad pairs have) restricted to its first mode.
Layout by_thread_index(const TiledMma& mma, const Layout& l, Diagnostics& diag) {
  const Layout& vmnk = mma.thr_layout_vmnk;
  const Layout completed = make_layout(std::vector<Layout>{vmnk, complement(vmnk, diag)});
  const Layout first = make_layout(IntTuple::tuple({size(vmnk), static_int(1)}), IntTuple::tuple({static_int(1), static_int(0)}));
  const Layout thridx_2_thrid = composition(first, right_inverse(completed, diag.trace()), diag);
  return composition(l, Tiler::tuple({Tiler::of(thridx_2_thrid), Tiler::underscore()}), diag);
}

// A and B have no N (M) thread mode: broadcast it with a stride-0 mode.
Layout with_missing_thread_mode(const TiledMma& mma, const Layout& l, bool a_operand, Diagnostics& diag) {
  const Int m = mode_size(mma.thr_layout_vmnk, 1), n = mode_size(mma.thr_layout_vmnk, 2);
  const Layout spread = make_layout(IntTuple::tuple({m, n}), a_operand ? IntTuple::tuple({static_int(1), static_int(0)})
                                                                       : IntTuple::tuple({static_int(0), static_int(1)}));
  const Tiler tile = Tiler::tuple({Tiler::underscore(), Tiler::tuple({Tiler::of(spread), Tiler::underscore()})});
  return composition(l, Tiler::tuple({tile, Tiler::underscore()}), diag);
}

}  // namespace

TiledMma make_tiled_mma(const MmaAtom& atom, const Layout& thr_layout, const std::vector<Tiler>& permutations,
                        Diagnostics& diag) {
  if (thr_layout.shape.rank() > 3)
    throw Error(fmt::format("the atom layout has modes M, N and K at most; {} has {}", to_text(thr_layout, diag.notation()),
                            thr_layout.shape.rank()));
  if (permutations.size() > 3)
    throw Error(fmt::format("the permutation has modes M, N and K at most; got {}", permutations.size()));
  TiledMma mma;
  mma.atom = atom;
  mma.thr_layout_vmnk = tiled_product(atom.thr_id, Tiler::of(append_to_rank(thr_layout, 3)), diag);
  mma.permutation = permutations;
  mma.permutation.resize(3, Tiler::underscore());
  for (const auto& p : mma.permutation)
    if (p.kind == Tiler::Kind::Tuple)
      throw Error("each mode of a permutation is a layout, an extent or _, not a tuple");
  return mma;
}

Int tile_size(const TiledMma& mma, int mode) {
  const Tiler p = permutation_mnk(mma, mode);
  return p.kind == Tiler::Kind::Integer ? p.extent : size(p.layout);
}

IntTuple tile_shape(const TiledMma& mma) { return IntTuple::tuple({tile_size(mma, 0), tile_size(mma, 1), tile_size(mma, 2)}); }

Int thread_count(const TiledMma& mma) { return size(mma.thr_layout_vmnk); }

Layout thrfrg_C(const TiledMma& mma, const Layout& l, Diagnostics& diag) { return thrfrg(mma, 0, 1, mma.atom.c, l, diag); }
Layout thrfrg_A(const TiledMma& mma, const Layout& l, Diagnostics& diag) { return thrfrg(mma, 0, 2, mma.atom.a, l, diag); }
Layout thrfrg_B(const TiledMma& mma, const Layout& l, Diagnostics& diag) { return thrfrg(mma, 1, 2, mma.atom.b, l, diag); }
Layout thrfrg_C(const TiledMma& mma, Diagnostics& diag) { return thrfrg_C(mma, reference_tile(mma, 0, 1), diag); }
Layout thrfrg_A(const TiledMma& mma, Diagnostics& diag) { return thrfrg_A(mma, reference_tile(mma, 0, 2), diag); }
Layout thrfrg_B(const TiledMma& mma, Diagnostics& diag) { return thrfrg_B(mma, reference_tile(mma, 1, 2), diag); }

IntTuple thread_vmnk(const TiledMma& mma, Int thread, Notation n) { return flat_coordinate(mma.thr_layout_vmnk, thread, n); }

TensorSlice partition_C(const TiledMma& mma, Int thread, const Layout& l, Diagnostics& diag) {
  return thread_partition(mma, thread, 0, 1, thrfrg_C(mma, l, diag), l, diag);
}
TensorSlice partition_A(const TiledMma& mma, Int thread, const Layout& l, Diagnostics& diag) {
  return thread_partition(mma, thread, 0, 2, thrfrg_A(mma, l, diag), l, diag);
}
TensorSlice partition_B(const TiledMma& mma, Int thread, const Layout& l, Diagnostics& diag) {
  return thread_partition(mma, thread, 1, 2, thrfrg_B(mma, l, diag), l, diag);
}

SlicedLayout partition_C(const TiledMma& mma, Int thread, const ComposedLayout& l, Diagnostics& diag) {
  return swizzled_thread_partition(mma, thread, 0, 1, thrfrg_C(mma, l.layout, diag), l, diag);
}
SlicedLayout partition_A(const TiledMma& mma, Int thread, const ComposedLayout& l, Diagnostics& diag) {
  return swizzled_thread_partition(mma, thread, 0, 2, thrfrg_A(mma, l.layout, diag), l, diag);
}
SlicedLayout partition_B(const TiledMma& mma, Int thread, const ComposedLayout& l, Diagnostics& diag) {
  return swizzled_thread_partition(mma, thread, 1, 2, thrfrg_B(mma, l.layout, diag), l, diag);
}

Layout accumulator_fragment(const TiledMma& mma, const IntTuple& shape, Diagnostics& diag) {
  if (descriptor_operand(mma.atom, 'C'))
    throw Error(fmt::format("{} accumulates in tensor memory: its C fragment is not a register layout", mma.atom.name));
  require_static_shape(shape, diag.notation());
  return make_layout(shape);
}

Layout partition_fragment_C(const TiledMma& mma, Int thread, const Layout& l, Diagnostics& diag) {
  return accumulator_fragment(mma, partition_C(mma, thread, l, diag).layout.shape, diag);
}

Layout make_fragment(const TiledMma& mma, char which, const Layout& part, Diagnostics& diag) {
  // CuTe's two static assertions: the tensor is already partitioned, its
  // first mode the atom's values of one thread.
  if (rank(part) < 3)
    throw Error(fmt::format("static_assert: make_fragment_{} expects a partitioned tensor (rank(tensor) >= 3), "
                            "got rank {}: {}",
                            which, rank(part), to_text(part, diag.notation())));
  const Layout& tv = which == 'A' ? mma.atom.a : which == 'B' ? mma.atom.b : mma.atom.c;
  const Int values = size(get(part, 0)), atom_values = size(get(tv, 1));
  if (values.value != atom_values.value)
    throw Error(fmt::format("static_assert: make_fragment_{}: size<0>(tensor) == size<1>(Layout{}_TV{{}}) fails: {} != {}",
                            which, which, to_text(values, diag.notation()), to_text(atom_values, diag.notation())));
  if (which == 'C') return accumulator_fragment(mma, part.shape, diag);
  return register_fragment(mma, which, part, diag);
}
Layout partition_fragment_A(const TiledMma& mma, Int thread, const Layout& l, Diagnostics& diag) {
  return register_fragment(mma, 'A', partition_A(mma, thread, l, diag).layout, diag);
}
Layout partition_fragment_B(const TiledMma& mma, Int thread, const Layout& l, Diagnostics& diag) {
  return register_fragment(mma, 'B', partition_B(mma, thread, l, diag).layout, diag);
}

Layout layout_C_TV(const TiledMma& mma, Diagnostics& diag) { return by_thread_index(mma, thrfrg_C(mma, diag), diag); }
Layout layout_A_TV(const TiledMma& mma, Diagnostics& diag) {
  return by_thread_index(mma, with_missing_thread_mode(mma, thrfrg_A(mma, diag), true, diag), diag);
}
Layout layout_B_TV(const TiledMma& mma, Diagnostics& diag) {
  return by_thread_index(mma, with_missing_thread_mode(mma, thrfrg_B(mma, diag), false, diag), diag);
}

OperandTv operand_C(const TiledMma& mma, Diagnostics& diag) {
  return {thrfrg_C(mma, diag), select(mma.thr_layout_vmnk, {0, 1, 2}, diag), tile_size(mma, 0), tile_size(mma, 1)};
}
OperandTv operand_A(const TiledMma& mma, Diagnostics& diag) {
  return {thrfrg_A(mma, diag), select(mma.thr_layout_vmnk, {0, 1, 3}, diag), tile_size(mma, 0), tile_size(mma, 2)};
}
OperandTv operand_B(const TiledMma& mma, Diagnostics& diag) {
  return {thrfrg_B(mma, diag), select(mma.thr_layout_vmnk, {0, 2, 3}, diag), tile_size(mma, 1), tile_size(mma, 2)};
}

}  // namespace layoutx
