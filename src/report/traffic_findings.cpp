#include "layoutx/traffic_findings.hpp"

#include <fmt/format.h>

namespace layoutx {

namespace {

std::string instruction_text(const InstructionTraffic& x) {
  if (x.op == Sass::LDSM || x.op == Sass::STSM) return std::string(access_info(x.access).instruction);
  return fmt::format("{}.{}", sass_name(x.op), x.bits);
}

void global_findings(const SiteTraffic& t, const InstructionTraffic& x, std::vector<Finding>& out) {
  if (x.requests == 0) return;
  if (x.sectors > x.min_sectors) {
    const double per = static_cast<double>(x.sectors) / static_cast<double>(x.requests);
    const double need = static_cast<double>(x.min_sectors) / static_cast<double>(x.requests);
    const bool straddles = x.sectors - x.min_sectors <= x.requests;
    out.push_back(Finding{
        straddles ? Finding::Kind::Misaligned : Finding::Kind::Uncoalesced, t.label,
        fmt::format("{}: {:.3g} sectors per request where {:.3g} hold the bytes ({}% of the fetched bytes used)",
                    instruction_text(x), per, need, x.bytes * 100 / (x.sectors * 32)),
        straddles
            ? "each warp's bytes straddle a sector boundary: start the tensor, and each of its rows or columns "
              "(a leading dimension of a multiple of 32 bytes), at a 32-byte aligned address (the model "
              "assumes element 0 is 128-byte aligned; offsets shown include the pointer's)"
            : "make consecutive threads walk the tensor's contiguous (stride-1) mode, each with a vector access"});
  }
  if (x.widest_bits > x.bits && x.op != Sass::LDGSTS)
    out.push_back(Finding{
        Finding::Kind::Narrow, t.label,
        fmt::format("{}: {} accesses a thread where the elements allow {}-bit ones", instruction_text(x), x.per_thread,
                    x.widest_bits),
        t.kind == CopyKind::AutoVectorizing
            ? fmt::format("CuTe copies a tensor with run-time strides element by element: copy through "
                          "Copy_Atom<UniversalCopy<uint{}_t>, T> (the pointer must be aligned to it)",
                          x.widest_bits)
            : fmt::format("use a {}-bit copy atom (UniversalCopy<uint{}_t>, or SM80_CP_ASYNC_CACHEALWAYS<uint{}_t> "
                          "into shared memory)",
                          x.widest_bits, x.widest_bits, x.widest_bits)});
}

void shared_findings(const SiteTraffic& t, const InstructionTraffic& x, std::vector<Finding>& out) {
  if (x.wavefronts <= x.ideal) return;
  out.push_back(Finding{Finding::Kind::BankConflict, t.label,
                        fmt::format("{}: {}-way bank conflicts, {} wavefronts where {} would do", instruction_text(x),
                                    x.conflict_degree, x.wavefronts, x.ideal),
                        "swizzle or pad the shared-memory layout (layoutx swizzle-search finds one for its "
                        "readers and writers)"});
}

// A TMA copy moves its whole box for each thread that calls it; a box whose
// rows start or end inside a sector fetches bytes it does not hold.
void tma_findings(const SiteTraffic& t, std::vector<Finding>& out) {
  const TmaTraffic& x = t.tma;
  if (x.instructions == 0) return;
  if (x.threads > 1)
    out.push_back(Finding{Finding::Kind::Redundant, t.label,
                          fmt::format("{}: issued by {} threads of the CTA, each moving the whole box: {} bulk copies "
                                      "where {} would do",
                                      t.tma_box.op, x.threads, x.instructions, x.instructions / x.threads),
                          "issue the copy from one thread (if (threadIdx.x == 0), or warp 0's elect_one_sync()): "
                          "one TMA copy fills the box for the whole CTA"});
  if (x.sectors > x.min_sectors)
    out.push_back(Finding{
        Finding::Kind::Uncoalesced, t.label,
        fmt::format("{}: {:.3g} sectors a copy where {:.3g} hold the bytes ({}% of the fetched bytes used)",
                    t.tma_box.op, static_cast<double>(x.sectors) / static_cast<double>(x.instructions),
                    static_cast<double>(x.min_sectors) / static_cast<double>(x.instructions),
                    x.bytes * 100 / (x.sectors * 32)),
        "make the box's rows whole 32-byte sectors: a shared-memory layout whose contiguous mode runs along the "
        "tensor's stride-1 mode for 32 bytes or more, and a tile starting at a sector boundary"});
}

}  // namespace

std::string_view finding_name(Finding::Kind k) {
  switch (k) {
    case Finding::Kind::Uncoalesced: return "uncoalesced";
    case Finding::Kind::Misaligned: return "misaligned";
    case Finding::Kind::Narrow: return "narrow";
    case Finding::Kind::Redundant: return "redundant";
    case Finding::Kind::OutOfBounds: return "out-of-bounds";
    default: return "bank-conflict";
  }
}

std::vector<Finding> traffic_findings(const SiteTraffic& t) {
  std::vector<Finding> out;
  if (t.kind == CopyKind::Tma) tma_findings(t, out);
  for (const InstructionTraffic& x : t.instructions) {
    if (is_global_access(x.op)) global_findings(t, x, out);
    if (is_shared_access(x.op)) shared_findings(t, x, out);
  }
  return out;
}

}  // namespace layoutx
