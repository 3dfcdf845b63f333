// The tensor-memory (TMEM) layouts of CuTe's SM100 UMMA (tcgen05.mma) atoms:
// what make_fragment_C (and, for the _TS atoms that read A from TMEM,
// make_fragment_A) gives for CTA 0's partition of the atom's own tile, through
// UMMA::tmem_frg (mma_traits_sm100_frag.hpp).
#pragma once

#include <optional>

#include "layoutx/atoms.hpp"

namespace layoutx {

struct UmmaTmem {
  // ((M,N),1,1) -> TMEM address: a data path (lane) step is TMEM::DP<T>
  // (65536 for 32-bit values), a column step is 1.
  Layout accumulator;
  std::optional<Layout> a;  // the _TS atoms only
};

// nullopt for an atom that is no SM100 UMMA atom.
std::optional<UmmaTmem> umma_tmem_layouts(const Atom& atom, Diagnostics& diag);

}  // namespace layoutx
