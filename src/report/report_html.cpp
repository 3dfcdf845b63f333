#include "layoutx/report_html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "layoutx/report_text.hpp"

namespace layoutx {

namespace {

std::string escaped(std::string_view s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

struct Cell {
  std::int64_t cost = 0, least = 0, instructions = 0;
};

// The site's executions restricted to warp w: every other thread's offsets emptied.
CopySite warp_only(const CopySite& s, std::size_t w) {
  CopySite out = s;
  for (std::size_t t = 0; t < out.src.offsets.size(); ++t)
    if (t / kWarpLanes != w) {
      out.src.offsets[t].clear();
      out.dst.offsets[t].clear();
      if (t < out.active.size()) out.active[t].clear();
    }
  return out;
}

std::string instruction_name(const InstructionTraffic& x) {
  return x.op == Sass::LDSM || x.op == Sass::STSM ? std::string(access_info(x.access).instruction)
                                                  : fmt::format("{}.{}", sass_name(x.op), x.bits);
}

// A warp's masked elements at a copy_if site.
std::string masked_cell(const Predication& p, std::size_t w) {
  std::int64_t masked = 0;
  for (std::size_t t = w * kWarpLanes; t < std::min(p.masked_per_thread.size(), (w + 1) * kWarpLanes); ++t)
    masked += p.masked_per_thread[t];
  return fmt::format("<td class=\"{}\">{}</td>", masked == 0 ? "ok" : "warn", masked);
}

// Per warp, per instruction column ("LDG.32 sectors", "STS.32 wavefronts"): the warp's totals;
// at a copy_if site, the elements its predicate masked.
std::string site_grid(const std::vector<CopySite>& executions, const Predication& predication) {
  if (executions.empty()) return "";
  const std::size_t warps = (executions.front().src.offsets.size() + kWarpLanes - 1) / kWarpLanes;
  std::vector<std::string> columns;
  std::map<std::pair<std::size_t, std::string>, Cell> cells;
  for (const CopySite& s : executions)
    for (std::size_t w = 0; w < warps; ++w) {
      const SiteTraffic t = predict_traffic(warp_only(s, w));
      if (s.kind == CopyKind::Tma) {  // bulk copies: the global sectors of the boxes the warp's threads issue
        const std::string column = s.tma.op + " sectors";
        if (columns.empty()) columns.push_back(column);
        Cell& c = cells[{w, column}];
        c.cost += t.tma.sectors;
        c.least += t.tma.min_sectors;
        c.instructions += t.tma.instructions;
      }
      for (const InstructionTraffic& x : t.instructions) {
        const bool global = is_global_access(x.op);
        const bool shared = is_shared_access(x.op);
        for (const bool g : {true, false}) {
          if ((g && !global) || (!g && !shared)) continue;
          const std::string column = instruction_name(x) + (g ? " sectors" : " wavefronts");
          if (std::find(columns.begin(), columns.end(), column) == columns.end()) columns.push_back(column);
          Cell& c = cells[{w, column}];
          c.cost += g ? x.sectors : x.wavefronts;
          c.least += g ? x.min_sectors : x.ideal;
          c.instructions += x.instructions;
        }
      }
    }
  std::string out = "<table><tr><th>warp</th>";
  for (const std::string& c : columns) out += fmt::format("<th>{}</th>", escaped(c));
  if (predication.predicated) out += "<th>masked elements</th>";
  out += "</tr>\n";
  for (std::size_t w = 0; w < warps; ++w) {
    out += fmt::format("<tr><th>{}</th>", w);
    for (const std::string& column : columns) {
      const auto it = cells.find({w, column});
      if (it == cells.end() || it->second.instructions == 0) {
        out += "<td class=\"idle\">-</td>";
        continue;
      }
      const Cell& c = it->second;
      const double excess = c.least == 0 ? 0.0 : static_cast<double>(c.cost) / static_cast<double>(c.least);
      const char* tone = excess <= 1.0 ? "ok" : excess <= 2.0 ? "warn" : "bad";
      out += fmt::format("<td class=\"{}\" title=\"{} instructions\">{} <small>(least {})</small></td>", tone,
                         c.instructions, c.cost, c.least);
    }
    if (predication.predicated) out += masked_cell(predication, w);
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

}  // namespace

std::string report_html(const std::string& title, const KernelTrace& trace,
                        const std::vector<std::vector<Finding>>& findings) {
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>layoutx report: {0}</title>\n<style>\n"
      "body{{font-family:sans-serif;margin:2em}} table{{border-collapse:collapse;margin:0.5em 0 1.5em}}\n"
      "td,th{{border:1px solid #bbb;padding:2px 8px;text-align:right;font-family:monospace}}\n"
      ".ok{{background:#d8f0d8}} .warn{{background:#f8e8b0}} .bad{{background:#f4b8b8}} .idle{{color:#999}}\n"
      "pre{{background:#f4f4f4;padding:0.5em}}\n</style></head><body>\n<h1>{0}</h1>\n"
      "<p>Each grid: the warps of one CTA against the instructions of a call site; a cell is what that warp's "
      "instructions cost (32-byte sectors, shared-memory wavefronts) and the least they could.</p>\n",
      escaped(title));
  const std::vector<SiteTraffic> traffic = trace.copy_traffic();
  const std::vector<std::vector<CopySite>> sites = trace.copy_sites();
  for (std::size_t i = 0; i < sites.size() && i < traffic.size(); ++i) {
    out += fmt::format("<h2>{}</h2>\n", escaped(traffic[i].label));
    std::string items;
    for (const Finding& f : i < findings.size() ? findings[i] : std::vector<Finding>{})
      items += fmt::format("<li>{}{}</li>", escaped(f.what), f.fix.empty() ? "" : "<br>fix: " + escaped(f.fix));
    if (!items.empty()) out += "<ul>" + items + "</ul>\n";
    if (const std::string p = predication_text(traffic[i].predication); !p.empty())
      out += fmt::format("<p>{}</p>\n", escaped(p.substr(2, p.size() - 3)));
    out += site_grid(sites[i], traffic[i].predication);
  }
  for (const MmaSite& m : trace.mma_sites())
    out += fmt::format(
        "<h2>{}</h2>\n<p>{}: {} MMA instructions a warp per call, {} calls a thread; register "
        "fragments a thread per call: {}.</p>\n",
        escaped(m.label), escaped(m.atom), m.atoms_per_call, m.executions, fragments_text(m));
  const StageResources r = trace.resources();
  out += fmt::format(
      "<p>A stage: {} bytes of shared memory written by the copies, {} MMA fragment elements a thread; "
      "{} k-tiles.</p>\n",
      r.shared_bytes, r.register_elements, r.k_tiles);
  return out + "</body></html>\n";
}

}  // namespace layoutx
