#include "layoutx/report_text.hpp"

#include <fmt/format.h>

namespace layoutx {

namespace {

std::string_view space_word(MemorySpace s) {
  switch (s) {
    case MemorySpace::Global: return "global";
    case MemorySpace::Shared: return "shared";
    default: return "registers";
  }
}

std::string how_copied(const SiteTraffic& s) {
  if (s.kind == CopyKind::Tma) return fmt::format("TMA bulk tensor copy ({})", s.tma_box.op);
  if (s.kind == CopyKind::AutoVectorizing) return "copy(src, dst) (CuTe's auto-vectorizing copy)";
  return s.atom;
}

double ratio(std::int64_t a, std::int64_t b) { return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b); }

std::string instruction_line(const InstructionTraffic& x) {
  std::string name = x.op == Sass::LDSM || x.op == Sass::STSM ? std::string(access_info(x.access).instruction)
                                                              : fmt::format("{}.{}", sass_name(x.op), x.bits);
  std::string line = fmt::format("  {:<12} {:>7} warp instructions, {} a thread", name, x.instructions, x.per_thread);
  if (x.bits != x.cute_bits)
    line +=
        fmt::format(" (CuTe asks for {}-bit accesses; nvcc merges neighbours it can prove contiguous)", x.cute_bits);
  line += "\n";
  if (x.requests)
    line += fmt::format(
        "               global: {:.3g} sectors a request ({:.3g} hold the bytes), {:.0f}% of fetched bytes used\n",
        ratio(x.sectors, x.requests), ratio(x.min_sectors, x.requests), 100.0 * ratio(x.bytes, x.sectors * 32));
  if (x.op != Sass::LDG && x.op != Sass::STG)
    line += fmt::format("               shared: {:.3g} wavefronts an instruction ({:.3g} without conflicts){}\n",
                        ratio(x.wavefronts, x.instructions), ratio(x.ideal, x.instructions),
                        x.op == Sass::LDGSTS ? ", not in Nsight's shared-store counters" : "");
  return line;
}

// A TMA site: its bulk copies, the global sectors they move, the swizzle they write shared memory with.
std::string tma_lines(const SiteTraffic& s) {
  const TmaTraffic& t = s.tma;
  const TmaBox& b = s.tma_box;
  std::string out =
      fmt::format("  {} {} bulk tensor cop{} ({}), {} a thread, issued by {} thread{}; {} bytes a box{}\n", b.op,
                  t.instructions, t.instructions == 1 ? "y" : "ies", b.load ? "UTMALDG" : "UTMASTG", t.per_thread,
                  t.threads, t.threads == 1 ? "" : "s", t.box_bytes,
                  b.multicast > 1 ? fmt::format(" (this CTA's 1/{} of the multicast box)", b.multicast) : "");
  if (t.instructions)
    out +=
        fmt::format("               global: {:.3g} sectors {} a copy ({:.3g} hold the bytes), {:.0f}% of them used\n",
                    ratio(t.sectors, t.instructions), b.load ? "read" : "written", ratio(t.min_sectors, t.instructions),
                    100.0 * ratio(t.bytes, t.sectors * 32));
  out += fmt::format("               shared: {} with {} ({}); no load/store unit requests or wavefronts\n",
                     b.load ? "written" : "read", b.swizzle, b.tensor_map_swizzle);
  return out;
}

}  // namespace

std::string site_text(const SiteTraffic& s, const std::vector<Finding>& findings) {
  std::string out =
      fmt::format("{}\n  {}, {} -> {}, {}-bit elements: {} thread{}, {} values a thread, {} time{}\n", s.label,
                  how_copied(s), space_word(s.src), space_word(s.dst), s.element_bits, s.threads,
                  s.threads == 1 ? "" : "s", s.values_per_thread, s.executions, s.executions == 1 ? "" : "s");
  if (s.kind == CopyKind::Tma) out += tma_lines(s);
  for (const InstructionTraffic& x : s.instructions) out += instruction_line(x);
  for (const Finding& f : findings) {
    out += fmt::format("  finding: {}\n", f.what);
    if (!f.fix.empty()) out += fmt::format("    fix: {}\n", f.fix);
  }
  return out;
}

std::string counters_text(const std::vector<Counter>& counters) {
  std::string out;
  for (const Counter& c : counters) out += fmt::format("{} {}\n", c.metric, c.value);
  return out;
}

}  // namespace layoutx
