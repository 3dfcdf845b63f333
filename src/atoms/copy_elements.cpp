// Copy_Atom<Op, T>: Copy_Traits' bit layouts recast to elements of T.
#include <fmt/format.h>

#include "layoutx/algebra.hpp"
#include "layoutx/atoms.hpp"

namespace layoutx {

CopyElements copy_elements(const CopyAtom& atom, int bits) {
  if (bits < 1 || 128 % bits != 0)
    throw Error(fmt::format("each row of the tile is 128 bits of shared memory; an element of {} bits does not "
                            "divide it (try 8, 16, 32 or 64)", bits));
  CopyElements e{recast_layout(atom.src, 1, bits), recast_layout(atom.dst, 1, bits), recast_layout(atom.ref, 1, bits),
                 {}};
  const std::int64_t cols = 128 / bits, elements = cosize(e.ref).value;
  if (elements % cols != 0)
    throw Error(fmt::format("{} elements of {} bits do not fill whole 128-bit rows", elements, bits));
  e.tile = make_layout(IntTuple::tuple({static_int(elements / cols), static_int(cols)}),
                       IntTuple::tuple({static_int(cols), static_int(1)}));
  return e;
}

}  // namespace layoutx
