// The TMA operations are no fixed atoms: make_tma_copy builds one from the
// global tensor and the shared-memory tile. The global layout is read as CuTe
// code writes it (plain integers dynamic, _N static), the tile as the static
// layout it must be.
#include "commands/atom_tma.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/tma_copy.hpp"
#include "io/output.hpp"

namespace layoutx::cli {

namespace {

std::string dims_text(const std::vector<std::uint64_t>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(v[i]);
  }
  return s + ")";
}

std::string_view swizzle_bits_name(int bits) {
  static constexpr std::string_view names[] = {"DISABLE", "B32", "B64", "B128"};
  return names[bits];
}

std::string_view swizzle_base_name(int base) { return base == 0 ? "16B" : base == 1 ? "32B" : "64B"; }

std::optional<Value> option_value(const Settings& s, const std::string& text, bool dynamic, Diagnostics& diag) {
  Settings read = s;
  read.language.dynamic = dynamic;
  return evaluate_option(read, text, {text}, diag);
}

std::string tma_report(const TmaRequest& r, const TmaCopyInput& in, const TmaCopy& t, Notation n) {
  const std::int64_t tile = product(t.tiler).value;
  std::string text = fmt::format(
      "make_tma_copy({}, gmem {} of {}, smem {}, cluster {})\n"
      "TMA box (AuxTmaParams)\n"
      "  TmaGmemBasis:   {}   box mode -> gmem mode\n"
      "  TMA tensor:     {}   gmem mode -> TMA coordinate\n"
      "  TmaSwizzle:     {}   SmemSwizzleBits::{}, SmemSwizzleBase::SWIZZLE_BASE_{}\n"
      "  elements per TMA: {} ({} bits)\n"
      "Descriptor (cuTensorMapEncodeTiled)\n"
      "  tensorDataType: {}\n"
      "  tensorRank:     {}\n"
      "  globalDim:      {}\n"
      "  globalStrides:  {}   bytes, after the implicit first\n"
      "  boxDim:         {}\n"
      "  elementStrides: {}\n"
      "  swizzle:        {}\n"
      "Copy_Traits (layouts in bits)\n"
      "  ThrID:     {}\n  SrcLayout: {}\n  DstLayout: {}\n  RefLayout: {}\n"
      "Copy_Atom\n"
      "  ValLayoutSrc: {}\n  ValLayoutDst: {}\n  ValLayoutRef: {}\n  ValueType:    {}b\n"
      "TiledCopy\n"
      "  Tiler_MN:       {}\n"
      "  TiledLayout_TV: {}\n",
      r.op, to_text(in.gmem, n), in.type->name, r.smem, in.multicast.value, to_text(t.tma_gbasis, n),
      to_text(t.g_stride, n), fmt::format("Sw<{},{},{}>", t.swizzle.bits, t.swizzle.base, t.swizzle.shift),
      swizzle_bits_name(t.swizzle_bits), swizzle_base_name(t.swizzle_base), t.elements_per_tma,
      t.elements_per_tma * in.type->bits, t.desc.data_type, t.desc.rank, dims_text(t.desc.dims),
      dims_text(t.desc.strides), dims_text(t.desc.box), dims_text(t.desc.element_strides), t.desc.swizzle,
      to_text(t.traits.thr_id, n), to_text(t.traits.src, n), to_text(t.traits.dst, n), to_text(t.traits.ref, n),
      to_text(t.val_src, n), to_text(t.val_dst, n), to_text(t.val_ref, n), in.type->bits, to_text(t.tiler, n),
      to_text(t.tv, n));
  text += fmt::format("  TMA copies per tile: {} (the tile's {} elements, {} per TMA)\n", tile / t.elements_per_tma,
                      tile, t.elements_per_tma);
  return text;
}

}  // namespace

bool is_tma_operation(const std::string& name) {
  const auto& ops = tma_operations();
  return std::find(ops.begin(), ops.end(), name) != ops.end();
}

int describe_tma(const Settings& s, const TmaRequest& r) {
  if (r.gmem.empty() || r.smem.empty() || r.type.empty()) {
    report_error(fmt::format("{} is made by make_tma_copy: give --gmem LAYOUT (the global tensor), --smem LAYOUT "
                             "(the shared-memory tile, e.g. tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>,(128,64))) "
                             "and --type T (and --multicast N for a cluster)",
                             r.op),
                 "", 0, false);
    return kUsage;
  }
  const TmaValueType* type = find_tma_value_type(r.type);
  if (!type) {
    std::string names;
    for (const auto& t : tma_value_type_names()) names += (names.empty() ? "" : ", ") + t;
    report_error(fmt::format("TMA has no format for '{}' (CuTe: \"Unknown TMA Format!\"); it moves {}", r.type, names),
                 "", 0, false);
    return kRejected;
  }
  Diagnostics diag = diagnostics(s);
  const auto gmem = option_value(s, r.gmem, true, diag);
  if (!gmem) return kRejected;
  const auto smem = option_value(s, r.smem, false, diag);
  if (!smem) return kRejected;
  report_warnings(diag);
  const Notation n = notation(s);
  TmaCopyInput in{r.op, {}, type, Swizzle::make(0, 4, 3), {}, static_int(r.multicast), std::nullopt};
  if (const auto l = gmem->as_plain_layout(); l && !is_coordinate_layout(*l)) {
    in.gmem = *l;
  } else {
    report_error(fmt::format("--gmem needs the global tensor's layout, such as (4096,1024):(1024,_1), not {}",
                             render_notation(*gmem, n)),
                 "", 0, false);
    return kRejected;
  }
  if (const auto portions = smem_portions(*smem)) {
    in.swizzle = portions->first;
    in.smem = portions->second;
  } else {
    report_error(fmt::format("--smem needs a static shared-memory layout, swizzled (Sw<B,M,S> o L, a GMMA/UMMA "
                             "Layout_*_Atom tiled to the tile) or plain, not {}",
                             render_notation(*smem, n)),
                 "", 0, false);
    return kRejected;
  }
  std::string document;
  const int status = run_reporting_errors({}, notation(s), [&] {
    Diagnostics tma_diag = diagnostics(s);
    const TmaCopy t = make_tma_copy(in, tma_diag);
    report_warnings(tma_diag);
    document = tma_report(r, in, t, n);
    return kOk;
  });
  if (status != kOk) return status;
  out(document);
  flush_out();
  return kOk;
}

}  // namespace layoutx::cli
