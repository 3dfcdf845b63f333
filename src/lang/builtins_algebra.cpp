// The language's functions of CuTe's layout algebra: coalesce, composition,
// complement, the inverses, the divides and products, upcast and downcast,
// and the adapters that refuse scaled-basis strides where CuTe needs integers.
#include <fmt/format.h>
#include <optional>
#include <variant>

#include "builtins.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/integer_strides.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/postconditions.hpp"
#include "layoutx/value_composition.hpp"

namespace layoutx::lang::algebra {

namespace {

// zipped/tiled/flat_product of a layout by a composed layout: CuTe's
// logical_product(Layout, ComposedLayout), then tile_unzip by a tiler that is no
// tuple, which keeps the rank-2 product as it is, then the product's unpacking.
// A tile holding composed layouts, as the tiler of a product of `block`: CuTe
// takes logical_product(mode, composed) mode by mode, which is the product by
// the composed layout's inner layout where the new swizzle it finds has no
// bits; a product that stays swizzled cannot be gathered into one layout.
Value tile_without_swizzles(const Call& c, const Layout& block, const Value& tile) {
  if (tile.kind == Value::Kind::Composed) {
    AnyLayout p;
    try {
      p = logical_product(block, tile.composed(), c.diag);
    } catch (const Error& e) {
      c.fail_arg(1, e);
    }
    if (!std::holds_alternative<Layout>(p))
      c.fail_arg(1, fmt::format("{}: the product of the mode {} by {} stays swizzled ({}), and CuTe cannot gather a "
                                "composed layout into the product's layout",
                                c.name(), c.text(block), c.text(tile.composed()), c.text(Value::of(p))));
    return Value::of(tile.composed().layout);
  }
  if (tile.kind != Value::Kind::Tuple || tile.is_int_tuple() || static_cast<int>(tile.elems.size()) > rank(block))
    return tile;  // the tiler's own checks refuse what does not fit
  std::vector<Value> elems;
  for (std::size_t i = 0; i < tile.elems.size(); ++i)
    elems.push_back(tile_without_swizzles(c, get(block, static_cast<int>(i)), tile.elems[i]));
  return Value::tuple(std::move(elems));
}

bool holds_composed(const Value& v) {
  return v.kind == Value::Kind::Composed || std::any_of(v.elems.begin(), v.elems.end(), holds_composed);
}

// The tiler of a product: a tile holding composed layouts as its inner layouts.
Tiler product_tiler(const Call& c) {
  if (c.args[1].kind != Value::Kind::Tuple || !holds_composed(c.args[1]) || c.args[0].kind != Value::Kind::Layout)
    return c.tiler(1);
  try {
    return to_tiler(tile_without_swizzles(c, c.args[0].layout, c.args[1]), c.diag.notation());
  } catch (const SourceError&) {
    throw;
  } catch (const Error& e) {
    c.fail_arg(1, e);
  }
}

}  // namespace

Value fn_coalesce(const Call& c) {
  c.expect_args(1, 2);
  if (c.args.size() == 1) return on_layout(c, 0, [](const Layout& l) { return coalesce(l); });
  const IntTuple profile = c.int_tuple(1);
  return on_layout(c, 0, [&](const Layout& l) { return coalesce(l, profile); });
}

Value fn_filter(const Call& c) {
  c.expect_args(1, 2);
  if (c.args.size() == 1) {
    if (c.args[0].kind == Value::Kind::Composed)
      c.fail_arg(0, "CuTe has filter(ComposedLayout, profile) only; give a profile such as filter(L, 0)");
    return Value::of(filter(c.layout(0)));
  }
  const IntTuple profile = c.int_tuple(1);
  return on_layout(c, 0, [&](const Layout& l) { return filter(l, profile); });
}

Value fn_composition(const Call& c) {
  c.expect_args(2, 2);
  return compose_values(c.args[0], c.args[1], c.diag);
}

Value fn_complement(const Call& c) {
  c.expect_args(1, 2);
  const Value& a = c.args[0];
  std::optional<Layout> of_shape;
  const Layout& l = a.kind == Value::Kind::Layout     ? a.layout
                    : a.kind == Value::Kind::Composed ? a.composed().layout
                                                      : of_shape.emplace(c.layout(0));
  if (c.args.size() == 1) {
    if (a.kind == Value::Kind::Composed) return answer(complement(l, cosize(l), c.diag));
    return answer(complement(l, c.diag));
  }
  return answer(complement(l, c.int_tuple(1), c.diag));
}

Value fn_right_inverse(const Call& c) {
  c.expect_args(1, 1);
  if (c.args[0].kind == Value::Kind::Underscore) return c.args[0];
  if (c.args[0].kind == Value::Kind::Swizzle) return c.args[0];
  if (c.args[0].kind == Value::Kind::Layout)
    return answer(right_inverse(c.args[0].layout, c.diag.trace()));  // read in place
  const AnyLayout a = c.any_layout(0);
  AnyLayout r = std::visit([&](const auto& x) { return AnyLayout{right_inverse(x, c.diag.trace())}; }, a);
  // CuTe's algorithm is exact on plain layouts; through a swizzle it "works in simple cases".
  if (std::holds_alternative<ComposedLayout>(a)) check_right_inverse(a, r, c.diag);
  return answer(std::move(r));
}

Value fn_left_inverse(const Call& c) {
  c.expect_args(1, 1);
  if (c.args[0].kind == Value::Kind::Underscore) return c.args[0];
  if (c.args[0].kind == Value::Kind::Swizzle) return c.args[0];
  if (c.args[0].kind == Value::Kind::Layout)
    return answer(left_inverse(c.args[0].layout, c.diag.trace()));  // read in place
  const AnyLayout a = c.any_layout(0);
  AnyLayout r = std::visit([&](const auto& x) { return AnyLayout{left_inverse(x, c.diag.trace())}; }, a);
  if (std::holds_alternative<ComposedLayout>(a)) check_left_inverse(a, r, c.diag);
  return answer(std::move(r));
}

Builtin tiler_op(TilerOp op) {
  return [op](const Call& c) {
    c.expect_args(2, 2);
    c.expect_template_args(0, 0);
    const Tiler t = c.tiler(1);
    return on_layout(c, 0, [&](const Layout& l) { return op(l, t, c.diag); });
  };
}

Layout zipped(const Layout& l) { return l; }

Builtin product_op(TilerOp op, Layout (*unpack)(const Layout&)) {
  return [op, unpack](const Call& c) {
    if (c.args.size() == 2 && c.args[1].kind == Value::Kind::Tuple) {
      c.expect_template_args(0, 0);
      const Tiler t = product_tiler(c);
      return on_layout(c, 0, [&](const Layout& l) { return op(l, t, c.diag); });
    }
    if (c.args.size() != 2 || c.args[0].kind != Value::Kind::Layout || c.args[1].kind != Value::Kind::Composed)
      return tiler_op(op)(c);
    c.expect_template_args(0, 0);
    const AnyLayout p = logical_product(c.args[0].layout, c.args[1].composed(), c.diag);
    const auto* l = std::get_if<Layout>(&p);
    if (!l)
      c.fail_arg(1, fmt::format("{} by a composed layout whose swizzle stays active gives a composed layout that "
                                "layoutx does not unzip: {}",
                                c.name(), c.text(Value::of(p))));
    return Value::of(unpack(*l));
  };
}

Value fn_logical_product(const Call& c) {
  c.expect_args(2, 2);
  if (c.args[1].kind == Value::Kind::Composed && c.args[0].kind != Value::Kind::Composed)
    return Value::of(logical_product(c.layout(0), c.args[1].composed(), c.diag));
  const Tiler t = product_tiler(c);
  return on_layout(c, 0, [&](const Layout& l) { return logical_product(l, t, c.diag); });
}

Builtin pair_op(PairOp op) {
  return [op](const Call& c) {
    c.expect_args(2, 2);
    const Layout tiler = c.layout(1);
    return on_layout(c, 0, [&](const Layout& l) { return op(l, tiler, c.diag); });
  };
}

Value fn_tile_to_shape(const Call& c) {
  c.expect_args(2, 3);
  std::optional<IntTuple> order;
  if (c.args.size() == 3 && c.args[2].kind != Value::Kind::LayoutLeft) {
    if (c.args[2].kind == Value::Kind::LayoutRight) {
      // CuTe's GenRowMajor order: the last mode first, whatever the sizes (static ranks, no ties).
      std::vector<IntTuple> ranks;
      const int r = c.int_tuple(1).rank();
      for (int i = 0; i < r; ++i) ranks.emplace_back(static_int(r - 1 - i));
      order = IntTuple(std::move(ranks));
    } else {
      order = c.int_tuple(2);
    }
  }
  const IntTuple target = c.int_tuple(1);
  return on_layout(c, 0, [&](const Layout& l) { return tile_to_shape(l, target, order, c.diag); });
}

Value fn_max_common_layout(const Call& c) {
  c.expect_args(2, 2);
  const AnyLayout a = c.any_layout(0), b = c.any_layout(1);
  const auto* la = std::get_if<Layout>(&a);
  const auto* lb = std::get_if<Layout>(&b);
  if (la && lb) return Value::of(max_common_layout(*la, *lb, c.diag));
  if (!la && lb) return Value::of(max_common_layout(std::get<ComposedLayout>(a), *lb, c.diag));
  if (la && !lb) return Value::of(max_common_layout(std::get<ComposedLayout>(b), *la, c.diag));
  c.fail("CuTe has no max_common_layout of two composed layouts");
}

Value fn_max_common_vector(const Call& c) {
  c.expect_args(2, 2);
  const AnyLayout a = c.any_layout(0), b = c.any_layout(1);
  const auto* la = std::get_if<Layout>(&a);
  const auto* lb = std::get_if<Layout>(&b);
  if (la && lb) return Value::of(max_common_vector(*la, *lb, c.diag));
  if (!la && lb) return Value::of(max_common_vector(std::get<ComposedLayout>(a), *lb, c.diag));
  if (la && !lb) return Value::of(max_common_vector(std::get<ComposedLayout>(b), *la, c.diag));
  return Value::of(max_common_vector(std::get<ComposedLayout>(a), std::get<ComposedLayout>(b), c.diag));
}

Value fn_nullspace(const Call& c) {
  c.expect_args(1, 1);
  return Value::of(nullspace(c.layout(0)));
}

Value fn_upcast(const Call& c) {
  c.expect_args(1, 1);
  c.expect_template_args(1, 1);
  const std::int64_t n = c.targ(0);
  if (c.args[0].kind == Value::Kind::Swizzle) return Value::of(upcast(c.args[0].swizzle, n));
  if (c.args[0].kind == Value::Kind::Composed) return Value::of(upcast(c.args[0].composed(), n, c.diag));
  return Value::of(upcast(c.layout(0), n, c.diag));
}

Value fn_downcast(const Call& c) {
  c.expect_args(1, 1);
  c.expect_template_args(1, 1);
  const std::int64_t n = c.targ(0);
  if (c.args[0].kind == Value::Kind::Swizzle) return Value::of(downcast(c.args[0].swizzle, n));
  if (c.args[0].kind == Value::Kind::Composed) return Value::of(downcast(c.args[0].composed(), n));
  return Value::of(downcast(c.layout(0), n));
}

Value fn_recast(const Call& c) {
  c.expect_args(1, 1);
  c.expect_template_args(2, 2);
  // CuTe's recast_layout<OldType, NewType>: types, or their widths in bits.
  const std::int64_t from = c.targ_bits(0), to = c.targ_bits(1);
  if (c.args[0].kind == Value::Kind::Swizzle) return Value::of(recast_layout(c.args[0].swizzle, from, to));
  if (c.args[0].kind == Value::Kind::Composed) return Value::of(recast_layout(c.args[0].composed(), from, to, c.diag));
  return Value::of(recast_layout(c.layout(0), from, to, c.diag));
}

// L.with_shape(s...): composition(L, make_layout(s)); several shapes make one.
Value fn_with_shape(const Call& c) {
  c.expect_args(2, 64);
  IntTuple shape = c.int_tuple(1);
  if (c.args.size() > 2) {
    std::vector<IntTuple> modes;
    for (std::size_t i = 1; i < c.args.size(); ++i) modes.push_back(c.int_tuple(i));
    shape = IntTuple(std::move(modes));
  }
  return compose_values(c.args[0], Value::of(make_layout(shape)), c.diag);
}

Value fn_max_alignment(const Call& c) {
  c.expect_args(1, 1);
  if (c.args[0].kind == Value::Kind::Swizzle) return Value::of(static_int(std::int64_t{1} << c.args[0].swizzle.base));
  if (c.args[0].kind == Value::Kind::Composed) {
    const ComposedLayout& cl = c.args[0].composed();
    require_single_swizzle(cl, "max_alignment");
    if (!cl.offset.is_static)
      c.fail_arg(0, StaticRequiredError(fmt::format("max_alignment of a composed layout needs static integers: CuTe "
                                                    "has no max_alignment of the dynamic offset {}",
                                                    cl.offset.value)));
    Int g = gcd(static_int(std::int64_t{1} << cl.swizzle.base), max_alignment(cl.layout, c.diag));
    // CuTe: the largest power of two dividing the offset's bits
    if (cl.offset.value != 0) {
      const auto bits = static_cast<std::uint64_t>(cl.offset.value);  // unsigned: -INT64_MIN would overflow
      g = gcd(g, static_int(static_cast<std::int64_t>(bits & (0 - bits))));
    }
    return Value::of(g);
  }
  return Value::of(max_alignment(c.layout(0), c.diag));
}

// f, for the arguments from `first` on when none has scaled-basis strides:
// CuTe's function needs integer strides there (it sorts, divides or inverts
// them) and does not compile with a coordinate layout.
// With `unit_ok`, a layout whose modes are all _1 passes: the inverses filter
// such modes away without reading their strides.
// With `block_ok` (the products), the first argument may be a coordinate layout
// whose scaled-basis strides all sit in modes of static size 1: CuTe reads a
// block's strides only through complement, which drops size-1 modes first, so
// the product is computed with integer placeholders there and the block's
// strides come back unchanged in the result.
Function integer_strides(Function f, std::size_t first, bool unit_ok, bool block_ok) {
  Builtin impl = [inner = f.impl, first, unit_ok, block_ok](const Call& c) {
    std::optional<Placeholders> block;
    if (block_ok && !c.args.empty() && c.args[0].kind == Value::Kind::Layout && is_coordinate_layout(c.args[0].layout))
      block = with_placeholders(c.args[0].layout);
    for (std::size_t i = first; i < c.args.size(); ++i)
      if (holds_coordinate_layout(c.args[i]) && !(i == 0 && block) &&
          !(unit_ok && c.args[i].kind == Value::Kind::Layout && all_static_ones(c.args[i].layout.shape)))
        c.fail_arg(i, fmt::format("{} needs integer strides; {} has scaled-basis strides (a coordinate layout, as "
                                  "make_identity_layout makes), which CuTe's {} does not compile with",
                                  c.name(), c.text(c.args[i]), c.name()));
    if (!block) return inner(c);
    Call stand_in{c.node, c.args, c.options, c.diag};
    stand_in.args[0] = Value::of(block->stand_in);
    Value v = inner(stand_in);
    c.template_args_read = stand_in.template_args_read;
    if (v.kind == Value::Kind::Layout) v.layout.stride = restored(v.layout.stride, block->originals);
    return v;
  };
  return Function(std::move(impl), f.property);
}

// The products: their block may be a coordinate layout with scaled-basis strides in size-1 modes only.
Function product_strides(Function f) { return integer_strides(std::move(f), 0, false, true); }

}  // namespace layoutx::lang::algebra
