// make_tiled_mma: an MMA atom tiled over a layout of atoms (AtomLayoutMNK)
// with a permutation of each of M, N and K, and the thread-value layouts of
// the A, B and C tiles it covers (CuTe's TiledMMA, mma_atom.hpp).
#pragma once

#include <vector>

#include "layoutx/atoms.hpp"
#include "layoutx/tiler.hpp"

namespace layoutx {

struct TiledMma {
  MmaAtom atom;
  Layout thr_layout_vmnk;          // tiled_product(ThrID, AtomLayoutMNK): (V,M,N,K) -> thread index
  std::vector<Tiler> permutation;  // per mode M, N, K: a layout, an extent, or `_`
};

// thr_layout has rank <= 3 (missing modes are 1:0); permutations has at most
// three modes (missing ones are `_`).
TiledMma make_tiled_mma(const MmaAtom& atom, const Layout& thr_layout, const std::vector<Tiler>& permutations,
                        Diagnostics& diag);

// tile_size<I>: the extent of mode I (0 M, 1 N, 2 K) the tiled MMA covers.
Int tile_size(const TiledMma& mma, int mode);
IntTuple tile_shape(const TiledMma& mma);

// thrfrg_C / thrfrg_A / thrfrg_B of the compact reference layout of the tile:
// ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN))) -> index into the M x N tile, etc.
Layout thrfrg_C(const TiledMma& mma, Diagnostics& diag);
Layout thrfrg_A(const TiledMma& mma, Diagnostics& diag);
Layout thrfrg_B(const TiledMma& mma, Diagnostics& diag);

// get_layoutC_TV / get_layoutA_TV / get_layoutB_TV: (thread index, value) -> index.
Layout layout_C_TV(const TiledMma& mma, Diagnostics& diag);
Layout layout_A_TV(const TiledMma& mma, Diagnostics& diag);
Layout layout_B_TV(const TiledMma& mma, Diagnostics& diag);

// One operand as print_latex(TiledMMA) draws it: the thrfrg layout, the
// thread numbers of its thread mode (ThrLayoutVMNK with the other operand's
// mode at 0), and the tile it covers.
struct OperandTv {
  Layout tv;
  Layout thr_id;
  Int rows, cols;
};
OperandTv operand_C(const TiledMma& mma, Diagnostics& diag);
OperandTv operand_A(const TiledMma& mma, Diagnostics& diag);
OperandTv operand_B(const TiledMma& mma, Diagnostics& diag);

}  // namespace layoutx
