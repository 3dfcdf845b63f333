// CuTe's MMA and copy atoms: the Shape_MNK, ThrID and thread-value layouts of
// each, from the catalogue data/atoms.jsonl, embedded when layoutx is built.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "layoutx/bank.hpp"
#include "layoutx/layout.hpp"

namespace layoutx {

// MMA_Traits: A, B and C map (thread, value) to a column-major index into the
// M x K, N x K and M x N tiles.
struct MmaAtom {
  std::string name;
  IntTuple shape_mnk;
  Layout thr_id;
  Layout a, b, c;
  // GMMA's operand majors, from the operation's template arguments
  // (GMMA::Major::K, GMMA::Major::MN): 'K' or 'M'. K when not given.
  char major_a = 'K', major_b = 'K';
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
// row ((rows, 128/bits):(128/bits, 1)), the way ldmatrix and stmatrix see it;
// an atom that moves fewer than 128 bits is one row of its width; the last
// row may reach past the elements the layouts use.
struct CopyElements {
  Layout src, dst, ref, tile;
};
CopyElements copy_elements(const CopyAtom& atom, int bits, Diagnostics& diag);

// The shared-memory instruction a copy atom issues, for the bank model:
// ldmatrix / stmatrix atoms their LDSM / STSM form, UniversalCopy<T> a load
// (or, when `store`, a store) as wide as T, cp.async a store as wide as T.
// Throws, saying why, for atoms that issue none the model knows (MMA atoms,
// tensor-memory copies, 8-bit accesses) and for a load given as a store.
SharedAccess shared_access_of(const Atom& atom, bool store);

// Every atom, in catalogue order (all parsed on this first call; each is the
// object find_atom and filter_atoms point to).
const std::vector<std::reference_wrapper<const Atom>>& atom_catalogue();

// The atom called `name`, ignoring a "cute::" prefix, template arguments
// ("<GMMA::Major::K,GMMA::Major::K>") and letter case; nullptr when unknown.
const Atom* find_atom(std::string_view name);

// The catalogue names nearest to `name` (for "did you mean"), at most `n`.
std::vector<std::string> similar_atom_names(std::string_view name, std::size_t n);

// The atoms whose name contains every whitespace-separated word of `filter`,
// ignoring case; all atoms for an empty filter.
std::vector<const Atom*> filter_atoms(std::string_view filter);

// What a listing shows of an atom, read without parsing its layouts.
struct AtomHeading {
  std::string_view name;
  Atom::Kind kind = Atom::Kind::Mma;
  IntTuple shape_mnk;  // MMA atoms
};

// The headings of the atoms filter_atoms(filter) gives, in catalogue order.
std::vector<AtomHeading> atom_headings(std::string_view filter);

// The architecture an atom's name starts with ("SM90" for SM90_64x8x16_F16F16F16_SS
// and SM90::GMMA::SPARSE::...); "" for those of every architecture (UniversalCopy).
std::string atom_arch(std::string_view atom_name);

// "sm90", "SM90" and "90" all name SM90; "" when `text` names no architecture.
std::string arch_name(std::string_view text);

// The value types an atom's name spells, in the letters of CuTe's atom names:
// "F32", "F16", "BF16", "TF32", "E4M3", "S8", "U32"... (from the type part of
// the name, "F32F16F16F32", and from C++ template arguments such as half_t).
std::vector<std::string> atom_value_types(std::string_view atom_name);

// The widths of an MMA atom's value types D, A, B, C, in bits, from its name
// (SM80_16x8x16_F32F16F16F32_TN: 32,16,16,32; a GMMA name's three types give
// C the type of D) or its template arguments (UniversalFMA<float,...>); {} when
// the name spells none.
std::vector<int> mma_operand_bits(std::string_view atom_name);
// The width of a C++ value type (half_t: 16, uint128_t: 128); 0 when `type` names none.
int type_bits(std::string_view type);

// A value type in the letters of atom names: "half_t" and "f16" -> "F16",
// "float_e4m3_t" -> "E4M3", "uint128_t" -> "U128"; "" when it names no type.
std::string value_type_letters(std::string_view type);

}  // namespace layoutx
