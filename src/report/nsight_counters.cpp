// How Nsight Compute files each instruction, as measured on an H200: ldmatrix
// wavefronts count with shared loads but the instruction is not a shared
// load; cp.async (LDGSTS) is a global-load request and its sectors, its
// instruction its own kind, and its shared-memory writes count with no
// shared-store counter but have their own bank-conflict counter. TMA loads
// issue no load/store-unit instruction; the sectors they bring from L2 count
// under the crossbar's TMA-load sectors.
#include "layoutx/nsight_counters.hpp"

#include <array>

namespace layoutx {

namespace {

enum Metric {
  kWavefrontsLd,
  kWavefrontsSt,
  kConflictsLd,
  kConflictsSt,
  kRequestsLd,
  kSectorsLd,
  kRequestsSt,
  kSectorsSt,
  kLdsm,
  kLdgsts,
  kGlobalLd,
  kGlobalSt,
  kSharedLd,
  kSharedSt,
  kStsm,
  kConflictsLdgsts,
  kTmaLoadSectors,
  kMetrics
};

constexpr std::array<std::string_view, kMetrics> kNames{
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "smsp__sass_inst_executed_op_ldsm.sum",
    "smsp__sass_inst_executed_op_ldgsts.sum",
    "smsp__sass_inst_executed_op_global_ld.sum",
    "smsp__sass_inst_executed_op_global_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "smsp__sass_inst_executed_op_stsm.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
    "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum",
};

void add(std::array<std::int64_t, kMetrics>& c, const InstructionTraffic& x) {
  const std::int64_t conflicts = x.wavefronts - x.ideal;
  switch (x.op) {
    case Sass::LDG: c[kGlobalLd] += x.instructions, c[kRequestsLd] += x.requests, c[kSectorsLd] += x.sectors; break;
    case Sass::STG: c[kGlobalSt] += x.instructions, c[kRequestsSt] += x.requests, c[kSectorsSt] += x.sectors; break;
    case Sass::LDGSTS:
      c[kLdgsts] += x.instructions, c[kRequestsLd] += x.requests, c[kSectorsLd] += x.sectors;
      c[kConflictsLdgsts] += conflicts;
      break;
    case Sass::LDS:
      c[kSharedLd] += x.instructions, c[kWavefrontsLd] += x.wavefronts, c[kConflictsLd] += conflicts;
      break;
    case Sass::STS:
      c[kSharedSt] += x.instructions, c[kWavefrontsSt] += x.wavefronts, c[kConflictsSt] += conflicts;
      break;
    case Sass::LDSM: c[kLdsm] += x.instructions, c[kWavefrontsLd] += x.wavefronts, c[kConflictsLd] += conflicts; break;
    case Sass::STSM: c[kStsm] += x.instructions, c[kWavefrontsSt] += x.wavefronts, c[kConflictsSt] += conflicts; break;
  }
}

}  // namespace

std::vector<std::string_view> counter_metrics() { return {kNames.begin(), kNames.end()}; }

std::vector<Counter> cta_counters(const std::vector<SiteTraffic>& sites) {
  std::array<std::int64_t, kMetrics> totals{};
  for (const SiteTraffic& s : sites) {
    for (const InstructionTraffic& x : s.instructions) add(totals, x);
    if (s.kind == CopyKind::Tma && s.tma_box.load) totals[kTmaLoadSectors] += s.tma.sectors;
  }
  std::vector<Counter> out;
  for (int m = 0; m < kMetrics; ++m) out.push_back(Counter{kNames[m], totals[m]});
  return out;
}

}  // namespace layoutx
