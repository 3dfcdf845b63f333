// What the partition command and the explorer's partition call share: the
// checks of the options that name the partitioner, the atom they name, and
// the TiledMMA or TiledCopy partition of the tensor they ask for.
#pragma once

#include <optional>
#include <string>

#include "layoutx/atoms.hpp"
#include "layoutx/partition_threads.hpp"

namespace layoutx {

// The options' texts, before anything is evaluated.
struct PartitionOptionTexts {
  std::string mma, atoms, permute, copy, thr, val;
};

// A mistake in which options go together (a TiledMMA with --thr...), or "".
std::string partition_option_problem(const PartitionOptionTexts& o);

// The atom --mma or --copy names; Error when there is none or it is the other kind.
const Atom& partition_atom(const PartitionOptionTexts& o);

// --atoms, --thr and --val count atoms, threads and values along each mode:
// the problem with a count that is not positive, or "" (also for no layout).
std::string count_problem(const std::optional<Value>& counts, const char* option, Notation n);

// The options' values (layouts of the partitioner evaluated statically, as
// CuTe's are C++ types).
struct PartitionOptionValues {
  std::optional<Value> atoms, permute, thr, val, tile, tile_coord, problem;
  std::string operand;  // "" (C or S), A, B, C, S, D (any case), SRC, DST
  int bits = 16;
  std::optional<std::int64_t> thread;
};

struct TilePartition {
  Partitioner partitioner;
  PartitionRequest request;
  PartitionAnswer answer;
  std::string name;  // "partition_C of TiledMMA SM80_16x8x16_F16F16F16F16_TN"
};

// The TiledMMA or TiledCopy of `atom` and its partition of `tensor`; Error
// when an option is not what it should be.
TilePartition partition_tile(const Atom& atom, const Value& tensor, const PartitionOptionValues& v, Notation n,
                             Diagnostics& diag);

// "1000,1000" (as --problem and --owner read) is the tuple (1000,1000).
std::string as_tuple_text(const std::string& text);

// --owner's coordinate, as integers.
std::vector<std::int64_t> owner_coordinate(const Value& v, Notation n);

}  // namespace layoutx
