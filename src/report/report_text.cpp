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
  if (s.kind == CopyKind::AutoVectorizing && s.predication.predicated)
    return "copy_if(pred, src, dst) (element by element, each under its predicate)";
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

std::string predication_text(const Predication& p) {
  if (!p.predicated) return "";
  std::int64_t most = 0, thread = 0, some = 0;
  for (std::size_t t = 0; t < p.masked_per_thread.size(); ++t) {
    if (p.masked_per_thread[t] > 0) ++some;
    if (p.masked_per_thread[t] > most) {
      most = p.masked_per_thread[t];
      thread = static_cast<std::int64_t>(t);
    }
  }
  if (p.masked == 0) return fmt::format("  predicate: every one of the {} elements copied\n", p.elements);
  return fmt::format(
      "  predicate: {} of {} elements masked ({}); {} thread{} mask some, at most {} (thread {}); {} idle "
      "thread{} (every element masked)\n",
      p.masked, p.elements, p.zero_fill ? "zero-filled: no global read, zeros written" : "no traffic", some,
      some == 1 ? "" : "s", most, thread, p.idle_threads, p.idle_threads == 1 ? "" : "s");
}

std::string predication_totals(const std::vector<SiteTraffic>& sites) {
  std::int64_t n = 0, elements = 0, masked = 0, idle = 0;
  for (const SiteTraffic& s : sites)
    if (s.predication.predicated) {
      ++n;
      elements += s.predication.elements;
      masked += s.predication.masked;
      idle += s.predication.idle_threads;
    }
  if (n == 0) return "";
  return fmt::format("predication: {} of {} elements masked at {} copy_if site{}, {} idle thread{} in all\n", masked,
                     elements, n, n == 1 ? "" : "s", idle, idle == 1 ? "" : "s");
}

std::string site_text(const SiteTraffic& s, const std::vector<Finding>& findings) {
  std::string out =
      fmt::format("{}\n  {}, {} -> {}, {}-bit elements: {} thread{}, {} values a thread, {} time{}\n", s.label,
                  how_copied(s), space_word(s.src), space_word(s.dst), s.element_bits, s.threads,
                  s.threads == 1 ? "" : "s", s.values_per_thread, s.executions, s.executions == 1 ? "" : "s");
  out += predication_text(s.predication);
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
