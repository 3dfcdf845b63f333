// The products: R(i) == Base(D(i)), D the same product of A's identity
// layout, whose offsets a + size(A) * k split into A's offset a and the k-th
// tile origin; Base = (A, complement(A, size(A) * cosize(T))).
#include <algorithm>

#include "findings.hpp"
#include "layoutx/notation.hpp"

namespace layoutx::verify {

namespace {

// The layout of a block's offsets and its tile origins: (A, complement(A, size(A) * cosize(T))).
Layout block_and_origins(const Layout& block, const Layout& tiler, Diagnostics& diag) {
  return make_layout(std::vector<Layout>{block, complement(block, IntTuple(size(block) * cosize(tiler)), diag)});
}

Layout tiler_layout(const Value& t) {
  if (t.kind == Value::Kind::Layout) return t.layout;
  if (t.kind == Value::Kind::Integer) return Layout{t.integer, static_int(1)};
  return make_layout(t.as_int_tuple());
}

// A swizzled block's product is the product of its layout, under the same swizzle.
AnyLayout swizzled_like(const AnyLayout& a, const Layout& l) {
  if (const auto* c = std::get_if<ComposedLayout>(&a)) return on_inner(*c, [&](const Layout&) { return l; });
  return l;
}

// logical_product by a tile, mode by mode: R_m(i) == Base_m(D_m(i)) with D_m
// the product of A_m's identity layout; modes of A past the tile are kept.
void check_product_by_mode(Findings& f, const AnyLayout& result, const AnyLayout& a, const Value& tile) {
  const Layout& block = inner_layout(a);
  std::vector<Layout> modes;
  if (block.shape.is_leaf())
    modes.push_back(block);
  else
    for (int m = 0; m < block.shape.rank(); ++m) modes.push_back(get(block, m));
  const Layout& inner_r = inner_layout(result);
  const std::size_t rank_r = inner_r.shape.is_leaf() ? 1 : inner_r.shape.rank();
  if (tile.elems.size() > modes.size()) return f.skipped("logical_product: the tile has more modes than A");
  std::vector<Layout> base, reindex;
  for (std::size_t m = 0; m < std::max(tile.elems.size(), std::min(rank_r, modes.size())); ++m) {
    const Value* t = m < tile.elems.size() ? &tile.elems[m] : nullptr;
    if (t && t->kind != Value::Kind::Layout && !t->is_int_tuple())
      return f.skipped("logical_product by a tile with nested or '_' modes: property not checked");
    if (!t) {
      base.push_back(modes[m]);
      reindex.push_back(identity_layout(modes[m].shape));
      continue;
    }
    const Layout tm = tiler_layout(*t);
    base.push_back(block_and_origins(modes[m], tm, f.diag()));
    reindex.push_back(logical_product(identity_layout(modes[m].shape), Tiler::of(tm), f.diag()));
  }
  f.verdict(
      "logical_product: R(c) == Base_m(D_m(c_m)) by mode, Base_m = (A_m, complement(A_m, size(A_m) * cosize(T_m)))",
      device::check_composition(f.device_options(), result, swizzled_like(a, make_layout(base)), reindex),
      [](const device::Mismatch& m) { return show_pair("R(c)", "Base(D(c))", m); });
}

}  // namespace

void check_product(Findings& f, const AnyLayout& result, const OuterCall& call) {
  const Value& av = call.operands[0];
  const Value& t = call.operands[1];
  const auto a = av.kind == Value::Kind::Swizzle ? std::nullopt : as_function(av);
  if (!a || !(t.kind == Value::Kind::Layout || t.kind == Value::Kind::Tuple || t.is_int_tuple()))
    return f.skipped(call.name + ": property not checked");
  // blocked_product and raked_product take any tile as a layout; the others
  // are checked by a layout, and logical_product by a tile mode by mode.
  const bool by_layout = call.property == Property::BlockProduct || t.kind == Value::Kind::Layout;
  if (!by_layout) {
    if (call.property == Property::LogicalProduct && t.kind == Value::Kind::Tuple)
      return check_product_by_mode(f, result, *a, t);
    return f.skipped(call.name + " by a tile: property not checked");
  }
  const Layout block = inner_layout(*a);
  const Layout tiler = tiler_layout(t);
  const AnyLayout base = swizzled_like(*a, block_and_origins(block, tiler, f.diag()));
  std::vector<Value> operands = call.operands;
  operands[0] = Value::of(identity_layout(block.shape));
  const auto d = as_function(call.again(std::move(operands), f.diag()));
  if (!d) return f.skipped(call.name + ": property not checked");
  size_must_match(f, result, size(*d), "size(D)");
  const std::string what = fmt::format("{}: R(i) == (A, complement(A, {}))(D(i)), D = {}", call.name,
                                       f.text(size(block) * cosize(tiler)), f.text(*d));
  f.verdict(what, device::check_composition(f.device_options(), result, base, *d),
            [](const device::Mismatch& m) { return show_pair("R(i)", "Base(D(i))", m); });
}

}  // namespace layoutx::verify
