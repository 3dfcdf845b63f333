// The bank model of bank.hpp: which lanes form a phase, and how many distinct
// words each bank must deliver in it.
#include <fmt/format.h>

#include <algorithm>

#include "layoutx/bank.hpp"

namespace layoutx {

namespace {

constexpr AccessInfo kAccesses[] = {
    {SharedAccess::Ld16, "ld16", "LDS.U16", 2, false, 0, false},
    {SharedAccess::Ld32, "ld32", "LDS", 4, false, 0, false},
    {SharedAccess::Ld64, "ld64", "LDS.64", 8, false, 0, false},
    {SharedAccess::Ld128, "ld128", "LDS.128", 16, false, 0, false},
    {SharedAccess::St16, "st16", "STS.U16", 2, true, 0, false},
    {SharedAccess::St32, "st32", "STS", 4, true, 0, false},
    {SharedAccess::St64, "st64", "STS.64", 8, true, 0, false},
    {SharedAccess::St128, "st128", "STS.128", 16, true, 0, false},
    {SharedAccess::Ldsm1, "ldsm1", "LDSM.16.M88", 16, false, 1, false},
    {SharedAccess::Ldsm2, "ldsm2", "LDSM.16.M88.2", 16, false, 2, false},
    {SharedAccess::Ldsm4, "ldsm4", "LDSM.16.M88.4", 16, false, 4, false},
    {SharedAccess::Ldsm1t, "ldsm1t", "LDSM.16.MT88", 16, false, 1, true},
    {SharedAccess::Ldsm2t, "ldsm2t", "LDSM.16.MT88.2", 16, false, 2, true},
    {SharedAccess::Ldsm4t, "ldsm4t", "LDSM.16.MT88.4", 16, false, 4, true},
    {SharedAccess::Stsm1, "stsm1", "STSM.16.M88", 16, true, 1, false},
    {SharedAccess::Stsm2, "stsm2", "STSM.16.M88.2", 16, true, 2, false},
    {SharedAccess::Stsm4, "stsm4", "STSM.16.M88.4", 16, true, 4, false},
    {SharedAccess::Stsm4t, "stsm4t", "STSM.16.MT88.4", 16, true, 4, true},
};

// Shared-memory addresses are 32-bit; larger offsets cannot be an access.
constexpr std::int64_t kAddressLimit = std::int64_t{1} << 32;

// Lanes served together: lane l belongs to phase_of[l].
struct Schedule {
  std::array<int, kWarpLanes> phase_of{};
  int phases = 0;
  int used = 0;           // lanes 0..used-1 take part
  int pair_distance = 0;  // 1 or 2 when a vector load packs lane pairs
};

// Every lane n whose partner n^d takes part reads the partner's address.
bool lanes_pair_up(std::span<const std::int64_t> offsets, int used, int d) {
  for (int lane = 0; lane < used; ++lane) {
    const int partner = lane ^ d;
    if (partner < used && offsets[lane] != offsets[partner]) return false;
  }
  return true;
}

Schedule schedule(const AccessInfo& info, std::span<const std::int64_t> offsets) {
  Schedule s;
  s.used = info.matrices ? 8 * info.matrices : static_cast<int>(offsets.size());
  // One 128-byte wavefront carries 32 words: a phase holds as many lanes as
  // that feeds, twice as many when equal lane pairs share their slots.
  int width = info.matrices ? 8 : std::min(kWarpLanes, kWarpLanes * kBankBytes / info.bytes);
  if (!info.matrices && info.bytes > kBankBytes && !info.store) {
    for (int d : {1, 2}) {
      if (lanes_pair_up(offsets, s.used, d)) {
        s.pair_distance = d;
        width *= 2;
        break;
      }
    }
  }
  for (int lane = 0; lane < s.used; ++lane) s.phase_of[lane] = lane / width;
  s.phases = (s.used + width - 1) / width;
  return s;
}

void check_offsets(const AccessInfo& info, std::span<const std::int64_t> offsets) {
  const int needed = info.matrices ? 8 * info.matrices : 1;
  if (offsets.size() > static_cast<std::size_t>(kWarpLanes))
    throw Error(
        fmt::format("{} is one warp's access: at most {} lanes, got {}", info.name, kWarpLanes, offsets.size()));
  if (offsets.size() < static_cast<std::size_t>(needed))
    throw Error(fmt::format("{} takes a row address from each of lanes 0..{}, got {} lane{}", info.name, needed - 1,
                            offsets.size(), offsets.size() == 1 ? "" : "s"));
  const int used = info.matrices ? needed : static_cast<int>(offsets.size());
  for (int lane = 0; lane < used; ++lane) {
    const std::int64_t o = offsets[lane];
    if (o < 0)
      throw Error(fmt::format("lane {} accesses byte offset {}: shared memory offsets are not negative", lane, o));
    if (o >= kAddressLimit - info.bytes)
      throw Error(fmt::format("lane {} accesses byte offset {}: beyond the 32-bit shared address space", lane, o));
    if (o % info.bytes != 0)
      throw Error(fmt::format("lane {} accesses byte offset {}, not a multiple of {}: {} needs {}-byte aligned {}",
                              lane, o, info.bytes, info.name, info.bytes, info.matrices ? "rows" : "addresses"));
  }
}

// (phase, bank, word, lane) packed so that sorting groups a bank's words.
struct Touch {
  std::uint64_t key;  // phase, bank, word
  int lane;
  bool operator<(const Touch& o) const { return key != o.key ? key < o.key : lane < o.lane; }
};

constexpr int kWordBits = 32;

std::uint64_t touch_key(int phase, std::int64_t word) {
  const auto bank = static_cast<std::uint64_t>(word % kBanks);
  return (static_cast<std::uint64_t>(phase) << (kWordBits + 5)) | (bank << kWordBits) |
         static_cast<std::uint64_t>(word);
}
int key_phase(std::uint64_t key) { return static_cast<int>(key >> (kWordBits + 5)); }
int key_bank(std::uint64_t key) { return static_cast<int>((key >> kWordBits) & (kBanks - 1)); }
std::int64_t key_word(std::uint64_t key) { return static_cast<std::int64_t>(key & 0xffffffffu); }

// Every (phase, bank, word) each lane touches, sorted; at most 32 lanes x 4 words.
int collect_touches(const AccessInfo& info, std::span<const std::int64_t> offsets, const Schedule& s,
                    std::array<Touch, kWarpLanes * 4>& touches) {
  int n = 0;
  for (int lane = 0; lane < s.used; ++lane) {
    const std::int64_t first = offsets[lane] / kBankBytes;
    const std::int64_t last = (offsets[lane] + info.bytes - 1) / kBankBytes;
    for (std::int64_t w = first; w <= last; ++w) touches[n++] = Touch{touch_key(s.phase_of[lane], w), lane};
  }
  std::sort(touches.begin(), touches.begin() + n);
  return n;
}

// A phase serves at least 8 lanes, so a warp has at most 4.
constexpr int kMaxPhases = kWarpLanes / 8;
using PhaseCounts = std::array<int, kMaxPhases>;

// Wavefronts of each phase: the most distinct words one bank delivers (at least 1).
template <class OnWord>
void count_phases(const std::array<Touch, kWarpLanes * 4>& touches, int n, PhaseCounts& per_phase, OnWord on_word) {
  std::uint64_t run_bank = ~std::uint64_t{0};
  int words_in_bank = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t key = touches[i].key;
    const bool new_word = i == 0 || key != touches[i - 1].key;
    if (!new_word) {
      on_word(touches[i], false);
      continue;
    }
    const std::uint64_t bank = key >> kWordBits;  // phase and bank
    words_in_bank = bank == run_bank ? words_in_bank + 1 : 1;
    run_bank = bank;
    int& w = per_phase[key_phase(key)];
    w = std::max(w, words_in_bank);
    on_word(touches[i], true);
  }
}

}  // namespace

const AccessInfo& access_info(SharedAccess a) { return kAccesses[static_cast<int>(a)]; }

std::optional<SharedAccess> find_access(std::string_view name) {
  for (const auto& a : kAccesses)
    if (a.name == name) return a.access;
  return std::nullopt;
}

std::span<const AccessInfo> all_accesses() { return kAccesses; }

int lanes_used(SharedAccess a) {
  const AccessInfo& info = access_info(a);
  return info.matrices ? 8 * info.matrices : kWarpLanes;
}

WavefrontCount count_wavefronts(SharedAccess access, std::span<const std::int64_t> byte_offsets) {
  const AccessInfo& info = access_info(access);
  check_offsets(info, byte_offsets);
  const Schedule s = schedule(info, byte_offsets);
  // The search's hot path: each bank's distinct words kept in a short list
  // (no sort); analyze_instruction counts the same thing through sorting.
  // A lane's access spans at most 4 consecutive words, one per bank: a bank
  // holds at most one word per lane.
  std::array<std::array<int, kBanks>, kMaxPhases> counts{};
  std::array<std::array<std::array<std::int64_t, kWarpLanes>, kBanks>, kMaxPhases> words;
  PhaseCounts per_phase;
  per_phase.fill(1);
  for (int lane = 0; lane < s.used; ++lane) {
    const int p = s.phase_of[lane];
    const std::int64_t first = byte_offsets[lane] / kBankBytes;
    const std::int64_t last = (byte_offsets[lane] + info.bytes - 1) / kBankBytes;
    for (std::int64_t w = first; w <= last; ++w) {
      const int bank = static_cast<int>(w % kBanks);
      auto& list = words[p][bank];
      int& n = counts[p][bank];
      if (std::find(list.begin(), list.begin() + n, w) != list.begin() + n) continue;
      list[n++] = w;
      per_phase[p] = std::max(per_phase[p], n);
    }
  }
  WavefrontCount c{0, s.phases};
  for (int p = 0; p < s.phases; ++p) c.wavefronts += per_phase[p];
  return c;
}

InstructionBanks analyze_instruction(SharedAccess access, std::span<const std::int64_t> byte_offsets) {
  const AccessInfo& info = access_info(access);
  check_offsets(info, byte_offsets);
  const Schedule s = schedule(info, byte_offsets);
  std::array<Touch, kWarpLanes * 4> touches;
  const int n = collect_touches(info, byte_offsets, s, touches);

  InstructionBanks r;
  r.byte_offsets.assign(byte_offsets.begin(), byte_offsets.end());
  r.packed = s.pair_distance != 0;
  r.pair_distance = s.pair_distance;
  r.phases.resize(s.phases);
  for (int lane = 0; lane < s.used; ++lane) r.phases[s.phase_of[lane]].lanes.push_back(lane);
  PhaseCounts per_phase;
  per_phase.fill(1);
  count_phases(touches, n, per_phase, [&](const Touch& t, bool new_word) {
    auto& words = r.phases[key_phase(t.key)].banks[key_bank(t.key)];
    if (new_word) words.push_back(BankWord{key_word(t.key), {}});
    auto& lanes = words.back().lanes;
    if (lanes.empty() || lanes.back() != t.lane) lanes.push_back(t.lane);
  });
  // The hardware's order of a bank's words is unknown; show them by first lane.
  for (auto& phase : r.phases)
    for (auto& words : phase.banks)
      std::sort(words.begin(), words.end(),
                [](const BankWord& a, const BankWord& b) { return a.lanes[0] < b.lanes[0]; });
  for (int p = 0; p < s.phases; ++p) {
    r.phases[p].wavefronts = per_phase[p];
    r.wavefronts += per_phase[p];
    r.conflict_degree = std::max(r.conflict_degree, per_phase[p]);
  }
  r.ideal = s.phases;
  return r;
}

}  // namespace layoutx
