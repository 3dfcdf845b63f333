// The memory instructions one copy(...) call site of a kernel issues, every
// warp of the block together, and what each costs as Nsight Compute counts
// it: global-memory requests and 32-byte sectors, shared-memory wavefronts
// and bank conflicts, instructions by kind. The call site is given as CuTe
// partitions it: each thread's element offsets on both sides of the copy.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "layoutx/atoms.hpp"
#include "layoutx/bank.hpp"

namespace layoutx {

enum class MemorySpace { Global, Shared, Register };

// One side of a copy, for every thread of the block: offsets[t] lists the
// elements thread t's partition covers, in the partition's index order
// (empty: thread t does not execute the call). Offsets count elements from
// an address aligned to 128 bytes (what cudaMalloc and an aligned __shared__
// array give); a pointer moved by a few elements shows as offsets moved too.
struct CopyOperand {
  MemorySpace space = MemorySpace::Register;
  std::vector<std::vector<std::int64_t>> offsets;
  // CuTe assumes a 128-bit aligned pointer only for tensors whose layout is
  // static; a dynamic one (run-time strides) is copied element by element.
  bool static_layout = true;
};

// How the copy is done: through a copy atom (Copy_Atom<Op, T>), CuTe's
// copy(src, dst) without one (AutoVectorizingCopy, DefaultCopy), or the
// Tensor Memory Accelerator (bulk tensor copies, no per-thread accesses).
enum class CopyKind { Atom, AutoVectorizing, Tma };

// A TMA call site's boxes: one thread's call issues one bulk tensor copy
// (UTMALDG / UTMASTG) for every `elements` of the tensors it is given, which
// moves the whole box without the load/store unit. On the global side an
// offset of kTmaOutOfBounds is an element outside the tensor: TMA neither
// reads it (it fills zeros) nor writes it.
struct TmaBox {
  std::string op;                  // SM90_TMA_LOAD, SM90_TMA_LOAD_MULTICAST, SM90_TMA_STORE, ...
  bool load = true;                // global -> shared; else shared -> global
  std::int64_t elements = 0;       // the elements of one box (CuTe's NumValSrc)
  std::int64_t multicast = 1;      // CTAs sharing each box: this CTA's copy moves elements / multicast of it
  std::string swizzle;             // the swizzle shared memory is written (read) with, as CuTe prints it
  std::string tensor_map_swizzle;  // the descriptor's CU_TENSOR_MAP_SWIZZLE_...
};
inline constexpr std::int64_t kTmaOutOfBounds = std::numeric_limits<std::int64_t>::min();

struct CopySite {
  std::string label;  // where the call is, for messages
  CopyKind kind = CopyKind::AutoVectorizing;
  const Atom* atom = nullptr;  // CopyKind::Atom: a copy atom of the catalogue
  int element_bits = 32;
  CopyOperand src, dst;
  std::int64_t executions = 1;  // how many times each thread executes the call
  TmaBox tma;                   // CopyKind::Tma
  // copy_if: active[t][i] is false where the predicate masks thread t's
  // element i (a masked access issues nothing); empty: every element copied.
  std::vector<std::vector<bool>> active;
  bool predicated = false;  // copy_if: CuTe copies element by element where it copies without an atom
};

// The SASS instructions the model knows, as Nsight Compute sorts them.
enum class Sass { LDG, STG, LDS, STS, LDSM, STSM, LDGSTS };

// One instruction of a call site, summed over every warp and execution.
struct InstructionTraffic {
  Sass op = Sass::LDG;
  int bits = 32;                             // bytes moved per lane x 8 (a matrix row for LDSM/STSM)
  int cute_bits = 32;                        // what CuTe asks for; nvcc merges narrower shared accesses
  SharedAccess access = SharedAccess::Ld32;  // shared side, for the bank model
  std::int64_t per_thread = 0;               // instructions each thread issues per execution
  std::int64_t instructions = 0;             // warp-wide instructions
  // Global memory (LDG, STG, LDGSTS's source).
  std::int64_t requests = 0, sectors = 0, min_sectors = 0, bytes = 0;
  std::int64_t worst_sectors = 0;  // in one warp instruction
  int widest_bits = 0;             // the widest access the global side's elements allow a thread (128 at most)
  // Shared memory (LDS, STS, LDSM, STSM, LDGSTS's destination).
  std::int64_t wavefronts = 0, ideal = 0;
  int conflict_degree = 0;  // the most distinct words one bank served in a phase
};

// A TMA call site's bulk tensor copies, summed over every thread and execution.
struct TmaTraffic {
  std::int64_t instructions = 0;  // bulk tensor copies issued
  std::int64_t threads = 0;       // threads that issue them
  std::int64_t per_thread = 0;    // copies a thread issues per execution
  std::int64_t box_bytes = 0;     // bytes one copy moves
  // Global memory: 32-byte sectors read (a load) or written, the least the
  // in-bounds bytes need, and those bytes.
  std::int64_t sectors = 0, min_sectors = 0, bytes = 0;
};

// What copy_if's predicate did at a call site, every execution together.
struct Predication {
  bool predicated = false;
  bool zero_fill = false;                 // a masked element is written as zero (cp.async ZFILL), read from nowhere
  std::int64_t elements = 0, masked = 0;  // every thread's, both counted once per element copied or not
  std::vector<std::int64_t> masked_per_thread;  // by thread index; threads that never call it have 0
  std::int64_t idle_threads = 0;                // threads that call it with every element masked, every time
};

struct SiteTraffic {
  std::string label;
  CopyKind kind = CopyKind::AutoVectorizing;
  std::string atom;  // the atom's name, "" when there is none
  MemorySpace src = MemorySpace::Register, dst = MemorySpace::Register;
  int element_bits = 32;
  std::int64_t values_per_thread = 0;  // per execution, the most any thread copies
  std::int64_t executions = 1;
  std::int64_t threads = 0;                      // threads that execute the call
  std::vector<InstructionTraffic> instructions;  // load/store unit instructions (none for TMA)
  TmaBox tma_box;                                // CopyKind::Tma
  TmaTraffic tma;
  Predication predication;
};

// The instructions the call site issues and their cost. Throws Error for a
// copy the model does not know (an MMA atom, mismatched sides, an access
// width the bank model lacks).
SiteTraffic predict_traffic(const CopySite& site);

// Whether the site's atom fills a masked element with zeros (cp.async's
// ZFILL: CuTe hands it the predicate) rather than skipping it.
bool zero_fills(const CopySite& s);

std::string_view sass_name(Sass op);
// Whether the instruction reads or writes global memory (LDG, STG, LDGSTS), shared memory (the others).
bool is_global_access(Sass op);
bool is_shared_access(Sass op);
std::string_view space_name(MemorySpace s);  // "global", "shared", "register"

}  // namespace layoutx
