// Copy_Atom<Op, T>: Copy_Traits' bit layouts recast to elements of T.
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "layoutx/algebra.hpp"
#include "layoutx/atoms.hpp"

namespace layoutx {

namespace {

// "8, 16, 32 or 64": the usual element widths that divide a row.
std::string element_widths(std::int64_t row_bits) {
  std::string s;
  for (std::int64_t w = 8; w <= row_bits && w <= 64; w *= 2)
    if (row_bits % w == 0)
      s += (s.empty() ? "" : (w * 2 <= std::min<std::int64_t>(row_bits, 64) ? ", " : " or ")) + std::to_string(w);
  return s.empty() ? "1" : s;
}

}  // namespace

CopyElements copy_elements(const CopyAtom& atom, int bits, Diagnostics& diag) {
  // Rows of 128 bits (one ldmatrix row); an atom that moves fewer bits (a
  // 32-bit cp.async) is one row of its own width.
  const std::int64_t ref_bits = cosize(atom.ref).value, row_bits = std::min<std::int64_t>(128, ref_bits);
  // Traits that reach one bit (AutoVectorizingCopy's (1,1):(0,0)) move one
  // value of any width: recast, they stay what they are.
  if (ref_bits == 1) return {atom.src, atom.dst, atom.ref, make_layout(IntTuple::pair(static_int(1), static_int(1)))};
  if (bits < 1 || row_bits % bits != 0)
    throw Error(fmt::format("{} moves rows of {} bits; an element of {} bits does not divide them (try {})", atom.name,
                            row_bits, bits, element_widths(row_bits)));
  CopyElements e{recast_layout(atom.src, 1, bits, diag),
                 recast_layout(atom.dst, 1, bits, diag),
                 recast_layout(atom.ref, 1, bits, diag),
                 {}};
  // Enough rows for every element the layouts reach (a tensor-memory copy
  // may leave the end of its last row unused).
  const std::int64_t cols = row_bits / bits, elements = cosize(e.ref).value;
  e.tile = make_layout(IntTuple::tuple({static_int((elements + cols - 1) / cols), static_int(cols)}),
                       IntTuple::tuple({static_int(cols), static_int(1)}));
  return e;
}

}  // namespace layoutx
