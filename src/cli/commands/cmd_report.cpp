// report: run a CuTe kernel for every thread of one CTA and report what each
// copy and gemm call site costs in memory instructions, as Nsight Compute
// would count them, with the findings and their fixes.
#include <fmt/format.h>

#include <charconv>
#include <functional>
#include <limits>
#include <map>
#include <optional>

#include "driver.hpp"
#include "io/output.hpp"
#include "io/picture_output.hpp"
#include "io/program_host.hpp"
#include "layoutx/bounds_check.hpp"
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
  std::string cta, block, grid, problem;
  std::string html;
  bool counters = false, json = false;
  std::int64_t max_steps = ProgramOptions{}.max_steps;
};

// --problem: "M[,N[,K]]", the values of the kernel's parameters M, N and K
// in that order, or "NAME=V,..." for parameters of other names.
bool problem_sizes(const std::string& text, std::map<std::string, std::int64_t, std::less<>>& into,
                   std::string& problem) {
  static const char* const kNames[] = {"M", "N", "K"};
  std::size_t i = 0, at = 0;
  for (;;) {
    const std::size_t comma = text.find(',', at);
    std::string part = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    std::string name;
    if (const std::size_t eq = part.find('='); eq != std::string::npos) {
      name = part.substr(0, eq);
      part = part.substr(eq + 1);
    } else if (i < 3) {
      name = kNames[i];
    }
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (name.empty() || part.empty() || ec != std::errc() || ptr != part.data() + part.size() || v < 1 ||
        v > std::numeric_limits<std::int32_t>::max() || into.count(name)) {
      problem = fmt::format(
          "--problem '{}' is not M[,N[,K]] or NAME=VALUE,... of distinct names and integers in [1, 2^31-1]", text);
      return false;
    }
    into[name] = v;
    ++i;
    if (comma == std::string::npos) return true;
    at = comma + 1;
  }
}

// The program's options for the report's runs; false (after reporting why) for a malformed option.
bool run_options(const Settings& s, const ReportOptions& o, ProgramOptions& options) {
  options.language = s.language;
  options.max_steps = o.max_steps;
  options.all_threads = true;
  options.cta_given = true;
  std::string problem;
  if (!set_dim3(o.cta, 0, options.cta, nullptr, problem) || !set_dim3(o.block, 1, options.block, nullptr, problem) ||
      !set_dim3(o.grid, 1, options.grid, nullptr, problem) ||
      (!o.problem.empty() && !problem_sizes(o.problem, options.kernel_arguments, problem))) {
    report_error(problem, "", 0, false);
    return false;
  }
  return true;
}

// Run the program for every thread of the CTA, each copy and gemm a kernel
// calls given to `each`; the block's shape into `block`.
ProgramRun run_traced(const Settings& s, const ProgramOptions& options, const std::string& name,
                      const std::string& text, const std::function<void(const TracedCall&)>& each, Dim3& block) {
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
    each(call);
  };
  Diagnostics diag(false, Notation{true});
  return run_program(text, name, options, host, diag);
}

// What the run gathered into `trace`: kOk, or the status after reporting why there is nothing.
int trace_program(const ProgramOptions& options, const Settings& s, const ReportOptions& o, const std::string& text,
                  KernelTrace& trace, Dim3& block) {
  const std::string name = o.file == "-" ? "<stdin>" : o.file;
  const ProgramRun run = run_traced(
      s, options, name, text, [&](const TracedCall& c) { trace.record(c); }, block);
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

// The copies' accesses outside their global tensors, from a second run in
// which each global tensor is its shape's identity tensor; the reason when
// that run cannot be made (a program that uses a global tensor as only a
// pointer can be used: recast, its address).
std::optional<std::string> check_bounds(ProgramOptions options, const Settings& s, const std::string& text,
                                        BoundsCheck& bounds) {
  options.language.global_as_coordinates = true;
  Dim3 block{1, 1, 1};
  const ProgramRun run = run_traced(
      s, options, "", text, [&](const TracedCall& c) { bounds.record(c); }, block);
  if (run.error) return fmt::format("line {}: {}", line_of(text, run.error->offset), run.error->message);
  return std::nullopt;
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
  ProgramOptions options;
  if (!run_options(s, o, options)) return kUsage;
  KernelTrace trace;
  Dim3 block{1, 1, 1};
  if (const int status = trace_program(options, s, o, text, trace, block); status != kOk) return status;
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
  BoundsCheck bounds;
  const std::optional<std::string> unchecked = check_bounds(options, s, text, bounds);
  const std::vector<std::size_t> offsets = trace.copy_site_offsets();
  for (std::size_t i = 0; i < offsets.size() && i < copies.size(); ++i)
    if (const auto it = bounds.sites().find(offsets[i]); it != bounds.sites().end()) {
      findings[i].push_back(out_of_bounds_finding(copies[i].label, it->second, copies[i].predication.predicated));
      ++found;
    }
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
    if (unchecked) report += fmt::format("global bounds not checked: {}\n", *unchecked);
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
  sub->add_option("--problem", o->problem,
                  "Run the kernel on this problem size: M[,N[,K]] (or NAME=VALUE,...) replace the launch's "
                  "arguments for the kernel's integer parameters of those names (main's own variables, and a "
                  "grid main computes from them, stay); --cta picks the CTA (the residue tile's shows the "
                  "predication). A kernel without such a parameter is refused");
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
