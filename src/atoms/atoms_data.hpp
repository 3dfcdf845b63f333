// The atom catalogue as embedded at build time: one record per line of
// data/atoms.jsonl, every field as CuTe prints it.
#pragma once

#include <cstddef>

namespace layoutx::atoms_data {

struct RawAtom {
  const char* kind;  // "mma" or "copy"
  const char* name;
  const char* shape_mnk;  // MMA: Shape_MNK; copy: ""
  const char* thr_id;
  const char* layout0;  // MMA: ALayout; copy: SrcLayout (bits)
  const char* layout1;  // MMA: BLayout; copy: DstLayout (bits)
  const char* layout2;  // MMA: CLayout; copy: RefLayout (bits)
  const char* origin;   // "printed by CuTe", or the trait it was derived from
};

// kAtoms[i]: the i-th record, its fields pointing into one array of texts.
struct AtomTable {
  RawAtom operator[](std::size_t i) const;
};

extern const AtomTable kAtoms;
extern const std::size_t kAtomCount;

}  // namespace layoutx::atoms_data
