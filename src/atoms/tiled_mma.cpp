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
  if (p.kind == Tiler::Kind::Underscore)
    return Tiler::of(product(mma.atom.shape_mnk[i]) * mode_size(mma.thr_layout_vmnk, i + 1));
  return p;
}

// thrfrg over modes (i, j) of MNK: tile by the permutations, by the atom, turn
// the atom mode into (thread, value), then split the threads by the atom grid.
Layout thrfrg(const TiledMma& mma, int i, int j, const Layout& atom_tv, const Layout& l, Diagnostics& diag) {
  if (l.shape.is_leaf() || l.shape.rank() < 2)
    throw Error(fmt::format("static_assert(rank >= 2): a tiled MMA partitions a tensor of rank 2 or more, not {}",
                            to_text(l, diag.notation())));
  const Layout t = logical_divide(l, Tiler::tuple({permutation_mnk(mma, i), permutation_mnk(mma, j)}), diag);
  const Layout a = zipped_divide(
      t, Tiler::tuple({extent(product(mma.atom.shape_mnk[i])), extent(product(mma.atom.shape_mnk[j]))}), diag);
  const Layout tv = composition(a, Tiler::tuple({Tiler::of(atom_tv), Tiler::underscore()}), diag);
  const Tiler threads = Tiler::tuple(
      {Tiler::underscore(),
       Tiler::tuple({extent(mode_size(mma.thr_layout_vmnk, i + 1)), extent(mode_size(mma.thr_layout_vmnk, j + 1))})});
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
      throw StaticRequiredError(
          fmt::format("static_assert: Dynamic owning tensors not supported: the fragment's shape {} must be static",
                      to_text(shape, n)));
    return;
  }
  for (const IntTuple& m : shape.elems()) require_static_shape(m, n);
}

Layout register_fragment(const TiledMma& mma, char which, const Layout& part, Diagnostics& diag) {
  if (descriptor_operand(mma.atom, which))
    throw Error(
        fmt::format("{} reads {} through a memory descriptor: its fragment is a view of that memory, "
                    "not a register layout",
                    mma.atom.name, which));
  require_static_shape(part.shape, diag.notation());
  // make_fragment_like orders the modes after the first by their strides:
  // CuTe cannot compare a scaled basis (a coordinate layout's stride) with an integer.
  const Layout& l = part;
  for (int i = 1; i < l.stride.rank(); ++i)
    if (has_basis(l.stride[i]))
      throw Error(
          fmt::format("make_fragment_like orders the modes after the first by their strides; {} has scaled-basis "
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
  const Layout first =
      make_layout(IntTuple::tuple({size(vmnk), static_int(1)}), IntTuple::tuple({static_int(1), static_int(0)}));
  const Layout thridx_2_thrid = composition(first, right_inverse(completed, diag.trace()), diag);
  return composition(l, Tiler::tuple({Tiler::of(thridx_2_thrid), Tiler::underscore()}), diag);
}

// A and B have no N (M) thread mode: broadcast it with a stride-0 mode.
Layout with_missing_thread_mode(const TiledMma& mma, const Layout& l, bool a_operand, Diagnostics& diag) {
  const Int m = mode_size(mma.thr_layout_vmnk, 1), n = mode_size(mma.thr_layout_vmnk, 2);
  const Layout spread =
      make_layout(IntTuple::tuple({m, n}), a_operand ? IntTuple::tuple({static_int(1), static_int(0)})
                                                     : IntTuple::tuple({static_int(0), static_int(1)}));
  const Tiler tile = Tiler::tuple({Tiler::underscore(), Tiler::tuple({Tiler::of(spread), Tiler::underscore()})});
  return composition(l, Tiler::tuple({tile, Tiler::underscore()}), diag);
}

}  // namespace

TiledMma make_tiled_mma(const MmaAtom& atom, const Layout& thr_layout, const std::vector<Tiler>& permutations,
                        Diagnostics& diag) {
  if (thr_layout.shape.rank() > 3)
    throw Error(fmt::format("the atom layout has modes M, N and K at most; {} has {}",
                            to_text(thr_layout, diag.notation()), thr_layout.shape.rank()));
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

IntTuple tile_shape(const TiledMma& mma) {
  return IntTuple::tuple({tile_size(mma, 0), tile_size(mma, 1), tile_size(mma, 2)});
}

Int thread_count(const TiledMma& mma) { return size(mma.thr_layout_vmnk); }

Layout thrfrg_C(const TiledMma& mma, const Layout& l, Diagnostics& diag) {
  return thrfrg(mma, 0, 1, mma.atom.c, l, diag);
}
Layout thrfrg_A(const TiledMma& mma, const Layout& l, Diagnostics& diag) {
  return thrfrg(mma, 0, 2, mma.atom.a, l, diag);
}
Layout thrfrg_B(const TiledMma& mma, const Layout& l, Diagnostics& diag) {
  return thrfrg(mma, 1, 2, mma.atom.b, l, diag);
}
Layout thrfrg_C(const TiledMma& mma, Diagnostics& diag) { return thrfrg_C(mma, reference_tile(mma, 0, 1), diag); }
Layout thrfrg_A(const TiledMma& mma, Diagnostics& diag) { return thrfrg_A(mma, reference_tile(mma, 0, 2), diag); }
Layout thrfrg_B(const TiledMma& mma, Diagnostics& diag) { return thrfrg_B(mma, reference_tile(mma, 1, 2), diag); }

IntTuple thread_vmnk(const TiledMma& mma, Int thread, Notation n) {
  return flat_coordinate(mma.thr_layout_vmnk, thread, n);
}

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

namespace {

// make_fragment_X's two static assertions: the tensor is already
// partitioned, its first mode the atom's values of one thread.
void require_partitioned(const TiledMma& mma, char which, const Layout& part, Diagnostics& diag) {
  if (rank(part) < 3)
    throw Error(
        fmt::format("static_assert: make_fragment_{} expects a partitioned tensor (rank(tensor) >= 3), "
                    "got rank {}: {}",
                    which, rank(part), to_text(part, diag.notation())));
  const Layout& tv = which == 'A' ? mma.atom.a : which == 'B' ? mma.atom.b : mma.atom.c;
  const Int values = size(get(part, 0)), atom_values = size(get(tv, 1));
  if (values.value != atom_values.value)
    throw Error(
        fmt::format("static_assert: make_fragment_{}: size<0>(tensor) == size<1>(Layout{}_TV{{}}) fails: {} != {}",
                    which, which, to_text(values, diag.notation()), to_text(atom_values, diag.notation())));
}

}  // namespace

bool reads_gmma_descriptor(const MmaAtom& atom, char which) {
  return atom.name.rfind("SM90", 0) == 0 && descriptor_operand(atom, which);
}

Layout make_fragment(const TiledMma& mma, char which, const Layout& part, Diagnostics& diag) {
  require_partitioned(mma, which, part, diag);
  if (which == 'C') return accumulator_fragment(mma, part.shape, diag);
  return register_fragment(mma, which, part, diag);
}

namespace {

std::int64_t static_stride(const Layout& canonical, int i, int j, char major, Notation n) {
  const Int d = canonical.stride[i][j].value();
  if (!d.is_static)
    throw StaticRequiredError(
        fmt::format("static_assert: make_gmma_desc<Major::{}> reads the canonical layout's strides "
                    "at compile time: {} has a dynamic one",
                    major == 'K' ? "K" : "MN", to_text(canonical, n)));
  return d.value;
}

[[noreturn]] void not_canonical(char major, const char* what, const Layout& u128, Notation n) {
  throw Error(
      fmt::format("static_assert: Not a canonical GMMA_{} Layout: {} (the operand's first mode in uint128_t "
                  "units: {})",
                  major == 'K' ? "K" : "MN", what, to_text(u128, n)));
}

// make_gmma_desc<Major>'s static assertions on one MMA's operand tile (the
// partition's first mode) recast to uint128_t units, as CuTe 7107b05 makes
// them (mma_traits_sm90_gmma.hpp).
void require_canonical_gmma(char major, const Layout& u128, int w, int bits, Notation n) {
  const auto extent = [&](int i) { return size(get(u128, i)); };
  Diagnostics quiet(false, n);
  if (major == 'K') {
    if (extent(0).value % 8 != 0) not_canonical(major, "Expected MN-size multiple of 8.", u128, n);
    if (extent(1).value != 2 && extent(1).value != 4)
      not_canonical(major, "Expected K-size 2 for dense or 4 for sparse (in units of uint128_t).", u128, n);
  } else {
    const std::int64_t k = extent(1).value;
    if (k != 256 / bits && k != 128 / bits && k != 512 / bits)
      not_canonical(major, "Expected K-size 256/sizeof_bits<T> for dense or (128|512)/sizeof_bits<T> for sparse.", u128,
                    n);
  }
  const auto tile = [](std::int64_t a, std::int64_t b) {
    return Tiler::tuple({Tiler::of(make_layout(IntTuple(static_int(a)), IntTuple(static_int(1)))),
                         Tiler::of(make_layout(IntTuple(static_int(b)), IntTuple(static_int(1))))});
  };
  const Layout canonical = logical_divide(u128, major == 'K' ? tile(8, 2) : tile(w, 8), quiet);
  const IntTuple profile = IntTuple::tuple(
      {IntTuple::tuple({static_int(1), static_int(1)}), IntTuple::tuple({static_int(1), static_int(1)})});
  if (!congruent(canonical.shape, profile)) not_canonical(major, "Expected profile failure.", u128, n);
  const bool interleave = w == 1;
  const std::int64_t s00 = static_stride(canonical, 0, 0, major, n), s10 = static_stride(canonical, 1, 0, major, n);
  if (major == 'K' ? s00 != w : (!interleave && s00 != 1)) not_canonical(major, "Expected stride failure.", u128, n);
  if (major == 'K' ? (!interleave && s10 != 1) : s10 != w) not_canonical(major, "Expected stride failure.", u128, n);
}

}  // namespace

Layout gmma_descriptor_layout(const TiledMma& mma, char which, const Layout& part, int bits,
                              const std::optional<Swizzle>& swizzle, Diagnostics& diag) {
  const Notation n = diag.notation();
  require_partitioned(mma, which, part, diag);
  const char major = which == 'A' ? mma.atom.major_a : mma.atom.major_b;
  // layout_type(): the pointer's swizzle names the canonical layout, in
  // 16-byte units Swizzle<B,4,3> with B from 0 (INTERLEAVE) to 3 (B128).
  const Swizzle sw = swizzle.value_or(Swizzle{0, 4, 3});
  if (sw.base != 4 || std::abs(sw.shift) != 3 || sw.shift < 0 || sw.bits < 0 || sw.bits > 3)
    throw Error(
        fmt::format("static_assert: Unsupported layout swizzle: GMMA reads shared memory swizzled by "
                    "Swizzle<B,4,3>, B from 0 to 3, not {}",
                    to_text(sw)));
  if (bits <= 0 || 128 % bits != 0)
    throw Error(fmt::format("recast<uint128_t>: {}-bit elements do not divide 128 bits", bits));
  const Layout first = get(part, 0);
  if (rank(first) != 2)
    throw Error(
        fmt::format("static_assert: GMMA Descriptors can only be constructed on rank-2 tensors: the "
                    "partition's first mode {} has rank {}",
                    to_text(first, n), rank(first)));
  const std::int64_t per_u128 = 128 / bits;
  require_canonical_gmma(major, upcast(first, per_u128, diag), 1 << sw.bits, bits, n);
  // replace<0>(recast<uint128_t const>(partition).layout(), Layout<_1,_0>{})
  const Layout recast = upcast(part, per_u128, diag);
  std::vector<Layout> modes{make_layout(IntTuple(static_int(1)), IntTuple(static_int(0)))};
  for (int i = 1; i < rank(recast); ++i) modes.push_back(get(recast, i));
  return make_layout(modes);
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
