// CuTe's MMA and copy atoms: the Shape_MNK, ThrID and thread-value layouts of
// each, from the catalogue data/atoms.jsonl, embedded when layoutx is built.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "layoutx/layout.hpp"

namespace layoutx {

// MMA_Traits: A, B and C map (thread, value) to a column-major index into the
// M x K, N x K and M x N tiles.
struct MmaAtom {
  std::string name;
  IntTuple shape_mnk;
  Layout thr_id;
  Layout a, b, c;
};

// Copy_Traits: source, destination and reference layouts map (thread, value)
// to bit positions.
struct CopyAtom {
  std::string name;
  Layout thr_id;
  Layout src, dst, ref;
};

struct Atom {
  enum class Kind { Mma, Copy };
  Kind kind = Kind::Mma;
  std::string name;
  std::string origin;  // "printed by CuTe", or the CuTe trait the entry was derived from
  MmaAtom mma;         // Kind::Mma
  CopyAtom copy;       // Kind::Copy
};

// A copy atom in elements `bits` wide (Copy_Atom<Op, T>): its layouts recast
// from bits, and the tile they index, one 128-bit row of shared memory per
// row ((rows, 128/bits):(128/bits, 1)), the way ldmatrix and stmatrix see it.
struct CopyElements {
  Layout src, dst, ref, tile;
};
CopyElements copy_elements(const CopyAtom& atom, int bits);

// Every atom, in catalogue order (parsed on first use).
const std::vector<Atom>& atom_catalogue();

// The atom called `name`, ignoring a "cute::" prefix, template arguments
// ("<GMMA::Major::K,GMMA::Major::K>") and letter case; nullptr when unknown.
const Atom* find_atom(std::string_view name);

// The catalogue names nearest to `name` (for "did you mean"), at most `n`.
std::vector<std::string> similar_atom_names(std::string_view name, std::size_t n);

// The atoms whose name contains every whitespace-separated word of `filter`,
// ignoring case; all atoms for an empty filter.
std::vector<const Atom*> filter_atoms(std::string_view filter);

}  // namespace layoutx
