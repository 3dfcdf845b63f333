// bank: the wavefronts a warp's shared-memory access takes.
#include <fmt/format.h>

#include <optional>

#include "commands/access_options.hpp"
#include "driver.hpp"
#include "layoutx/render_bank.hpp"
#include "io/output.hpp"

namespace layoutx::cli {

namespace {

int run_bank(const Settings& s, const std::vector<std::string>& exprs, const std::string& access_name,
             const std::string& atom_name, const ElementSize& elem, const std::string& smem_text, bool tv,
             BankFormat format) {
  if (access_name.empty() == atom_name.empty()) {
    report_error("bank needs --access or --atom (one of the two)", "", 0, false);
    return kUsage;
  }
  std::string why;
  const std::optional<SharedAccess> found =
      access_name.empty() ? access_named(atom_name, false, why) : find_access(access_name);
  if (!found) {
    report_error(why, "", 0, false);
    return kRejected;
  }
  const SharedAccess access = *found;
  std::optional<AnyLayout> smem;
  if (!smem_text.empty()) {
    // The loop below reports its own expressions' warnings only; --smem's are dropped.
    Diagnostics option_diag = diagnostics(s);
    const std::optional<Value> v = evaluate_option(s, smem_text, {smem_text}, option_diag);
    if (!v) return kRejected;
    if (run_reporting_errors({smem_text}, notation(s), [&] {
          smem = require_offset_layout(*v, "--smem", notation(s));
          return kOk;
        }) != kOk)
      return kRejected;
  }
  const bool color = format == BankFormat::Grid && use_color(s);
  return for_each_expression(s, exprs, [&](const Value& v, std::string_view, Diagnostics& diag) {
    const AnyLayout threads = require_offset_layout(v, "bank", notation(s));
    if (tv && !std::holds_alternative<Layout>(threads))
      throw Error(fmt::format("--tv takes a plain (thread, value) layout, got {}", render_notation(v, notation(s))));
    const BankAnalysis a = tv ? analyze_tv_banks(access, std::get<Layout>(threads), *smem, elem.in_bits(), diag)
                              : analyze_banks(access, threads, elem.in_bits(), diag, smem ? &*smem : nullptr);
    out(render_bank(a, format, color));
  });
}

}  // namespace

Command register_bank(CLI::App* sub, Settings& s) {
  sub->footer(
      "THREADS maps lane 0..31 to the element offset the lane accesses (its first element for vectors; for\n"
      "ldmatrix/stmatrix the start of the row it supplies). With --smem, THREADS maps lanes to coordinates of\n"
      "that layout instead; with --tv, THREADS is a CuTe TV layout into --smem. More than 32 lanes: lane + 32*i\n"
      "is instruction i's lane. Example:\n"
      "  layoutx bank \"Sw<3,3,3> o 32:64\" --elem-bytes 2 --access ld128 --json\n"
      "The model, checked against Nsight Compute on an H200: 32 banks of 4 bytes; a phase of lanes takes as many\n"
      "wavefronts as the most distinct words one bank holds (a word read by several lanes is broadcast); 16- and\n"
      "32-bit accesses are one phase, 64-bit ones half-warps, 128-bit ones quarter-warps, ldmatrix/stmatrix one\n"
      "8x16-byte matrix per phase; a 64/128-bit load whose lanes n and n^1 (or n and n^2) all share addresses\n"
      "packs two lanes per slot: phases twice as wide. ideal counts the phases.");
  auto exprs = std::make_shared<std::vector<std::string>>();
  auto access = std::make_shared<std::string>();
  auto elem = std::make_shared<ElementSize>();
  auto smem = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto grid = std::make_shared<bool>(false);
  auto tv = std::make_shared<bool>(false);
  auto* access_option = sub->add_option("--access", *access,
                                        "The shared-memory instruction (ld128: 128-bit loads, ldsm4: ldmatrix.x4, ...)")
                            ->check(CLI::IsMember(access_names()));
  auto atom = std::make_shared<std::string>();
  sub->add_option("--atom", *atom,
                  "The copy atom whose load is the access, e.g. SM75_U32x4_LDSM_N (instead of --access)")
      ->excludes(access_option);
  add_element_size(sub, *elem);
  auto* smem_option =
      sub->add_option("--smem", *smem, "Shared-memory layout the THREADS coordinates index (plain or swizzled)");
  sub->add_flag("--tv", *tv,
                "THREADS is a (thread, value) -> coordinate layout of --smem; each thread accesses its values a "
                "vector at a time")
      ->needs(smem_option);
  auto* json_flag = sub->add_flag("--json", *json, "One JSON object per THREADS");
  sub->add_flag("--grid", *grid, "Bank of every lane and the wavefront schedule, coloured by bank")
      ->excludes(json_flag);
  sub->add_option("THREADS", *exprs, "Lane-to-offset layouts; '-' reads one per line from standard input")->required();
  return {sub, [&s, exprs, access, atom, elem, smem, tv, json, grid] {
            const BankFormat format = *json ? BankFormat::Json : *grid ? BankFormat::Grid : BankFormat::Text;
            return run_bank(s, *exprs, *access, *atom, *elem, *smem, *tv, format);
          }};
}

}  // namespace layoutx::cli
