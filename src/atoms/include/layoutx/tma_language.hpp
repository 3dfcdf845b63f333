// SM90 TMA in the atom language: the operations by name (SM90_TMA_LOAD{}),
// make_tma_atom and make_tma_copy, the TMA coordinate tensor
// (get_tma_tensor), tma_partition and .with(barrier[, mask]), printed as
// CuTe prints them; and, for the report, what a copy through one moves.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "layoutx/language.hpp"
#include "layoutx/tma_copy.hpp"

namespace layoutx {

// A TMA copy as make_tma_atom (a Copy_Atom) or make_tma_copy (a TiledCopy) makes it.
struct TmaCopyValue {
  std::string op;  // one of tma_operations()
  TmaCopy tma;
  Layout gmem;  // the global tensor's layout, in elements
  const TmaValueType* type = nullptr;
  std::string element;  // the global tensor's element type as written
  Int multicast = static_int(1);
  bool tiled = false;       // make_tma_copy's TiledCopy, else make_tma_atom's Copy_Atom
  bool executable = false;  // .with(barrier) gave it the mbarrier it completes on
};

// The TMA copy a value holds; nullptr for any other value.
const TmaCopyValue* as_tma_copy(const Value& v);

// Whether the operation reads global memory into shared memory (the loads),
// rather than writing global memory from shared memory (stores, reductions).
bool is_tma_load(std::string_view op);

// The language's TMA operation values and functions (atom_language() holds them).
std::optional<Value> tma_operation_named(std::string_view name);
void add_tma_functions(LanguageExtension& e);

}  // namespace layoutx
