// The atoms as values of the expression language: MMA and copy atoms by their
// CuTe names, make_tiled_mma / make_tiled_copy, their thread-value layouts and
// the per-thread partitions of a tensor (partition_A/B/C, partition_S/D).
#pragma once

#include "layoutx/language.hpp"
#include "layoutx/tiled_copy.hpp"
#include "layoutx/tiled_mma.hpp"

namespace layoutx {

// What the language's options point to (LanguageOptions::extension).
const LanguageExtension& atom_language();

// The values it makes, for code that reads them back.
const TiledMma* as_tiled_mma(const Value& v);
const TiledCopy* as_tiled_copy(const Value& v);
const CopyAtom* as_copy_atom(const Value& v);  // Copy_Atom<Op, T>{}: its Copy_Traits

}  // namespace layoutx
