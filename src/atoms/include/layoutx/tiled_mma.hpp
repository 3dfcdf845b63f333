// make_tiled_mma: an MMA atom tiled over a layout of atoms (AtomLayoutMNK)
// with a permutation of each of M, N and K, and the thread-value layouts of
// the A, B and C tiles it covers (CuTe's TiledMMA, mma_atom.hpp).
#pragma once

#include <optional>
#include <vector>

#include "layoutx/atoms.hpp"
#include "layoutx/swizzle_slice.hpp"
#include "layoutx/tensor_partition.hpp"
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

// size(TiledMMA): the threads it takes, size(ThrLayoutVMNK).
Int thread_count(const TiledMma& mma);

// thrfrg_C / thrfrg_A / thrfrg_B of a tensor's layout L of rank >= 2
// ((M,N,...), (M,K,...), (N,K,...)):
// ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN,...))) -> what L maps to, etc.
Layout thrfrg_C(const TiledMma& mma, const Layout& l, Diagnostics& diag);
Layout thrfrg_A(const TiledMma& mma, const Layout& l, Diagnostics& diag);
Layout thrfrg_B(const TiledMma& mma, const Layout& l, Diagnostics& diag);
// The same of the compact reference layout of the tile (index into the M x N tile, etc.).
Layout thrfrg_C(const TiledMma& mma, Diagnostics& diag);
Layout thrfrg_A(const TiledMma& mma, Diagnostics& diag);
Layout thrfrg_B(const TiledMma& mma, Diagnostics& diag);

// get_slice(t)'s thr_vmnk: ThrLayoutVMNK.get_flat_coord(t), (v,m,n,k).
IntTuple thread_vmnk(const TiledMma& mma, Int thread, Notation n);

// get_slice(t).partition_C / _A / _B of the tensor L stands for (make_coord_tensor(L)):
// thread t's (FrgV,RestM,RestN,...) part of it and where that starts.
TensorSlice partition_C(const TiledMma& mma, Int thread, const Layout& l, Diagnostics& diag);
TensorSlice partition_A(const TiledMma& mma, Int thread, const Layout& l, Diagnostics& diag);
TensorSlice partition_B(const TiledMma& mma, Int thread, const Layout& l, Diagnostics& diag);
// The same of a swizzled tensor (Sw o offset o L): the part as CuTe slices the
// ComposedLayout, and the offset its pointer moves by.
SlicedLayout partition_C(const TiledMma& mma, Int thread, const ComposedLayout& l, Diagnostics& diag);
SlicedLayout partition_A(const TiledMma& mma, Int thread, const ComposedLayout& l, Diagnostics& diag);
SlicedLayout partition_B(const TiledMma& mma, Int thread, const ComposedLayout& l, Diagnostics& diag);

// get_slice(t).partition_fragment_C / _A / _B: the layout of the register
// fragment made for that partition (C: compact of its shape; A, B:
// make_fragment_like). Throws for operands the atom reads from shared or
// tensor memory through descriptors (GMMA/UMMA _SS, _RS B, SM100 MMA).
Layout partition_fragment_C(const TiledMma& mma, Int thread, const Layout& l, Diagnostics& diag);
Layout partition_fragment_A(const TiledMma& mma, Int thread, const Layout& l, Diagnostics& diag);
Layout partition_fragment_B(const TiledMma& mma, Int thread, const Layout& l, Diagnostics& diag);

// tiled_mma.make_fragment_C / _A / _B(t) of a partitioned tensor's layout
// (rank >= 3, its first mode the atom's values of one thread): the register
// fragment's layout, as partition_fragment_X makes it.
Layout make_fragment(const TiledMma& mma, char which, const Layout& partitioned, Diagnostics& diag);

// Whether an SM90 atom reads operand `which` ('A', 'B') from shared memory
// through GMMA descriptors (the _SS operands, B of _RS).
bool reads_gmma_descriptor(const MmaAtom& atom, char which);

// The GMMA descriptor tensor CuTe makes of a partitioned shared-memory
// operand (MakeTensor<GMMA::smem_desc<Major>>) for operand 'A' or 'B' of an
// atom that reads it through descriptors: make_gmma_desc's canonical-layout
// assertions on the partition's first mode, and the descriptors' layout
// replace<0>(recast<uint128_t>(partition), _1:_0). `bits`: the element
// width; `swizzle`: the shared-memory pointer's.
Layout gmma_descriptor_layout(const TiledMma& mma, char which, const Layout& partitioned, int bits,
                              const std::optional<Swizzle>& swizzle, Diagnostics& diag);

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
