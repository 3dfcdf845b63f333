// Shared-memory bank conflicts as an NVIDIA GPU (sm_70 through sm_90) counts
// them: the wavefronts one warp-wide instruction takes, which lanes are served
// together, and which lanes collide in which bank. The rules are the
// documented ones (32 banks of 4 bytes, one word per bank per wavefront, a
// word read by several lanes is broadcast) plus what Nsight Compute measured
// on an H200 (tests/data/bank_measured.tsv):
//   - 8- and 16-byte accesses are served by half- and quarter-warps (phases);
//   - a vector load whose lanes pair up on equal addresses (lane n with n^1
//     for every lane, or n with n^2) packs two lanes per slot: phases twice
//     as wide. Stores never pack.
//   - ldmatrix/stmatrix serve one 8x16-byte matrix per phase.
// A phase takes as many wavefronts as the most distinct words any one bank
// must deliver; the instruction takes the sum over its phases.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "layoutx/swizzle_algebra.hpp"

namespace layoutx {

inline constexpr int kWarpLanes = 32;
inline constexpr int kBanks = 32;
inline constexpr int kBankBytes = 4;

// The shared-memory instructions the model knows, by the names the command line uses.
enum class SharedAccess {
  Ld16,
  Ld32,
  Ld64,
  Ld128,
  St16,
  St32,
  St64,
  St128,
  Ldsm1,
  Ldsm2,
  Ldsm4,
  Ldsm1t,
  Ldsm2t,
  Ldsm4t,
  Stsm1,
  Stsm2,
  Stsm4,
  Stsm4t,
};

struct AccessInfo {
  SharedAccess access;
  std::string_view name;         // "ld128"
  std::string_view instruction;  // "LDS.128"
  int bytes;                     // bytes per lane (a matrix row for ldmatrix/stmatrix)
  bool store;
  int matrices;  // 8x8 b16 matrices for ldmatrix/stmatrix, 0 otherwise
  bool transposed;
};

const AccessInfo& access_info(SharedAccess a);
std::optional<SharedAccess> find_access(std::string_view name);
std::span<const AccessInfo> all_accesses();
// Lanes whose addresses the instruction reads: 8 per matrix, else every lane.
int lanes_used(SharedAccess a);

// A distinct 4-byte word a bank delivers in a phase, and the lanes that use it.
struct BankWord {
  std::int64_t word = 0;  // byte offset / 4
  std::vector<int> lanes;
};

// The lanes served together; a bank's words go out one per wavefront.
struct BankPhase {
  std::vector<int> lanes;
  int wavefronts = 0;
  std::array<std::vector<BankWord>, kBanks> banks;  // distinct words, in order of their first lane
};

// One warp-wide instruction.
struct InstructionBanks {
  std::vector<std::int64_t> byte_offsets;  // per lane 0..n-1 (for ldmatrix: the row each lane supplies)
  bool packed = false;                     // lane pairs shared addresses: two lanes per slot
  int pair_distance = 0;                   // 1 or 2 when packed: lane n shares with n^pair_distance
  std::vector<BankPhase> phases;
  int wavefronts = 0;
  int ideal = 0;            // the phases: the wavefronts had no bank held two words
  int conflict_degree = 0;  // the most distinct words one bank delivered in a phase ("n-way")
};

// Wavefronts of one instruction whose lanes 0..n-1 access these byte offsets
// (n <= 32; lanes past n are inactive; ldmatrix/stmatrix need 8 per matrix and
// ignore the rest). Throws Error for offsets the instruction cannot take
// (negative, misaligned).
InstructionBanks analyze_instruction(SharedAccess access, std::span<const std::int64_t> byte_offsets);

// The counts alone, without the per-bank detail: what the swizzle search calls
// thousands of times.
struct WavefrontCount {
  int wavefronts = 0;
  int ideal = 0;
};
WavefrontCount count_wavefronts(SharedAccess access, std::span<const std::int64_t> byte_offsets);

// A warp's accesses described by a layout: index i = lane + 32 * instruction
// maps to the element offset of lane's access in that instruction; with a
// shared-memory layout, the index maps to a coordinate of it instead and the
// offset is smem(coordinate). Elements are elem_bits wide.
struct BankAnalysis {
  SharedAccess access;
  std::int64_t elem_bits = 0;
  std::vector<InstructionBanks> instructions;
  int wavefronts = 0;  // summed over the instructions
  int ideal = 0;
  int conflict_degree = 0;
};

// Offsets past shared memory are a warning in `diag`.
BankAnalysis analyze_banks(SharedAccess access, const AnyLayout& threads, std::int64_t elem_bits, Diagnostics& diag,
                           const AnyLayout* smem = nullptr);

// The friendlier form: a CuTe TV layout (thread, value) -> coordinate of
// `smem`. Each thread accesses its values `vector` at a time (the access's
// width in elements), which must lie contiguous in shared memory; warp w's
// threads 32w..32w+31 take one instruction per vector. Not for ldmatrix.
BankAnalysis analyze_tv_banks(SharedAccess access, const Layout& tv, const AnyLayout& smem, std::int64_t elem_bits,
                              Diagnostics& diag);

// Byte offset of element `offset`, checked: whole bytes, no overflow.
std::int64_t element_byte_offset(std::int64_t offset, std::int64_t elem_bits);

// The most shared memory one block can have on sm_90 (227 KB); offsets past
// it raise a warning.
inline constexpr std::int64_t kMaxSharedBytes = 227 * 1024;

}  // namespace layoutx
