// TiledMMA's layouts, step for step as mma_atom.hpp builds them.
#include "layoutx/tiled_mma.hpp"

#include <fmt/format.h>

#include "layoutx/algebra.hpp"
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
Layout thrfrg(const TiledMma& mma, int i, int j, const Layout& atom_tv, Diagnostics& diag) {
  const Layout ref = make_layout(IntTuple::tuple({tile_size(mma, i), tile_size(mma, j)}));
  const Layout t = logical_divide(ref, Tiler::tuple({permutation_mnk(mma, i), permutation_mnk(mma, j)}), diag);
  const Layout a = zipped_divide(t, Tiler::tuple({extent(product(mma.atom.shape_mnk[i])),
                                                  extent(product(mma.atom.shape_mnk[j]))}),
                                 diag);
  const Layout tv = composition(a, Tiler::tuple({Tiler::of(atom_tv), Tiler::underscore()}), diag);
  const Tiler threads = Tiler::tuple({Tiler::underscore(),
                                      Tiler::tuple({extent(mode_size(mma.thr_layout_vmnk, i + 1)),
                                                    extent(mode_size(mma.thr_layout_vmnk, j + 1))})});
  return zipped_divide(tv, threads, diag);
}

// (thr_idx, val): compose the thread mode with thr_idx -> (ThrV,ThrM,ThrN,ThrK).
Layout by_thread_index(const TiledMma& mma, const Layout& l, Diagnostics& diag) {
  return composition(
      l, Tiler::tuple({Tiler::of(right_inverse(mma.thr_layout_vmnk, diag.trace())), Tiler::underscore()}), diag);
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

Layout thrfrg_C(const TiledMma& mma, Diagnostics& diag) { return thrfrg(mma, 0, 1, mma.atom.c, diag); }
Layout thrfrg_A(const TiledMma& mma, Diagnostics& diag) { return thrfrg(mma, 0, 2, mma.atom.a, diag); }
Layout thrfrg_B(const TiledMma& mma, Diagnostics& diag) { return thrfrg(mma, 1, 2, mma.atom.b, diag); }

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
