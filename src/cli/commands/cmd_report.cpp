// report: run a CuTe kernel for every thread of one CTA and report what each
// copy and gemm call site costs in memory instructions, as Nsight Compute
// would count them, with the findings and their fixes.
#include <fmt/format.h>

#include "driver.hpp"
#include "io/output.hpp"
#include "io/picture_output.hpp"
#include "io/program_host.hpp"
#include "layoutx/kernel_trace.hpp"
#include "layoutx/program.hpp"
#include "layoutx/report_html.hpp"
#include "layoutx/report_json.hpp"
#include "layoutx/report_text.hpp"
#include "layoutx/swizzle_fix.hpp"
#include "program_file.hpp"

namespace layoutx::cli {

namespace {

struct ReportOptions {
  std::string file;
  std::string cta, block, grid;
  std::string html;
  bool counters = false, json = false;
  std::int64_t max_steps = ProgramOptions{}.max_steps;
};

// What the run gathered into `trace`: kOk, or the status after reporting why there is nothing.
int trace_program(const Settings& s, const ReportOptions& o, const std::string& text, KernelTrace& trace, Dim3& block) {
  ProgramOptions options;
  options.language = s.language;
  options.max_steps = o.max_steps;
  options.all_threads = true;
  options.cta_given = true;
  std::string problem;
  if (!set_dim3(o.cta, 0, options.cta, nullptr, problem) || !set_dim3(o.block, 1, options.block, nullptr, problem) ||
      !set_dim3(o.grid, 1, options.grid, nullptr, problem)) {
    report_error(problem, "", 0, false);
    return kUsage;
  }
  ProgramHost host = program_host(s);
  std::map<std::size_t, std::string> labels;
  host.on_data_movement = [&](const DataMovement& m) {
    if (!m.on_device || (m.name != "copy" && m.name != "copy_if" && m.name != "gemm")) return;
    auto label = labels.find(m.offset);
    if (label == labels.end())
      label = labels.emplace(m.offset, fmt::format("line {}: {}", line_of(text, m.offset), m.call)).first;
    block = m.block;
    TracedCall call;
    call.site = m.offset;
    call.label = label->second;
    call.name = m.name;
    call.thread = m.thread[0] + m.block[0] * (m.thread[1] + m.block[1] * m.thread[2]);
    // Each extent is at most 2^30 (the launch options' and dim3's bound): the product is checked.
    call.threads =
        checked_mul(checked_mul(m.block[0], m.block[1], "a block's threads"), m.block[2], "a block's threads");
    call.args = &m.args;
    trace.record(call);
  };
  const std::string name = o.file == "-" ? "<stdin>" : o.file;
  Diagnostics diag(false, Notation{true});
  const ProgramRun run = run_program(text, name, options, host, diag);
  if (run.error) {
    report_program_error(name, text, *run.error);
    return kRejected;
  }
  if (trace.empty()) {
    report_error(fmt::format("{}: no kernel ran a copy or gemm: launch the kernel with <<<grid, block>>> in main "
                             "(or give a lone kernel's --block)",
                             name),
                 "", 0, false);
    return kRejected;
  }
  return kOk;
}

std::string mma_text(const MmaSite& m, std::int64_t tiles) {
  const std::int64_t all = m.atoms_per_call * m.executions;
  std::string per_tile;
  if (tiles > 0 && all % tiles == 0) per_tile = fmt::format(", {} a k-tile over {} k-tiles", all / tiles, tiles);
  return fmt::format(
      "{}\n  {}: {} MMA instructions a warp per call, {} call{} a thread ({} a warp in all{})\n"
      "  register fragments a thread per call: {}\n",
      m.label, m.atom, m.atoms_per_call, m.executions, m.executions == 1 ? "" : "s", all, per_tile, fragments_text(m));
}

int report_file(const Settings& s, const ReportOptions& o) {
  std::string text;
  try {
    text = read_program(o.file);
  } catch (const Error& e) {
    report_error(e.what(), "", 0, false);
    return kRejected;
  }
  KernelTrace trace;
  Dim3 block{1, 1, 1};
  if (const int status = trace_program(s, o, text, trace, block); status != kOk) return status;
  std::vector<SiteTraffic> copies;
  try {
    copies = trace.copy_traffic();
  } catch (const SiteError& e) {
    report_program_error(o.file == "-" ? "<stdin>" : o.file, text, ProgramError{e.what(), e.site(), true});
    return kRejected;
  }
  const std::vector<Counter> counters = cta_counters(copies);
  if (o.counters) {
    out(counters_text(counters));
    flush_out();
    return kOk;
  }
  std::vector<std::vector<Finding>> findings;
  std::size_t found = 0;
  for (const SiteTraffic& t : copies) {
    findings.push_back(traffic_findings(t));
    found += findings.back().size();
  }
  suggest_swizzles(trace.copy_sites(), findings);
  const std::vector<MmaSite> mmas = trace.mma_sites();
  if (!o.html.empty()) {
    PictureTarget target;
    target.format = "html";
    target.file = o.html;
    if (!deliver(target, report_html(o.file, trace, findings))) return kRejected;
  }
  if (o.json) {
    out(report_json(copies, findings, mmas, trace.resources(), counters));
  } else {
    std::string report = fmt::format(
        "one CTA of {} threads ({},{},{}); global addresses assume cudaMalloc's "
        "alignment (element 0 at a 128-byte boundary)\n\n",
        block[0] * block[1] * block[2], block[0], block[1], block[2]);
    for (std::size_t i = 0; i < copies.size(); ++i) report += site_text(copies[i], findings[i]) + "\n";
    const StageResources r = trace.resources();
    for (const MmaSite& m : mmas) report += mma_text(m, r.k_tiles) + "\n";
    report +=
        fmt::format("a stage: {} bytes of shared memory written by the copies, {} MMA fragment elements a thread\n",
                    r.shared_bytes, r.register_elements);
    report += predication_totals(copies);
    report += found == 0 ? "no findings\n" : fmt::format("{} finding{}\n", found, found == 1 ? "" : "s");
    out(report);
  }
  flush_out();
  return found == 0 ? kOk : kRejected;
}

}  // namespace

Command register_report(CLI::App* sub, Settings& s) {
  auto o = std::make_shared<ReportOptions>();
  sub->add_option("FILE", o->file, "The CuTe C++ program; '-' reads it from standard input")->required();
  sub->add_flag("--counters", o->counters,
                "Print the CTA's totals as Nsight Compute names its counters, one `METRIC VALUE` line each");
  sub->add_flag("--json", o->json, "Print the report as JSON: one object per call site, and the counters");
  sub->add_option("--html", o->html, "Also write an HTML page with each call site's per-warp grids to this file");
  sub->add_option("--cta", o->cta, "blockIdx of the CTA reported: X[,Y[,Z]] (default 0)");
  sub->add_option("--block", o->block, "blockDim of a kernel the program does not launch: X[,Y[,Z]]");
  sub->add_option("--grid", o->grid, "gridDim of a kernel the program does not launch: X[,Y[,Z]]");
  sub->add_option("--max-steps", o->max_steps, "Statements and loop rounds run at most (default 10000000)")
      ->check(integer_range(1, std::int64_t{1} << 40));
  return {sub, [&s, o] {
            try {
              return report_file(s, *o);
            } catch (const OutputFailure&) {
              return kUsage;
            }
          }};
}

}  // namespace layoutx::cli
