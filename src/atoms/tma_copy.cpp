// make_tma_copy as CuTe computes it on the host: construct_tma_gbasis (the
// largest box the inverse of the smem layout allows, its modes merged up to 256
// elements), make_tma_copy_desc (the descriptor's dimensions, byte strides, box
// and swizzle, with CuTe's asserts) and make_tma_copy_tiled (the TiledCopy).
#include "layoutx/tma_copy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "layoutx/algebra.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/tiler.hpp"

namespace layoutx {

namespace {

constexpr std::array<TmaValueType, 18> kTmaTypes{{
    {"int8_t", 8, "CU_TENSOR_MAP_DATA_TYPE_UINT8"},
    {"uint8_t", 8, "CU_TENSOR_MAP_DATA_TYPE_UINT8"},
    {"float_e4m3_t", 8, "CU_TENSOR_MAP_DATA_TYPE_UINT8"},
    {"float_e5m2_t", 8, "CU_TENSOR_MAP_DATA_TYPE_UINT8"},
    {"float_ue8m0_t", 8, "CU_TENSOR_MAP_DATA_TYPE_UINT8"},
    {"uint16_t", 16, "CU_TENSOR_MAP_DATA_TYPE_UINT16"},
    {"uint32_t", 32, "CU_TENSOR_MAP_DATA_TYPE_UINT32"},
    {"uint64_t", 64, "CU_TENSOR_MAP_DATA_TYPE_UINT64"},
    {"int32_t", 32, "CU_TENSOR_MAP_DATA_TYPE_INT32"},
    {"int64_t", 64, "CU_TENSOR_MAP_DATA_TYPE_INT64"},
    {"half_t", 16, "CU_TENSOR_MAP_DATA_TYPE_FLOAT16"},
    {"float", 32, "CU_TENSOR_MAP_DATA_TYPE_FLOAT32"},
    {"double", 64, "CU_TENSOR_MAP_DATA_TYPE_FLOAT64"},
    {"bfloat16_t", 16, "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16"},
    {"tfloat32_t", 32, "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32"},
    {"float_e2m1_t", 4, "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B"},
    {"float_e2m3_t", 6, "CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B"},
    {"float_e3m2_t", 6, "CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B"},
}};

// The box is at most 5-dimensional: CuTe's descriptor arrays.
constexpr int kTmaMaxRank = 5;

[[noreturn]] void refuse_tma(const std::string& why) { throw Error("make_tma_copy refuses: " + why); }

bool is_two_sm(const std::string& op) { return op.rfind("SM100_TMA_2SM", 0) == 0; }

// basis_value(e) is static 1 (a stride 1@i, or the integer _1).
bool is_unit_basis(Int e) { return e.is_static && e.value == 1; }

// tb == E<i>{}: the same basis (or both none, the _1 a rank-1 tensor's identity
// layout has), scaled by a static 1.
bool same_unit_basis(Int tb, Int e) { return tb.basis == e.basis && is_unit_basis(tb); }

// basis_get(e, t): the element of `t` that basis e selects.
const IntTuple& basis_get(Int e, const IntTuple& t) {
  const IntTuple* x = &t;
  for (int k = 0; k < e.basis.rank; ++k) x = &(*x)[e.basis.modes[k]];
  return *x;
}

std::vector<IntTuple> modes_of(const IntTuple& t) { return t.is_leaf() ? std::vector<IntTuple>{t} : t.elems(); }

Tiler tiler_of(const IntTuple& t) {
  if (t.is_leaf()) return Tiler::of(t.value());
  std::vector<Tiler> modes;
  for (const auto& e : t.elems()) modes.push_back(tiler_of(e));
  return Tiler::tuple(std::move(modes));
}

// coalesce_256: merge neighbouring flat modes whose static shapes and strides
// continue each other while the merged extent stays at most 256 (a box
// dimension's limit); dynamic strides never merge. Only the shape is needed.
IntTuple coalesce_256_shape(const Layout& l) {
  const std::vector<Int> shape = leaves(l.shape), stride = leaves(l.stride);
  std::vector<Int> new_shape{shape[0]}, new_stride{stride[0]};
  bool scalar = true;  // new_shape is still the first mode alone
  for (std::size_t i = 1; i < shape.size(); ++i) {
    if (shape[i].is_constant(1)) continue;
    if (scalar && new_shape.back().is_constant(1)) {
      new_shape.back() = shape[i];
      new_stride.back() = stride[i];
      continue;
    }
    const Int s0 = new_shape.back(), d0 = new_stride.back();
    const bool all_static = s0.is_static && d0.is_static && shape[i].is_static && stride[i].is_static;
    if (all_static && s0.value * d0.value == stride[i].value && shape[i].value * s0.value <= 256) {
      new_shape.back() = static_int(shape[i].value * s0.value);
    } else {
      new_shape.push_back(shape[i]);
      new_stride.push_back(stride[i]);
      scalar = false;
    }
  }
  if (new_shape.size() == 1) return new_shape[0].is_constant(1) ? IntTuple(static_int(1)) : IntTuple(new_shape[0]);
  return IntTuple(std::vector<IntTuple>(new_shape.begin(), new_shape.end()));
}

// The layout of the first `n` modes of a flat layout, as a tuple.
Layout take_modes(const Layout& l, int n) {
  const auto shape = modes_of(l.shape), stride = modes_of(l.stride);
  return {IntTuple(std::vector<IntTuple>(shape.begin(), shape.begin() + n)),
          IntTuple(std::vector<IntTuple>(stride.begin(), stride.begin() + n))};
}

// construct_tma_gbasis: TMA box mode -> global tensor mode.
Layout construct_tma_gbasis(const Layout& gmem, const Layout& smem, const Layout& cta_v_map, Diagnostics& diag) {
  if (product(smem.shape) != product(cta_v_map.shape))
    refuse_tma("TMA requires CTA_Tile and SLayout top-level size equivalence.");
  // smem idx -> smem coord -> gmem mode: the longest run of smem that is also a run of gmem.
  const Layout sidx2gmode_full = coalesce(composition(cta_v_map, right_inverse(smem, diag.trace()), diag));
  const std::vector<Int> strides = leaves(sidx2gmode_full.stride);
  const int smem_rank = static_cast<int>(
      std::find_if(strides.begin(), strides.end(), [](Int e) { return !is_unit_basis(e); }) - strides.begin());
  if (smem_rank == 0)
    refuse_tma("Could not find a common tile-gmem vectorization. Does the Tile select out major GMEM modes?");
  const Layout sidx2gmode =
      take_modes(Layout{flatten(sidx2gmode_full.shape), flatten(sidx2gmode_full.stride)}, smem_rank);

  const Layout tile_gstride = composition(gmem, sidx2gmode, diag);
  const IntTuple tma_gstride_shape = coalesce_256_shape(tile_gstride);
  const Layout gbasis = make_identity_layout(gmem.shape);
  const Layout tile_gbasis{tile_gstride.shape, composition(gbasis, sidx2gmode, diag).stride};
  const Layout tma_gbasis_tile = composition(tile_gbasis, make_layout(wrap(tma_gstride_shape)), diag);

  // Global modes the box does not reach take part as size-1 box modes.
  std::vector<IntTuple> shape = modes_of(tma_gbasis_tile.shape), stride = modes_of(tma_gbasis_tile.stride);
  const std::vector<Int> in_box = leaves(tma_gbasis_tile.stride);
  const std::vector<Int> gshape = leaves(gmem.shape), gstride = leaves(gmem.stride), bases = leaves(gbasis.stride);
  for (std::size_t k = 0; k < gshape.size(); ++k) {
    if (gshape[k].is_constant(1) || gstride[k].is_constant(0)) continue;
    if (std::any_of(in_box.begin(), in_box.end(), [&](Int tb) { return same_unit_basis(tb, bases[k]); })) continue;
    shape.emplace_back(static_int(1));
    stride.emplace_back(bases[k]);
  }
  // At most 5 box modes: the modes from the fifth on become one.
  const std::size_t head = std::min<std::size_t>(shape.size(), kTmaMaxRank - 1);
  if (head < shape.size()) {
    std::vector<IntTuple> s(shape.begin(), shape.begin() + head), d(stride.begin(), stride.begin() + head);
    s.emplace_back(std::vector<IntTuple>(shape.begin() + head, shape.end()));
    d.emplace_back(std::vector<IntTuple>(stride.begin() + head, stride.end()));
    shape = std::move(s);
    stride = std::move(d);
  }
  return {IntTuple(shape), IntTuple(stride)};
}

// get_tma_swizzle_bits / get_tma_swizzle_base, with their static_asserts.
void tma_swizzle_mode(const Swizzle& sw, int& bits, int& base) {
  const int b = sw.bits, m = sw.base, s = sw.shift;
  if (m == 4) {
    if (b < 0 || b > 3) refuse_tma("Expected B = 0,1,2, or 3 when M == 4. Unsupported layout swizzle.");
    if (s != 3) refuse_tma("Expected S = 3 when M == 4. Unsupported layout swizzle.");
    bits = b;
    base = 0;
  } else if (m == 5 || m == 6) {
    if (b != 2) refuse_tma("Expected B = 2 when M == 5 or 6. Unsupported layout swizzle.");
    if (m == 5 && s != 2) refuse_tma("Expected S = 2 when M == 5. Unsupported layout swizzle.");
    bits = 3;
    base = m == 5 ? 1 : 3;
  } else {
    refuse_tma("Unsupported layout swizzle.");
  }
}

std::string_view tensor_map_swizzle(int bits, int base) {
  switch (bits) {
    case 0: return "CU_TENSOR_MAP_SWIZZLE_NONE";
    case 1: return "CU_TENSOR_MAP_SWIZZLE_32B";
    case 2: return "CU_TENSOR_MAP_SWIZZLE_64B";
    default:
      return base == 0   ? "CU_TENSOR_MAP_SWIZZLE_128B"
             : base == 1 ? "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B"
                         : "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B";
  }
}

std::uint64_t as_u64(const IntTuple& t) { return static_cast<std::uint64_t>(t.value().value); }

// make_tma_copy_desc: the descriptor's global dimensions and strides, read
// through the basis, and its box, cut by the multicast from the last mode on.
TmaDescriptorFields tma_descriptor(const Layout& gmem, const Layout& tma_gbasis, const TmaValueType& type,
                                   std::int64_t multicast) {
  const std::vector<IntTuple> box_modes = modes_of(tma_gbasis.shape), basis_modes = modes_of(tma_gbasis.stride);
  const int rank = static_cast<int>(box_modes.size());
  std::array<std::uint64_t, kTmaMaxRank> shape{1, 1, 1, 1, 1}, stride{0, 0, 0, 0, 0};
  for (int i = 0; i < rank; ++i) {
    const IntTuple& mode = basis_modes[i];
    if (mode.is_leaf() || mode.rank() == 1) {
      const Int e = leaves(mode).front();
      shape[i] = as_u64(basis_get(e, gmem.shape));
      stride[i] = as_u64(basis_get(e, gmem.stride));
      continue;
    }
    for (const IntTuple& ej : mode.elems()) {
      const std::uint64_t shape_j = as_u64(basis_get(ej.value(), gmem.shape));
      const std::uint64_t stride_j = as_u64(basis_get(ej.value(), gmem.stride));
      const std::uint64_t old_stride = stride[i];
      stride[i] = static_cast<std::uint64_t>(
          gcd(static_int(static_cast<std::int64_t>(stride[i])), static_int(static_cast<std::int64_t>(stride_j))).value);
      shape[i] = stride[i] != 0 ? (shape[i] - 1) * (old_stride / stride[i]) + (shape_j - 1) * (stride_j / stride[i]) + 1
                                : shape_j;
    }
  }
  for (int i = 0; i < kTmaMaxRank; ++i) {
    if (shape[i] < 1) refuse_tma(fmt::format("assert gmem_prob_shape[{}] >= (uint64_t(1))", i));
    if (shape[i] > (std::uint64_t(1) << 32))
      refuse_tma(fmt::format("assert gmem_prob_shape[{}] <= (uint64_t(1) << 32)", i));
  }
  if (stride[0] != 1)
    refuse_tma("assert gmem_prob_stride[0] == 1 && \"Majorness of smem doesn't match majorness of gmem\"");
  for (auto& s : stride) s = s * static_cast<std::uint64_t>(type.bits) / 8;
  for (int i = 1; i < kTmaMaxRank; ++i) {
    if (stride[i] >= (std::uint64_t(1) << 40))
      refuse_tma(fmt::format("assert (gmem_prob_stride[{}]) < (uint64_t(1) << 40)", i));
    if (stride[i] % 16 != 0) refuse_tma(fmt::format("assert (gmem_prob_stride[{}] & 0b1111) == 0", i));
  }
  std::array<std::uint64_t, kTmaMaxRank> box{1, 1, 1, 1, 1};
  for (int i = 0; i < rank; ++i) box[i] = static_cast<std::uint64_t>(product(box_modes[i]).value);
  std::uint64_t mc = static_cast<std::uint64_t>(multicast);
  for (int i = rank - 1; mc > 1; --i) {
    if (i < 0) refuse_tma(fmt::format("the multicast size {} is larger than the box", multicast));
    const std::uint64_t b = box[i];
    if (b % mc != 0 && mc % b != 0)
      refuse_tma("assert smem_box_shape[i] % multicast == 0 || multicast % smem_box_shape[i] == 0");
    box[i] = (b + mc - 1) / mc;
    mc = (mc + b - 1) / b;
  }
  for (int i = 0; i < kTmaMaxRank; ++i) {
    if (box[i] < 1) refuse_tma(fmt::format("assert smem_box_shape[{}] >= (uint32_t(1))", i));
    if (box[i] > 256) refuse_tma(fmt::format("assert smem_box_shape[{}] <= (uint32_t(1) << 8)", i));
  }
  TmaDescriptorFields d;
  d.data_type = type.tensor_map_type;
  d.rank = rank;
  d.dims.assign(shape.begin(), shape.begin() + rank);
  d.strides.assign(stride.begin() + 1, stride.begin() + rank);
  d.box.assign(box.begin(), box.begin() + rank);
  d.element_strides.assign(rank, 1);
  return d;
}

// gmem_tma_basis_stride: each global mode's step in TMA coordinates.
IntTuple tma_coordinate_strides(const Layout& gmem, const Layout& tma_gbasis, const TmaDescriptorFields& desc,
                                const TmaValueType& type) {
  const std::vector<IntTuple> basis_modes = modes_of(tma_gbasis.stride);
  return transform_leaf(make_basis_like(gmem.shape), [&](Int ei) -> Int {
    const Int si = basis_get(ei, gmem.shape).value(), di = basis_get(ei, gmem.stride).value();
    if (si.is_constant(1) || di.is_constant(0)) return static_int(0);
    const auto holds = [&](const IntTuple& mode) {
      const auto ds = leaves(mode);
      return std::any_of(ds.begin(), ds.end(), [&](Int dj) { return same_unit_basis(dj, ei); });
    };
    const auto j = static_cast<int>(std::find_if(basis_modes.begin(), basis_modes.end(), holds) - basis_modes.begin());
    if (j == static_cast<int>(basis_modes.size())) return static_int(0);
    const Int ej = basis_element({j});
    if (j == 0) return ej * di;
    if (basis_modes[j].rank() == 1) return ej;
    const std::uint64_t byte_stride = std::max<std::uint64_t>(desc.strides[j - 1], 16);
    const auto scale = static_cast<std::int32_t>(static_cast<std::uint64_t>(di.value * type.bits) / byte_stride);
    return ej * dynamic_int((scale + 7) / 8);
  });
}

}  // namespace

const std::vector<std::string>& tma_operations() {
  static const std::vector<std::string> ops{"SM90_TMA_LOAD",      "SM90_TMA_LOAD_MULTICAST",
                                            "SM90_TMA_STORE",     "SM90_TMA_REDUCE_ADD",
                                            "SM100_TMA_2SM_LOAD", "SM100_TMA_2SM_LOAD_MULTICAST"};
  return ops;
}

const TmaValueType* find_tma_value_type(std::string_view name) {
  for (const auto& t : kTmaTypes)
    if (t.name == name) return &t;
  return nullptr;
}

std::vector<std::string> tma_value_type_names() {
  std::vector<std::string> names;
  for (const auto& t : kTmaTypes) names.emplace_back(t.name);
  return names;
}

std::optional<std::pair<Swizzle, Layout>> smem_portions(const Value& smem) {
  if (smem.kind == Value::Kind::Composed && smem.composed().nested.empty())
    return std::make_pair(smem.composed().swizzle, smem.composed().layout);
  if (smem.kind == Value::Kind::Composed) return std::nullopt;
  const auto l = smem.as_plain_layout();
  if (!l || is_coordinate_layout(*l) || !is_static(l->shape) || !is_static(l->stride)) return std::nullopt;
  return std::make_pair(Swizzle::make(0, 4, 3), *l);
}

namespace {

Layout cta_v_map_of(const TmaCopyInput& in, Diagnostics& diag) {
  return composition(make_identity_layout(in.gmem.shape),
                     in.cta_tiler ? *in.cta_tiler : tiler_of(product_each(in.smem.shape)), diag);
}

// make_tma_copy_atom's compile-time part: the box, the swizzle, the Copy_Traits.
TmaCopy tma_atom_traits(const TmaCopyInput& in, const Layout& cta_v_map, Diagnostics& diag) {
  const TmaValueType& type = *in.type;
  TmaCopy tma;
  tma.tma_gbasis = construct_tma_gbasis(in.gmem, in.smem, cta_v_map, diag);
  tma.swizzle = in.swizzle;
  tma_swizzle_mode(in.swizzle, tma.swizzle_bits, tma.swizzle_base);
  tma.elements_per_tma = product(tma.tma_gbasis.shape).value;

  // Copy_Traits<Op, C<bits per TMA>>: one CTA (two for the SM100 2-SM loads) moves the whole box.
  const Int nbits = static_int(tma.elements_per_tma * type.bits);
  const bool two = is_two_sm(in.op);
  tma.traits.name = in.op;
  tma.traits.thr_id = two ? Layout{static_int(2), static_int(1)} : Layout{static_int(1), static_int(0)};
  tma.traits.src =
      two ? Layout{IntTuple::tuple({static_int(2), nbits}), IntTuple::tuple({nbits, static_int(1)})}
          : Layout{IntTuple::tuple({static_int(1), nbits}), IntTuple::tuple({static_int(0), static_int(1)})};
  tma.traits.dst = tma.traits.ref = tma.traits.src;
  const CopyElements values = copy_elements(tma.traits, type.bits, diag);
  tma.val_src = values.src;
  tma.val_dst = values.dst;
  tma.val_ref = values.ref;
  return tma;
}

// make_tma_copy_desc's run-time part: the descriptor, with CuTe's asserts, and the TMA tensor's strides.
void tma_descriptor_of(TmaCopy& tma, const TmaCopyInput& in) {
  tma.desc = tma_descriptor(in.gmem, tma.tma_gbasis, *in.type, in.multicast.value);
  tma.desc.swizzle = tensor_map_swizzle(tma.swizzle_bits, tma.swizzle_base);
  tma.g_stride = tma_coordinate_strides(in.gmem, tma.tma_gbasis, tma.desc, *in.type);
}

}  // namespace

TmaCopy make_tma_atom(const TmaCopyInput& in, Diagnostics& diag) {
  TmaCopy tma = tma_atom_traits(in, cta_v_map_of(in, diag), diag);
  tma_descriptor_of(tma, in);
  return tma;
}

TmaCopy make_tma_copy(const TmaCopyInput& in, Diagnostics& diag) {
  // CuTe refuses at compile time before it asserts at run time: the checks
  // come in the order a C++ compiler reports them, the descriptor's last.
  const Layout cta_v_map = cta_v_map_of(in, diag);
  TmaCopy tma = tma_atom_traits(in, cta_v_map, diag);

  // make_tma_copy_tiled: values run along the inverse of the smem layout, one
  // box after another; the CTAs of a multicast each take a slice of every box.
  const std::int64_t cluster = in.multicast.value;
  const Layout inv_smem = right_inverse(in.smem);
  const Layout layout_v = composition(inv_smem, Tiler::of(static_int(tma.elements_per_tma)), diag);
  const Layout wrapped{IntTuple::tuple({layout_v.shape}), IntTuple::tuple({layout_v.stride})};  // make_layout(layout_v)
  const Layout layout_V = tile_to_shape(wrapped, IntTuple(product(cta_v_map.shape)), std::nullopt, diag);
  const Layout layout_t{in.multicast, static_int(tma.elements_per_tma / cluster)};
  const Layout cta_t_map = make_layout(IntTuple(in.multicast));
  const Layout layout_T = composition(inv_smem, composition(layout_t, cta_t_map, diag), diag);
  tma.tv =
      Layout{IntTuple::tuple({layout_T.shape, layout_V.shape}), IntTuple::tuple({layout_T.stride, layout_V.stride})};
  tma.tiler = product_each(cta_v_map.shape);
  const std::int64_t atom_threads = is_two_sm(in.op) ? 2 : 1;
  if (product(layout_T.shape).value % atom_threads != 0)
    refuse_tma("TiledCopy uses too few thrs for selected CopyAtom");
  if (product(layout_V.shape).value % tma.elements_per_tma != 0)
    refuse_tma("TiledCopy uses too few vals for selected CopyAtom");
  // g++ reports safe_div's static_assert after the compositions' (CuTe's order as measured).
  if (tma.elements_per_tma % cluster != 0) refuse_tma("Static safe_div requires t % u == 0");

  tma_descriptor_of(tma, in);
  return tma;
}

}  // namespace layoutx
