#include "layoutx/memory_traffic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "layoutx/analysis.hpp"
#include "layoutx/thread_accesses.hpp"

namespace layoutx {

namespace {

constexpr int kMaxVectorBits = 128;

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// Bits one thread moves in one call of the atom (its source layout's value mode).
std::int64_t atom_bits_per_thread(const Atom& atom) { return size(get(atom.copy.src, 1)).value; }

// The widest run, in elements, that every executing thread's offsets keep
// contiguous and aligned, within `limit` elements.
std::int64_t common_vector(const CopyOperand& side, std::int64_t limit) {
  std::int64_t v = limit;
  for (const auto& offsets : side.offsets)
    if (!offsets.empty()) v = std::min(v, contiguous_vector(offsets, v));
  return std::max<std::int64_t>(v, 1);
}

std::int64_t values_of(const CopySite& s) {
  std::int64_t n = 0;
  for (const auto& o : s.src.offsets) n = std::max<std::int64_t>(n, static_cast<std::int64_t>(o.size()));
  return n;
}

void check_sides(const CopySite& s) {
  if (s.element_bits <= 0 || s.element_bits % 8 != 0)
    throw Error(
        fmt::format("{}: {}-bit elements are not whole bytes; the model counts bytes", s.label, s.element_bits));
  if (s.src.offsets.size() != s.dst.offsets.size())
    throw Error(fmt::format("{}: the source has {} threads, the destination {}", s.label, s.src.offsets.size(),
                            s.dst.offsets.size()));
  for (std::size_t t = 0; t < s.src.offsets.size(); ++t)
    if (s.src.offsets[t].size() != s.dst.offsets[t].size())
      throw Error(fmt::format("{}: thread {} copies {} elements from {} elements", s.label, t, s.dst.offsets[t].size(),
                              s.src.offsets[t].size()));
  if (s.executions < 0) throw Error(fmt::format("{}: a negative number of executions", s.label));
  if (!s.active.empty()) {
    if (s.active.size() != s.src.offsets.size())
      throw Error(fmt::format("{}: the predicate covers {} threads, the copy {}", s.label, s.active.size(),
                              s.src.offsets.size()));
    for (std::size_t t = 0; t < s.active.size(); ++t)
      if (!s.active[t].empty() && s.active[t].size() != s.src.offsets[t].size())
        throw Error(fmt::format("{}: thread {}'s predicate has {} elements, its copy {}", s.label, t,
                                s.active[t].size(), s.src.offsets[t].size()));
  }
}

// What one instruction of the site looks like before it is counted.
struct Plan {
  Sass op;
  int bits;  // per lane
  int cute_bits;
  SharedAccess access;  // shared side
  const CopyOperand* global = nullptr;
  const CopyOperand* shared = nullptr;
  std::int64_t step = 1;  // elements between one access's first element and the next's
};

SharedAccess plain_access(bool store, int bits, const std::string& label) {
  const auto a = find_access(fmt::format("{}{}", store ? "st" : "ld", bits));
  if (!a)
    throw Error(
        fmt::format("{}: the bank model has no {}-bit shared-memory {}", label, bits, store ? "store" : "load"));
  return *a;
}

// Plain loads and stores of `chunk` elements a thread, one per side that is
// memory; nvcc merges a thread's neighbouring shared-memory accesses (static
// layouts, aligned arrays) up to 128 bits, which it cannot prove for global
// memory reached through a kernel's pointer argument, nor for accesses each
// under its own predicate.
void plain_plans(const CopySite& s, std::int64_t chunk, std::vector<Plan>& plans) {
  const int cute_bits = static_cast<int>(chunk * s.element_bits);
  for (const bool store : {false, true}) {
    const CopyOperand& side = store ? s.dst : s.src;
    if (side.space == MemorySpace::Global) {
      plans.push_back(
          Plan{store ? Sass::STG : Sass::LDG, cute_bits, cute_bits, SharedAccess::Ld32, &side, nullptr, chunk});
    } else if (side.space == MemorySpace::Shared) {
      // Accesses under their own predicates (copy_if) stay apart.
      const std::int64_t merged =
          s.predicated ? chunk : std::max(chunk, common_vector(side, kMaxVectorBits / s.element_bits));
      const int bits = static_cast<int>(merged * s.element_bits);
      plans.push_back(Plan{store ? Sass::STS : Sass::LDS, bits, cute_bits, plain_access(store, bits, s.label), nullptr,
                           &side, merged});
    }
  }
}

void atom_plans(const CopySite& s, std::vector<Plan>& plans) {
  const Atom& atom = *s.atom;
  if (atom.kind != Atom::Kind::Copy)
    throw Error(fmt::format("{}: {} is an MMA atom, not a copy atom", s.label, atom.name));
  const std::int64_t bits = atom_bits_per_thread(atom);
  if (bits % s.element_bits != 0)
    throw Error(fmt::format("{}: {} moves {} bits a thread, not a whole number of {}-bit elements", s.label, atom.name,
                            bits, s.element_bits));
  const std::int64_t chunk = bits / s.element_bits;
  if (starts_with(atom.name, "SM80_CP_ASYNC")) {
    if (s.src.space != MemorySpace::Global || s.dst.space != MemorySpace::Shared)
      throw Error(fmt::format("{}: {} copies global to shared memory, not {} to {}", s.label, atom.name,
                              space_name(s.src.space), space_name(s.dst.space)));
    plans.push_back(Plan{Sass::LDGSTS, static_cast<int>(bits), static_cast<int>(bits),
                         plain_access(true, static_cast<int>(bits), s.label), &s.src, &s.dst, chunk});
    return;
  }
  if (atom.name.find("LDSM") != std::string::npos || atom.name.find("STSM") != std::string::npos) {
    const bool store = atom.name.find("STSM") != std::string::npos;
    const CopyOperand& shared = store ? s.dst : s.src;
    if (shared.space != MemorySpace::Shared)
      throw Error(fmt::format("{}: {} {} shared memory, but the {} is in {} memory", s.label, atom.name,
                              store ? "writes" : "reads", store ? "destination" : "source", space_name(shared.space)));
    const SharedAccess access = shared_access_of(atom, store);
    // Each lane supplies one 16-byte row of a matrix per call: the first element of its chunk.
    plans.push_back(Plan{store ? Sass::STSM : Sass::LDSM, 128, 128, access, nullptr, &shared, chunk});
    return;
  }
  if (starts_with(atom.name, "UniversalCopy")) {
    plain_plans(s, chunk, plans);
    return;
  }
  throw Error(fmt::format("{}: the report does not know the instructions of {}", s.label, atom.name));
}

// One thread's bulk tensor copies of one execution: each box's in-bounds
// global elements, the distinct 32-byte sectors they lie in.
void count_boxes(const CopySite& s, const std::vector<std::int64_t>& global, TmaTraffic& t) {
  const std::int64_t elem_bytes = s.element_bits / 8;
  const std::int64_t n = static_cast<std::int64_t>(global.size());
  if (s.tma.elements < 1 || n % s.tma.elements != 0)
    throw Error(fmt::format("{}: {} elements are no whole number of TMA boxes of {}", s.label, n, s.tma.elements));
  const std::int64_t moved = s.tma.elements / std::max<std::int64_t>(s.tma.multicast, 1);
  std::vector<std::int64_t> sectors;
  for (std::int64_t box = 0; box < n; box += s.tma.elements) {
    sectors.clear();
    std::int64_t bytes = 0;
    for (std::int64_t i = box; i < box + moved; ++i) {
      const std::int64_t o = global[static_cast<std::size_t>(i)];
      if (o == kTmaOutOfBounds) continue;
      const std::int64_t address = checked_mul(o, elem_bytes, "a byte address");
      sectors.push_back(address >= 0 ? address / 32 : -((-address + 31) / 32));
      bytes += elem_bytes;
    }
    std::sort(sectors.begin(), sectors.end());
    t.sectors += std::unique(sectors.begin(), sectors.end()) - sectors.begin();
    t.min_sectors += (bytes + 31) / 32;
    t.bytes += bytes;
    ++t.instructions;
  }
  t.per_thread = std::max(t.per_thread, n / s.tma.elements);
  t.box_bytes = moved * elem_bytes;
}

TmaTraffic tma_traffic(const CopySite& s) {
  TmaTraffic t;
  for (const auto& global : (s.tma.load ? s.src : s.dst).offsets) {
    if (global.empty()) continue;
    ++t.threads;
    count_boxes(s, global, t);
  }
  for (std::int64_t* v : {&t.instructions, &t.sectors, &t.min_sectors, &t.bytes})
    *v = checked_mul(*v, s.executions, "the bulk copy count");
  return t;
}

std::vector<Plan> plans_of(const CopySite& s) {
  std::vector<Plan> plans;
  if (s.kind == CopyKind::Atom) {
    if (!s.atom) throw Error(fmt::format("{}: a copy through an atom needs the atom", s.label));
    atom_plans(s, plans);
    return plans;
  }
  // CuTe's copy(src, dst): vectorized over what both sides keep contiguous,
  // up to 128 bits, where both layouts are static; element by element
  // otherwise, and always for copy_if, each element under its own predicate.
  if (s.predicated) {
    plain_plans(s, 1, plans);
    return plans;
  }
  const std::int64_t limit = std::max(1, kMaxVectorBits / s.element_bits);
  const std::int64_t chunk = s.src.static_layout && s.dst.static_layout
                                 ? std::min(common_vector(s.src, limit), common_vector(s.dst, limit))
                                 : 1;
  plain_plans(s, chunk, plans);
  return plans;
}

}  // namespace

bool zero_fills(const CopySite& s) { return s.atom && s.atom->name.find("_ZFILL") != std::string::npos; }

namespace {

// Whether thread t's element i is copied (copy_if's predicate holds for it).
bool is_active(const CopySite& s, std::size_t t, std::size_t i) {
  return s.active.empty() || s.active[t].empty() || s.active[t][i];
}

// Lane addresses of access `a` in warp `w`, in bytes: the lanes whose
// predicate holds (an instruction every lane masks is not executed: Nsight's
// sass_inst_executed counts skip it).
std::vector<std::int64_t> lane_addresses(const CopySite& s, const CopyOperand& side, std::int64_t warp, std::int64_t a,
                                         std::int64_t step, std::int64_t elem_bytes, bool masked_too = false) {
  std::vector<std::int64_t> out;
  const auto threads = static_cast<std::int64_t>(side.offsets.size());
  for (std::int64_t t = warp * kWarpLanes; t < std::min(threads, (warp + 1) * kWarpLanes); ++t) {
    const auto& o = side.offsets[static_cast<std::size_t>(t)];
    const auto i = static_cast<std::size_t>(a * step);
    if (i < o.size() && (masked_too || is_active(s, static_cast<std::size_t>(t), i)))
      out.push_back(checked_mul(o[i], elem_bytes, "a byte address"));
  }
  return out;
}

InstructionTraffic count(const CopySite& s, const Plan& p, std::int64_t values) {
  InstructionTraffic x;
  x.op = p.op;
  x.bits = p.bits;
  x.cute_bits = p.cute_bits;
  x.access = p.access;
  x.per_thread = values / p.step;
  const std::int64_t elem_bytes = s.element_bits / 8;
  const auto threads = static_cast<std::int64_t>(s.src.offsets.size());
  const std::int64_t warps = (threads + kWarpLanes - 1) / kWarpLanes;
  const std::int64_t lane_bytes = p.bits / 8;
  CoalescingOptions sectors;
  if (p.global)
    x.widest_bits =
        static_cast<int>(common_vector(*p.global, std::max(1, kMaxVectorBits / s.element_bits)) * s.element_bits);
  // A zero-filling cp.async issues for a masked lane too (it reads nothing
  // and writes zeros): measured, its warp instructions count every warp,
  // its requests only those with a lane that reads.
  const bool fill = zero_fills(s);
  for (std::int64_t w = 0; w < warps; ++w)
    for (std::int64_t a = 0; a < x.per_thread; ++a) {
      const CopyOperand& any = p.global ? *p.global : *p.shared;
      if (lane_addresses(s, any, w, a, p.step, elem_bytes, fill).empty()) continue;
      ++x.instructions;
      const auto read = p.global ? lane_addresses(s, *p.global, w, a, p.step, elem_bytes) : std::vector<std::int64_t>{};
      if (!read.empty()) {
        const auto& addresses = read;
        const WarpSectors ws = warp_sectors(addresses, lane_bytes, sectors);
        ++x.requests;
        x.sectors += ws.sectors;
        x.min_sectors += ws.min_sectors;
        x.bytes += ws.unique_bytes;
        x.worst_sectors = std::max(x.worst_sectors, ws.sectors);
      }
      if (p.shared) {
        const auto addresses = lane_addresses(s, *p.shared, w, a, p.step, elem_bytes, fill);
        const InstructionBanks banks = analyze_instruction(p.access, addresses);
        x.wavefronts += banks.wavefronts;
        x.ideal += banks.ideal;
        x.conflict_degree = std::max(x.conflict_degree, banks.conflict_degree);
      }
    }
  for (std::int64_t* v : {&x.instructions, &x.requests, &x.sectors, &x.min_sectors, &x.bytes, &x.wavefronts, &x.ideal})
    *v = checked_mul(*v, s.executions, "the instruction count");
  return x;
}

}  // namespace

std::string_view space_name(MemorySpace s) {
  switch (s) {
    case MemorySpace::Global: return "global";
    case MemorySpace::Shared: return "shared";
    default: return "register";
  }
}

bool is_global_access(Sass op) { return op == Sass::LDG || op == Sass::STG || op == Sass::LDGSTS; }
bool is_shared_access(Sass op) { return op != Sass::LDG && op != Sass::STG; }

std::string_view sass_name(Sass op) {
  switch (op) {
    case Sass::LDG: return "LDG";
    case Sass::STG: return "STG";
    case Sass::LDS: return "LDS";
    case Sass::STS: return "STS";
    case Sass::LDSM: return "LDSM";
    case Sass::STSM: return "STSM";
    default: return "LDGSTS";
  }
}

SiteTraffic predict_traffic(const CopySite& s) {
  check_sides(s);
  SiteTraffic t;
  t.label = s.label;
  t.kind = s.kind;
  t.atom = s.atom ? s.atom->name : "";
  t.src = s.src.space;
  t.dst = s.dst.space;
  t.element_bits = s.element_bits;
  t.values_per_thread = values_of(s);
  t.executions = s.executions;
  t.threads = std::count_if(s.src.offsets.begin(), s.src.offsets.end(), [](const auto& o) { return !o.empty(); });
  if (s.kind == CopyKind::Tma) {
    t.tma_box = s.tma;
    t.tma = tma_traffic(s);
    return t;
  }
  for (const Plan& p : plans_of(s)) t.instructions.push_back(count(s, p, t.values_per_thread));
  return t;
}

}  // namespace layoutx
