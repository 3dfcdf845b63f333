#include "layoutx/report_json.hpp"

#include <fmt/format.h>

namespace layoutx {

namespace {

std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string_view copy_kind(CopyKind k) {
  switch (k) {
    case CopyKind::Atom: return "atom";
    case CopyKind::Tma: return "tma";
    default: return "auto";
  }
}

std::string instruction_json(const InstructionTraffic& x) {
  return fmt::format(
      "{{\"sass\": {}, \"bits\": {}, \"cute_bits\": {}, \"per_thread\": {}, \"warp_instructions\": {}, "
      "\"requests\": {}, \"sectors\": {}, \"min_sectors\": {}, \"bytes_used\": {}, \"wavefronts\": {}, "
      "\"min_wavefronts\": {}, \"conflict_degree\": {}}}",
      quoted(sass_name(x.op)), x.bits, x.cute_bits, x.per_thread, x.instructions, x.requests, x.sectors, x.min_sectors,
      x.bytes, x.wavefronts, x.ideal, x.conflict_degree);
}

std::string tma_json(const SiteTraffic& s) {
  const TmaTraffic& t = s.tma;
  return fmt::format(
      "{{\"op\": {}, \"load\": {}, \"copies\": {}, \"per_thread\": {}, \"threads\": {}, \"box_bytes\": {}, "
      "\"multicast\": {}, \"sectors\": {}, \"min_sectors\": {}, \"bytes_used\": {}, \"swizzle\": {}, "
      "\"tensor_map_swizzle\": {}}}",
      quoted(s.tma_box.op), s.tma_box.load ? "true" : "false", t.instructions, t.per_thread, t.threads, t.box_bytes,
      s.tma_box.multicast, t.sectors, t.min_sectors, t.bytes, quoted(s.tma_box.swizzle),
      quoted(s.tma_box.tensor_map_swizzle));
}

std::string predication_json(const Predication& p) {
  if (!p.predicated) return "null";
  std::string threads = "[";
  for (std::size_t t = 0; t < p.masked_per_thread.size(); ++t)
    threads += fmt::format("{}{}", t ? ", " : "", p.masked_per_thread[t]);
  return fmt::format(
      "{{\"elements\": {}, \"masked\": {}, \"zero_fill\": {}, \"idle_threads\": {}, \"masked_per_thread\": {}]}}",
      p.elements, p.masked, p.zero_fill ? "true" : "false", p.idle_threads, threads);
}

std::string finding_json(const Finding& f) {
  return fmt::format("{{\"kind\": {}, \"what\": {}, \"fix\": {}}}", quoted(finding_name(f.kind)), quoted(f.what),
                     quoted(f.fix));
}

template <class T, class F>
std::string list(const std::vector<T>& items, F each) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + each(items[i]);
  return out + "]";
}

}  // namespace

std::string report_json(const std::vector<SiteTraffic>& copies, const std::vector<std::vector<Finding>>& findings,
                        const std::vector<MmaSite>& mmas, const StageResources& stage,
                        const std::vector<Counter>& counters) {
  std::string out = "{\"sites\": [\n";
  bool first = true;
  for (std::size_t i = 0; i < copies.size(); ++i) {
    const SiteTraffic& s = copies[i];
    out += first ? "  " : ",\n  ";
    first = false;
    out += fmt::format(
        "{{\"site\": {}, \"call\": \"copy\", \"copy\": {}, \"atom\": {}, \"src\": {}, \"dst\": {}, \"element_bits\": "
        "{}, "
        "\"threads\": {}, \"values_per_thread\": {}, \"executions\": {}, \"predication\": {}, \"instructions\": {}, "
        "\"findings\": {}}}",
        quoted(s.label), quoted(copy_kind(s.kind)), quoted(s.kind == CopyKind::Tma ? s.tma_box.op : s.atom),
        quoted(space_name(s.src)), quoted(space_name(s.dst)), s.element_bits, s.threads, s.values_per_thread,
        s.executions, predication_json(s.predication), list(s.instructions, instruction_json),
        list(i < findings.size() ? findings[i] : std::vector<Finding>{}, finding_json));
    if (s.kind == CopyKind::Tma) {
      out.pop_back();
      out += ", \"tma\": " + tma_json(s) + "}";
    }
  }
  for (const MmaSite& m : mmas) {
    out += first ? "  " : ",\n  ";
    first = false;
    out += fmt::format(
        "{{\"site\": {}, \"call\": \"gemm\", \"atom\": {}, \"threads\": {}, \"executions\": {}, "
        "\"mma_per_call\": {}, \"a_elements\": {}, \"b_elements\": {}, \"c_elements\": {}, "
        "\"a_descriptors\": {}, \"b_descriptors\": {}}}",
        quoted(m.label), quoted(m.atom), m.threads, m.executions, m.atoms_per_call, m.a_elements, m.b_elements,
        m.c_elements, m.a_descriptors ? "true" : "false", m.b_descriptors ? "true" : "false");
  }
  out += fmt::format("\n], \"stage\": {{\"shared_bytes\": {}, \"mma_fragment_elements\": {}, \"k_tiles\": {}}}, ",
                     stage.shared_bytes, stage.register_elements, stage.k_tiles);
  std::int64_t elements = 0, masked = 0, idle = 0;
  for (const SiteTraffic& s : copies)
    if (s.predication.predicated) {
      elements += s.predication.elements;
      masked += s.predication.masked;
      idle += s.predication.idle_threads;
    }
  out += fmt::format("\"predication\": {{\"elements\": {}, \"masked\": {}, \"idle_threads\": {}}}, ", elements, masked,
                     idle);
  out += "\"counters\": {";
  for (std::size_t i = 0; i < counters.size(); ++i)
    out += fmt::format("{}{}: {}", i ? ", " : "", quoted(counters[i].metric), counters[i].value);
  return out + "}}\n";
}

}  // namespace layoutx
