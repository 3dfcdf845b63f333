// The functions of the expression language, by CuTe's names and argument order.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <string_view>
#include <unordered_map>
#include <optional>

#include "call.hpp"
#include "partitioning.hpp"
#include "tensor_functions.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/limits.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/postconditions.hpp"
#include "layoutx/profile_relations.hpp"
#include "layoutx/swizzle_slice.hpp"

namespace layoutx::lang {

namespace {

// A function's answer as a value, moved in (Value::of copies it).
Value answer(Layout&& l) {
  Value v;
  v.kind = Value::Kind::Layout;
  v.layout = std::move(l);
  return v;
}

Value answer(AnyLayout&& l) {
  if (auto* plain = std::get_if<Layout>(&l)) return answer(std::move(*plain));
  return Value::of(std::move(std::get<ComposedLayout>(l)));
}

// f on a layout; on a composed layout, f on its inner layout (swizzle and offset kept).
template <class F>
Value on_layout(const Call& c, std::size_t i, F f) {
  // The argument is read in place: for a small layout a copy costs as much as the function.
  const Value& v = c.args.at(i);
  if (v.kind == Value::Kind::Layout) return answer(f(v.layout));
  if (v.kind == Value::Kind::Composed) return answer(on_inner(v.composed(), f));
  return answer(f(c.layout(i)));
}

Value get_value(const Call& c, const Value& v, int i) {
  switch (v.kind) {
    case Value::Kind::Layout:
      return Value::of(get(v.layout, i));
    case Value::Kind::Composed:
      return Value::of(on_inner(v.composed(), [&](const Layout& l) { return get(l, i); }));
    case Value::Kind::Integer:
      if (i != 0) c.fail(fmt::format("Index out of range: get<{}> of the integer {}", i, c.text(v)));
      return v;
    case Value::Kind::Tuple:
      if (i >= static_cast<int>(v.elems.size()))
        c.fail(fmt::format("Index out of range: get<{}> of {} (rank {})", i, c.text(v), v.elems.size()));
      return v.elems[i];
    default:
      c.fail_arg(0, fmt::format("cannot take get<{}> of {}", i, a_kind_name(v)));
  }
}

// The sub-value at the template indices, as size<1>(L) / shape<0,1>(L) select it.
Value sub_value(const Call& c) {
  Value v = c.args.at(0);
  if (v.kind != Value::Kind::Layout && v.kind != Value::Kind::Composed && !v.is_int_tuple())
    c.fail_arg(0, fmt::format("expected a layout or an int tuple, got {} {}", a_kind_name(v), c.text(v)));
  for (int i : c.targ_indices()) v = get_value(c, v, i);
  return v;
}

IntTuple shape_of(const Value& v) {
  if (v.kind == Value::Kind::Layout) return v.layout.shape;
  if (v.kind == Value::Kind::Composed) return v.composed().layout.shape;
  return v.as_int_tuple();
}

Value fn_make_layout(const Call& c) {
  c.expect_template_args(0, 0);
  c.expect_args(1, 64);
  const auto& a = c.args;
  if (a.size() == 1) {
    if (a[0].kind == Value::Kind::Layout) return Value::of(make_layout(std::vector<Layout>{a[0].layout}));
    if (a[0].kind == Value::Kind::Swizzle) {
      const Swizzle& s = a[0].swizzle;
      return Value::of(composition(s, Layout{static_int(s.base + s.bits + std::abs(s.shift)), static_int(1)}));
    }
    return Value::of(make_layout(c.int_tuple(0)));
  }
  if (a.size() == 2 && a[1].kind == Value::Kind::LayoutLeft) return Value::of(make_layout(c.int_tuple(0)));
  if (a.size() == 2 && a[1].kind == Value::Kind::LayoutRight) return Value::of(make_layout_right(c.int_tuple(0)));
  if (a.size() == 2 && a[0].is_int_tuple() && a[1].is_int_tuple()) {
    try {
      return Value::of(make_layout(a[0].as_int_tuple(), a[1].as_int_tuple()));
    } catch (const Error& e) {
      c.fail_arg(1, e.message(c.diag.notation()));
    }
  }
  std::vector<Layout> modes;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].kind != Value::Kind::Layout)
      c.fail_arg(i, fmt::format("make_layout(L0, L1, ...) concatenates layouts; got {} {}", a_kind_name(a[i]), c.text(a[i])));
    modes.push_back(a[i].layout);
  }
  return Value::of(make_layout(modes));
}

Value fn_make_tuple(const Call& c) {
  c.expect_template_args(0, 0);
  return Value::tuple(c.args);
}

Value fn_make_ordered_layout(const Call& c) {
  c.expect_args(2, 2);
  if (c.args[1].kind == Value::Kind::LayoutLeft) return Value::of(make_layout(c.int_tuple(0)));
  if (c.args[1].kind == Value::Kind::LayoutRight) return Value::of(make_layout_right(c.int_tuple(0)));
  return Value::of(make_ordered_layout(c.int_tuple(0), c.int_tuple(1)));
}

Value fn_get(const Call& c) {
  c.expect_args(1, 1);
  c.expect_template_args(1, 16);
  // A tuple of layouts (what append and prepend make of a composed layout) gives its elements.
  if (c.args[0].kind == Value::Kind::Tuple && !c.args[0].is_int_tuple()) {
    Value v = c.args[0];
    for (int i : c.targ_indices()) v = get_value(c, v, i);
    return v;
  }
  return sub_value(c);
}

Value fn_select(const Call& c) {
  c.expect_args(1, 1);
  c.expect_template_args(1, 64);
  const Value& v = c.args[0];
  if (v.kind == Value::Kind::Layout) return Value::of(select(v.layout, c.targ_indices(), c.diag));
  if (v.kind == Value::Kind::Composed) {  // CuTe's generic select: a tuple of the composed modes
    std::vector<Value> out;
    for (int i : c.targ_indices()) out.push_back(get_value(c, v, i));
    return Value::tuple(std::move(out));
  }
  if (v.is_int_tuple()) {
    std::vector<Value> out;
    const IntTuple t = v.as_int_tuple();
    for (int i : c.targ_indices()) out.push_back(Value::of(select_element(t, i, c.diag)));
    return Value::tuple(std::move(out));
  }
  c.fail_arg(0, fmt::format("expected a layout or an int tuple, got {} {}", a_kind_name(v), c.text(v)));
}

Value fn_take(const Call& c) {
  c.expect_args(1, 1);
  c.expect_template_args(2, 2);
  const std::vector<int> range = c.targ_indices();  // checked: a cast alone would wrap take<4294967297,...>
  return on_layout(c, 0, [&](const Layout& l) { return take(l, range[0], range[1]); });
}

Value fn_group(const Call& c) {
  c.expect_args(1, 1);
  c.expect_template_args(2, 2);
  const auto mode = [&](std::int64_t t) {  // checked: a cast alone would wrap
    if (t < 0 || t > 1'000'000) c.fail(fmt::format("template argument {} is not a mode index", t));
    return static_cast<int>(t);
  };
  const int b = mode(c.targ(0));
  const int e = c.targ(1) == -1 ? -1 : mode(c.targ(1));  // group<B,-1>: up to the last mode
  return on_layout(c, 0, [&](const Layout& l) { return group(l, b, e); });
}

// CuTe's generic tuple functions take any value: a swizzle or `_` is no tuple,
// so flatten and shape return it and its depth is _0.
bool is_opaque(const Value& v) { return v.kind == Value::Kind::Swizzle || v.kind == Value::Kind::Underscore; }

Value fn_flatten(const Call& c) {
  c.expect_args(1, 1);
  if (is_opaque(c.args[0])) return c.args[0];
  if (c.args[0].kind == Value::Kind::Tuple && c.args[0].is_int_tuple()) return Value::of(flatten(c.args[0].as_int_tuple()));
  return on_layout(c, 0, [](const Layout& l) { return flatten(l); });
}

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

Value compose_values(const Value& a, const Value& b, const Call* c, Diagnostics& diag);

Value fn_composition(const Call& c) {
  c.expect_args(2, 2);
  return compose_values(c.args[0], c.args[1], &c, c.diag);
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
  if (c.args[0].kind == Value::Kind::Layout) return answer(right_inverse(c.args[0].layout, c.diag.trace()));  // read in place
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
  if (c.args[0].kind == Value::Kind::Layout) return answer(left_inverse(c.args[0].layout, c.diag.trace()));  // read in place
  const AnyLayout a = c.any_layout(0);
  AnyLayout r = std::visit([&](const auto& x) { return AnyLayout{left_inverse(x, c.diag.trace())}; }, a);
  if (std::holds_alternative<ComposedLayout>(a)) check_left_inverse(a, r, c.diag);
  return answer(std::move(r));
}

using TilerOp = Layout (*)(const Layout&, const Tiler&, Diagnostics&);

Builtin tiler_op(TilerOp op) {
  return [op](const Call& c) {
    c.expect_args(2, 2);
    c.expect_template_args(0, 0);
    const Tiler t = c.tiler(1);
    return on_layout(c, 0, [&](const Layout& l) { return op(l, t, c.diag); });
  };
}

Layout zipped(const Layout& l) { return l; }

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
      c.fail_arg(1, e.message(c.diag.notation()));
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
    c.fail_arg(1, e.message(c.diag.notation()));
  }
}

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

using PairOp = Layout (*)(const Layout&, const Layout&, Diagnostics&);

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

Value fn_position_independent(const Call& c) {
  c.expect_args(1, 1);
  if (c.args[0].kind != Value::Kind::Composed)
    c.fail_arg(
        0, fmt::format("expected Sw o smem_ptr[Bb](unset) o L, got a {} {}", kind_name(c.args[0]), c.text(c.args[0])));
  return Value::of(position_independent(c.args[0].composed()));
}

Value fn_size(const Call& c) {
  c.expect_args(1, 1);
  const Value v = sub_value(c);
  return Value::of(product(shape_of(v)));
}

Value fn_cosize(const Call& c) {
  c.expect_args(1, 1);
  const Value v = sub_value(c);
  if (v.is_int_tuple()) c.fail_arg(0, "cosize needs a layout");
  if (v.kind == Value::Kind::Layout && is_coordinate_layout(v.layout)) return Value::of(coordinate_cosize(v.layout));
  return Value::of(cosize(v.as_any_layout()));
}

Value fn_rank(const Call& c) {
  c.expect_args(1, 1);
  return Value::of(static_int(shape_of(sub_value(c)).rank()));
}

Value fn_depth(const Call& c) {
  c.expect_args(1, 1);
  if (is_opaque(c.args[0]) && c.node.template_args().empty()) return Value::of(static_int(0));
  return Value::of(static_int(depth(shape_of(sub_value(c)))));
}

Value fn_shape(const Call& c) {
  c.expect_args(1, 1);
  if (is_opaque(c.args[0]) && c.node.template_args().empty()) return c.args[0];
  return Value::of(shape_of(sub_value(c)));
}

Value fn_stride(const Call& c) {
  c.expect_args(1, 1);
  const Value v = sub_value(c);
  if (v.kind != Value::Kind::Layout)
    c.fail_arg(0, fmt::format("stride needs a layout (CuTe defines no stride for {})", a_kind_name(v)));
  return Value::of(v.layout.stride);
}

Value fn_coshape(const Call& c) {
  c.expect_args(1, 1);
  const Layout l = c.layout(0);
  if (is_coordinate_layout(l)) return Value::of(coordinate_coshape(l));
  return Value::of(coshape(l));
}

// CuTe's append/prepend of two layouts is the layout operation; of anything
// else (an int tuple, a tile, a composed layout, a swizzle) the tuple one: a
// tuple gains x as its last (first) element, any other value becomes (a, x).
Value tuple_extended(const Value& a, const Value& x, bool at_front) {
  std::vector<Value> elems = a.kind == Value::Kind::Tuple ? a.elems : std::vector<Value>{a};
  if (elems.size() + 1 > kMaxValueIntegers) throw Error("append: the tuple would be larger than layoutx builds");
  elems.insert(at_front ? elems.begin() : elems.end(), x);
  return Value::tuple(std::move(elems));
}

Value fn_append(const Call& c) {
  c.expect_args(1, 2);
  if (c.args.size() == 1) {
    c.expect_template_args(1, 1);
    // append<N> allocates N modes: bound it like any other value (and never wrap N through a cast).
    constexpr auto kMaxRank = static_cast<std::int64_t>(kMaxValueIntegers / 2);
    if (c.targ(0) > kMaxRank) c.fail(fmt::format("append<{}>: layoutx builds at most {} modes", c.targ(0), kMaxRank));
    const int n = static_cast<int>(std::max<std::int64_t>(c.targ(0), 0));
    if (c.args[0].kind == Value::Kind::Composed)
      c.fail_arg(0, "CuTe has no append<N> of a composed layout (append<N> takes a layout)");
    const Layout l = c.layout(0);
    // append<N> extends to rank N: N below the rank is CuTe's static_assert(N > tuple_size<T>::value).
    if (n < rank(l))
      c.fail(fmt::format("static_assert(N > tuple_size<T>::value): append<{}> of {}, whose rank is already {}", n,
                         c.text(l), rank(l)));
    return Value::of(append_to_rank(l, n));
  }
  if (c.args[0].kind == Value::Kind::Layout && c.args[1].kind == Value::Kind::Layout)
    return Value::of(append(c.args[0].layout, c.args[1].layout));
  return tuple_extended(c.args[0], c.args[1], false);
}

Value fn_prepend(const Call& c) {
  c.expect_args(2, 2);
  if (c.args[0].kind == Value::Kind::Layout && c.args[1].kind == Value::Kind::Layout)
    return Value::of(prepend(c.args[0].layout, c.args[1].layout));
  return tuple_extended(c.args[0], c.args[1], true);
}

// CuTe's generic zip(t) of a tuple of any values: a tuple of tuples is
// transposed, a tuple whose first element is no tuple is wrapped whole.
Value zip_tuple(const Call& c, const Value& t) {
  if (t.elems.empty()) c.fail("zip of the empty tuple: it has no first element to transpose by");
  const Value& first = t.elems[0];
  if (first.kind != Value::Kind::Tuple) return Value::tuple({t});
  for (const Value& e : t.elems)
    if (e.kind != Value::Kind::Tuple || e.elems.size() != first.elems.size())
      c.fail(fmt::format("Mismatched Ranks in zip: {} and {} of {}", c.text(first), c.text(e), c.text(t)));
  std::vector<Value> out;
  for (std::size_t j = 0; j < first.elems.size(); ++j) {
    std::vector<Value> column;
    for (const Value& e : t.elems) column.push_back(e.elems[j]);
    out.push_back(Value::tuple(std::move(column)));
  }
  return Value::tuple(std::move(out));
}

bool layout_or_int_tuple(const Value& v) { return v.kind == Value::Kind::Layout || v.is_int_tuple(); }

Value fn_zip(const Call& c) {
  c.expect_args(1, 2);
  // CuTe's zip of int tuples is a tuple, not a layout.
  if (std::all_of(c.args.begin(), c.args.end(), [](const Value& v) { return v.is_int_tuple(); }))
    return Value::of(c.args.size() == 2 ? zip(c.int_tuple(0), c.int_tuple(1)) : zip(c.int_tuple(0)));
  // Only zip(Layout) and zip(Layout, Layout) are CuTe's layout zips (and a
  // composed layout's, on its inner layout); anything else is the tuple zip:
  // zip(a, b) = zip((a, b)), and a value that is no tuple is its own zip.
  if (c.args.size() == 2 && !(layout_or_int_tuple(c.args[0]) && layout_or_int_tuple(c.args[1])))
    return zip_tuple(c, Value::tuple(c.args));
  if (c.args.size() == 1 && c.args[0].kind == Value::Kind::Tuple) return zip_tuple(c, c.args[0]);
  if (c.args.size() == 1 && !c.args[0].is_layout_like()) return c.args[0];
  if (c.args.size() == 2) return Value::of(zip(c.layout(0), c.layout(1)));
  return on_layout(c, 0, [](const Layout& l) { return zip(l); });
}

// --- CuTe's int_tuple.hpp relations and products ---

// The shape where a relation of profiles takes a layout (CuTe's shape(a)).
IntTuple profile_of(const Call& c, std::size_t i) {
  if (c.args.at(i).kind == Value::Kind::Layout) return c.args[i].layout.shape;
  if (c.args[i].kind == Value::Kind::Composed) return c.args[i].composed().layout.shape;
  return c.int_tuple(i);
}

Value truth(bool b) { return Value::of(static_int(b ? 1 : 0)); }

Value fn_congruent(const Call& c) {
  c.expect_args(2, 2);
  return truth(congruent(profile_of(c, 0), profile_of(c, 1)));
}

Value fn_weakly_congruent(const Call& c) {
  c.expect_args(2, 2);
  return truth(weakly_congruent(profile_of(c, 0), profile_of(c, 1)));
}

Value fn_compatible(const Call& c) {
  c.expect_args(2, 2);
  return Value::of(compatible(profile_of(c, 0), profile_of(c, 1)));
}

Value fn_evenly_divides(const Call& c) {
  c.expect_args(2, 2);
  return Value::of(evenly_divides(profile_of(c, 0), c.int_tuple(1)));
}

Value fn_inner_product(const Call& c) {
  c.expect_args(2, 2);
  return Value::of(inner_product(c.int_tuple(0), c.int_tuple(1)));
}

Value fn_elem_scale(const Call& c) {
  c.expect_args(2, 2);
  return Value::of(elem_scale(c.int_tuple(0), c.int_tuple(1)));
}

// --- CuTe's tuple algorithms: a layout is no tuple to them ---

Value fn_front(const Call& c) {
  c.expect_args(1, 1);
  Value v = c.args[0];
  while (v.kind == Value::Kind::Tuple) {
    if (v.elems.empty()) c.fail_arg(0, "front of the empty tuple: it has no element 0");
    Value first = v.elems.front();
    v = std::move(first);
  }
  return v;
}

Value fn_back(const Call& c) {
  c.expect_args(1, 1);
  Value v = c.args[0];
  while (v.kind == Value::Kind::Tuple) {
    if (v.elems.empty()) c.fail_arg(0, "back of the empty tuple: it has no last element");
    Value last = v.elems.back();
    v = std::move(last);
  }
  return v;
}

Value fn_reverse(const Call& c) {
  c.expect_args(1, 1);
  Value v = c.args[0];
  std::reverse(v.elems.begin(), v.elems.end());
  return v;
}

// N of remove<N> / replace<N>, refused where no tuple has that element.
int element_index(const Call& c, const char* what) {
  const std::int64_t n = c.targ(0);
  if (n < 0 || n > std::numeric_limits<int>::max())
    c.fail(fmt::format("Index out of range: {}<{}> of {}", what, n, c.text(c.args[0])));
  return static_cast<int>(n);
}

// The tuple a remove<N> / replace<N> works on. N may be its rank: CuTe's
// construct then keeps every element (remove) or appends x (replace); past
// that it reads an element the tuple does not have.
const Value& tuple_arg(const Call& c, int n, const char* what) {
  const Value& t = c.args[0];
  if (t.kind != Value::Kind::Tuple)
    c.fail_arg(0, fmt::format("{}<{}> takes a tuple; {} is {}", what, n, c.text(t), a_kind_name(t)));
  if (n < 0 || n > static_cast<int>(t.elems.size()))
    c.fail(fmt::format("Index out of range: {}<{}> of {} (rank {})", what, n, c.text(t), t.elems.size()));
  return t;
}

Value fn_remove(const Call& c) {
  c.expect_args(1, 1);
  c.expect_template_args(1, 1);
  const int n = element_index(c, "remove");
  Value t = tuple_arg(c, n, "remove");
  if (n < static_cast<int>(t.elems.size())) t.elems.erase(t.elems.begin() + n);
  return t;
}

// CuTe's replace<N>(t, x) on int tuples: element N of a tuple (appended when N
// is its rank); an integer is replaced whole (N must be 0).
IntTuple replaced(const Call& c, const IntTuple& t, int n, const IntTuple& x) {
  if (t.is_leaf()) {
    if (n != 0) c.fail(fmt::format("static_assert(N == 0): replace<{}> of {}, which is no tuple", n, c.text(t)));
    return x;
  }
  if (n < 0 || n > t.rank()) c.fail(fmt::format("Index out of range: replace<{}> of {} (rank {})", n, c.text(t), t.rank()));
  std::vector<IntTuple> elems = t.elems();
  if (n == t.rank())
    elems.push_back(x);
  else
    elems[n] = x;
  return IntTuple(std::move(elems));
}

// replace<N>(layout, layout) replaces a mode of the shape and of the stride; a
// value that is no tuple is replaced whole (N must be 0), as CuTe's generic replace does.
Value fn_replace(const Call& c) {
  c.expect_args(2, 2);
  c.expect_template_args(1, 1);
  const int n = element_index(c, "replace");
  const Value& x = c.args[1];
  if (c.args[0].kind == Value::Kind::Layout && x.kind == Value::Kind::Layout) {
    const Layout& l = c.args[0].layout;
    return Value::of(Layout{replaced(c, l.shape, n, x.layout.shape), replaced(c, l.stride, n, x.layout.stride)});
  }
  if (c.args[0].kind != Value::Kind::Tuple) {
    if (n != 0) c.fail(fmt::format("static_assert(N == 0): replace<{}> of {}, which is no tuple", n, c.text(c.args[0])));
    return x;
  }
  Value t = tuple_arg(c, n, "replace");
  if (n == static_cast<int>(t.elems.size()))
    t.elems.push_back(x);
  else
    t.elems[n] = x;
  return t;
}

// unflatten(flat, profile): consumes the flat tuple's elements in order, one
// for each integer of the profile; returns the result and what is left.
std::pair<Value, Value> unflatten_from(const Call& c, const Value& flat, const IntTuple& profile) {
  if (profile.is_tuple()) {
    std::vector<Value> result;
    Value rest = flat;
    for (const auto& p : profile.elems()) {
      auto [sub, left] = unflatten_from(c, rest, p);
      result.push_back(std::move(sub));
      rest = std::move(left);
    }
    return {Value::tuple(std::move(result)), rest};
  }
  if (flat.kind != Value::Kind::Tuple) {
    // CuTe's leaf case asks rank(flat) by argument-dependent lookup, which a run-time int has none of.
    if (flat.kind == Value::Kind::Integer && !flat.integer.is_static)
      c.fail(fmt::format("unflatten of the dynamic integer {}: CuTe's unflatten finds no rank() for a run-time int "
                         "and compiles only with a static one",
                         c.text(flat)));
    return {flat, Value::tuple({})};
  }
  if (flat.elems.empty())
    c.fail(fmt::format("the flat tuple has fewer elements than the profile {} has integers",
                       c.text(c.args[1])));
  return {flat.elems.front(), Value::tuple(std::vector<Value>(flat.elems.begin() + 1, flat.elems.end()))};
}

Value unflatten_value(const Call& c, const Value& flat, const IntTuple& profile) {
  auto [result, rest] = unflatten_from(c, flat, profile);
  if (rest.kind != Value::Kind::Tuple || !rest.elems.empty())
    c.fail(fmt::format("static_assert(rank(flat_remainder) == 0): unflatten({}, {}) leaves {} unused", c.text(flat),
                       c.text(c.args[1]), c.text(rest)));
  return result;
}

Value fn_unflatten(const Call& c) {
  c.expect_args(2, 2);
  const IntTuple profile = c.int_tuple(1);
  if (c.args[0].kind == Value::Kind::Layout) {
    const Layout& l = c.args[0].layout;
    const Value shape = unflatten_value(c, Value::of(l.shape), profile);
    const Value stride = unflatten_value(c, Value::of(l.stride), profile);
    return Value::of(Layout{shape.as_int_tuple(), stride.as_int_tuple()});
  }
  return unflatten_value(c, c.args[0], profile);
}

// --- layouts ---

// L.with_shape(s...): composition(L, make_layout(s)); several shapes make one.
Value fn_with_shape(const Call& c) {
  c.expect_args(2, 64);
  IntTuple shape = c.int_tuple(1);
  if (c.args.size() > 2) {
    std::vector<IntTuple> modes;
    for (std::size_t i = 1; i < c.args.size(); ++i) modes.push_back(c.int_tuple(i));
    shape = IntTuple(std::move(modes));
  }
  return compose_values(c.args[0], Value::of(make_layout(shape)), &c, c.diag);
}

// slice_and_offset(c, L): the slice L(c) and the offset where it starts, crd2idx(c, L) (`_` counts as 0).
Value fn_slice_and_offset(const Call& c) {
  c.expect_args(2, 2);
  const AnyLayout any = c.any_layout(1);
  const Value& coord = c.args[0];
  if (const auto* composed = std::get_if<ComposedLayout>(&any)) try {
      const SlicedLayout s = slice_and_offset(coord, *composed, c.diag);
      return Value::tuple({Value::of(s.layout), Value::of(s.offset)});
    } catch (const SourceError&) {
      throw;
    } catch (const Error& e) {
      c.fail(e.message(c.diag.notation()));
    }
  const Layout& l = std::get<Layout>(any);
  try {
    const Layout sliced{slice(coord, l.shape, c.diag.notation()), slice(coord, l.stride, c.diag.notation())};
    return Value::tuple({Value::of(sliced), Value::of(offset_at(l, underscores_as_zero(coord)))});
  } catch (const SourceError&) {
    throw;
  } catch (const Error& e) {
    c.fail(e.message(c.diag.notation()));
  }
}

// domain_offset(c, L): the layout unchanged and the offset L(c).
Value fn_domain_offset(const Call& c) {
  c.expect_args(2, 2);
  const Layout l = c.layout(1);
  const IntTuple coord = c.int_tuple(0);
  try {
    return Value::tuple({Value::of(l), Value::of(offset_at(l, coord))});
  } catch (const SourceError&) {
    throw;
  } catch (const Error& e) {
    c.fail(e.message(c.diag.notation()));
  }
}

Value fn_crd2idx(const Call& c) {
  c.expect_args(2, 3);
  if (c.args.size() == 2) return Value::of(crd2idx(c.int_tuple(0), c.int_tuple(1)));
  const IntTuple stride = c.int_tuple(2);
  if (has_basis(stride)) return Value::of(evaluate_coordinate(Layout{c.int_tuple(1), stride}, c.int_tuple(0)));
  return Value::of(crd2idx(c.int_tuple(0), c.int_tuple(1), stride));
}

Value fn_idx2crd(const Call& c) {
  c.expect_args(2, 2);
  const IntTuple index = c.int_tuple(0), shape = c.int_tuple(1);
  IntTuple crd = idx2crd(index, shape);
  if (!coordinate_in_domain(index, shape))
    c.diag.warn(
        "Index out of range",
        fmt::format("idx2crd: index {} is outside the domain of shape {}; split as CuTe does, by extending the last mode",
                    c.text(index), c.text(shape)));
  return Value::of(std::move(crd));
}

Value fn_ceil_div(const Call& c) {
  c.expect_args(2, 2);
  return Value::of(ceil_div(c.int_tuple(0), c.int_tuple(1)));
}

Value fn_shape_div(const Call& c) {
  c.expect_args(2, 2);
  return Value::of(shape_div(c.int_tuple(0), c.int_tuple(1), c.diag));
}

Value fn_product(const Call& c) {
  c.expect_args(1, 1);
  return Value::of(product(c.int_tuple(0)));
}

Value fn_make_layout_like(const Call& c) {
  c.expect_args(1, 1);
  return Value::of(make_layout_like(c.layout(0)));
}

Value fn_make_fragment_like(const Call& c) {
  c.expect_args(1, 1);
  if (c.args[0].kind == Value::Kind::Composed) return Value::of(make_fragment_like(c.args[0].composed().layout, c.diag));
  return Value::of(make_fragment_like(c.layout(0), c.diag));
}

Value fn_filter_zeros(const Call& c) {
  c.expect_args(1, 2);
  if (c.args.size() == 1) {
    // CuTe's filter_zeros(t) of anything but a layout is the int-tuple function
    // filter_zeros(t, t): a tuple's static zeros become 1, any other value (a
    // composed layout, a swizzle) comes back unchanged.
    const Value& v = c.args[0];
    if (v.kind == Value::Kind::Composed || v.kind == Value::Kind::Swizzle) return v;
    if (v.is_int_tuple()) return Value::of(filter_zeros(v.as_int_tuple(), v.as_int_tuple()));
  }
  const Layout l = c.layout(0);
  const IntTuple profile = c.args.size() == 2 ? c.int_tuple(1) : l.stride;
  return Value::of(Layout{filter_zeros(profile, l.shape), l.stride});
}

Value fn_max_alignment(const Call& c) {
  c.expect_args(1, 1);
  if (c.args[0].kind == Value::Kind::Swizzle) return Value::of(static_int(std::int64_t{1} << c.args[0].swizzle.base));
  if (c.args[0].kind == Value::Kind::Composed) {
    const ComposedLayout& cl = c.args[0].composed();
    require_single_swizzle(cl, "max_alignment");
    if (!cl.offset.is_static)
      c.fail_arg(0, fmt::format("max_alignment of a composed layout needs static integers: CuTe has no max_alignment "
                                "of the dynamic offset {}",
                                cl.offset.value));
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

Value fn_domain_distribute(const Call& c) {
  c.expect_args(2, 2);
  return Value::of(domain_distribute(c.int_tuple(0), c.integer(1)));
}

Value fn_product_each(const Call& c) {
  c.expect_args(1, 1);
  return Value::of(product_each(c.int_tuple(0)));
}

Value fn_make_swizzle(const Call& c) {
  c.expect_args(0, 0);
  c.expect_template_args(2, 2);
  return Value::of(make_swizzle(c.targ(0), c.targ(1)));
}

// make_composed_layout(Sw, offset, L): the object CuTe prints as "Sw o offset o L"
// (no identity shortcut); an inner composed layout nests as a further stage.
Value fn_make_composed_layout(const Call& c) {
  c.expect_args(3, 3);
  c.expect_template_args(0, 0);
  if (c.args[0].kind != Value::Kind::Swizzle)
    c.fail_arg(0, "make_composed_layout takes a swizzle as its outer function, not " + a_kind_name(c.args[0]));
  if (c.args[1].kind == Value::Kind::PointerFlag) {  // smem_ptr_flag_bits<B>{}: a canonical atom's offset
    const AnyLayout inner = c.any_layout(2);
    if (!std::holds_alternative<Layout>(inner))
      c.fail_arg(2, "a pointer flag's composed layout takes a plain layout inside");
    return Value::of(with_pointer_flag(c.args[0].swizzle, c.args[1].pointer_flag, std::get<Layout>(inner)));
  }
  const Int offset = c.integer(1);
  const AnyLayout inner = c.any_layout(2);
  if (const auto* plain = std::get_if<Layout>(&inner))
    return Value::of(ComposedLayout{c.args[0].swizzle, offset, *plain, {}});
  const auto& composed = std::get<ComposedLayout>(inner);
  ComposedLayout built{c.args[0].swizzle, offset, composed.layout, {SwizzleStage{composed.swizzle, composed.offset}}};
  built.nested.insert(built.nested.end(), composed.nested.begin(), composed.nested.end());
  return Value::of(built);
}

Value fn_make_identity_layout(const Call& c) {
  c.expect_args(1, 1);
  c.expect_template_args(0, 0);
  return Value::of(make_identity_layout(c.int_tuple(0)));
}

Value fn_make_basis_like(const Call& c) {
  c.expect_args(1, 1);
  c.expect_template_args(0, 0);
  const IntTuple shape = c.int_tuple(0);
  if (has_basis(shape)) c.fail_arg(0, fmt::format("make_basis_like takes a shape; {} holds a scaled basis", c.text(shape)));
  return Value::of(make_basis_like(shape));
}

bool all_static_ones(const IntTuple& shape) {
  if (shape.is_leaf()) return shape.value().is_constant(1);
  return std::all_of(shape.elems().begin(), shape.elems().end(), all_static_ones);
}

bool holds_coordinate_layout(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Layout:
      return is_coordinate_layout(v.layout);
    case Value::Kind::Composed:
      return is_coordinate_layout(v.composed().layout);
    case Value::Kind::Integer:
      return v.integer.is_scaled_basis();
    case Value::Kind::Tuple:
      return std::any_of(v.elems.begin(), v.elems.end(), holds_coordinate_layout);
    default:
      return false;
  }
}

// A coordinate layout with its scaled-basis strides replaced by placeholder
// integers, which no layout of these sizes has as a stride.
struct Placeholders {
  Layout stand_in;
  std::vector<Int> originals;  // the replaced strides; placeholder k stands for originals[k - 1]
};

constexpr std::int64_t kPlaceholderBase = std::int64_t{1} << 40;

// Empty unless every scaled-basis stride sits in a mode of static size 1.
std::optional<Placeholders> with_placeholders(const Layout& l) {
  Placeholders p;
  bool unit_modes_only = true;
  const IntTuple stride = transform_leaf(l.shape, l.stride, [&](Int s, Int d) {
    if (!d.is_scaled_basis()) return d;
    unit_modes_only = unit_modes_only && s.is_constant(1);
    p.originals.push_back(d);
    return Int{kPlaceholderBase + static_cast<std::int64_t>(p.originals.size()), d.is_static};
  });
  if (!unit_modes_only) return std::nullopt;
  p.stand_in = Layout{l.shape, stride};
  return p;
}

IntTuple restored(const IntTuple& stride, const std::vector<Int>& originals) {
  return transform_leaf(stride, [&](Int d) {
    const std::int64_t k = d.value - kPlaceholderBase;
    if (d.is_scaled_basis() || k < 1 || k > static_cast<std::int64_t>(originals.size())) return d;
    return originals[k - 1];
  });
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
Function integer_strides(Function f, std::size_t first = 0, bool unit_ok = false, bool block_ok = false) {
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

const std::map<std::string, Function>& table() {
  static const std::map<std::string, Function> t = {
      {"append", fn_append},
      {"as_position_independent_swizzle_layout", fn_position_independent},
      {"back", fn_back},
      {"compatible", fn_compatible},
      {"congruent", fn_congruent},
      {"domain_offset", fn_domain_offset},
      {"elem_scale", fn_elem_scale},
      {"evenly_divides", fn_evenly_divides},
      {"front", fn_front},
      {"inner_partition", tensor_partition(fn_inner_partition)},
      {"inner_product", fn_inner_product},
      {"local_partition", tensor_partition(fn_local_partition)},
      {"local_tile", tensor_partition(fn_local_tile)},
      {"outer_partition", tensor_partition(fn_outer_partition)},
      {"remove", fn_remove},
      {"replace", fn_replace},
      {"reverse", fn_reverse},
      {"slice_and_offset", fn_slice_and_offset},
      {"unflatten", fn_unflatten},
      {"weakly_congruent", fn_weakly_congruent},
      {"with_shape", fn_with_shape},
      {"blocked_product", product_strides(Function{pair_op(&blocked_product), Property::BlockProduct})},
      {"ceil_div", fn_ceil_div},
      {"coalesce", {fn_coalesce, Property::SameFunction}},
      {"complement", integer_strides(Function{fn_complement, Property::Complement})},
      {"composition", {fn_composition, Property::Composition}},
      {"coshape", fn_coshape},
      {"cosize", fn_cosize},
      {"crd2idx", fn_crd2idx},
      {"depth", fn_depth},
      {"downcast", integer_strides(fn_downcast)},
      {"filter", fn_filter},
      {"flat_divide", integer_strides(Function{tiler_op(&flat_divide), Property::Divide}, 1)},
      {"flat_product", product_strides(Function{product_op(&flat_product, &unpack_both), Property::Product})},
      {"flatten", {fn_flatten, Property::SameFunction}},
      {"get", fn_get},
      {"group", fn_group},
      {"idx2crd", fn_idx2crd},
      {"layout", fn_get},
      {"left_inverse", integer_strides(Function{fn_left_inverse, Property::LeftInverse}, 0, true)},
      {"logical_divide", integer_strides(Function{tiler_op(&logical_divide), Property::Divide}, 1)},
      {"logical_product", product_strides(Function{fn_logical_product, Property::LogicalProduct})},
      {"make_composed_layout", fn_make_composed_layout},
      {"make_coord", fn_make_tuple},
      {"make_layout", fn_make_layout},
      {"make_layout_like", fn_make_layout_like},
      {"make_fragment_like", fragment_form(fn_make_fragment_like)},
      {"make_identity_tensor", fn_make_identity_tensor},
      {"make_coord_tensor", fn_make_coord_tensor},
      {"make_tensor", fn_make_tensor},
      {"make_tensor_like", fn_make_tensor_like},
      {"make_gmem_ptr", fn_make_gmem_ptr},
      {"make_smem_ptr", fn_make_smem_ptr},
      {"make_identity_layout", fn_make_identity_layout},
      {"make_basis_like", fn_make_basis_like},
      {"filter_zeros", fn_filter_zeros},
      {"max_alignment", integer_strides(fn_max_alignment)},
      {"domain_distribute", fn_domain_distribute},
      {"product_each", fn_product_each},
      {"make_ordered_layout", fn_make_ordered_layout},
      {"make_shape", fn_make_tuple},
      {"make_step", fn_make_tuple},
      {"make_stride", fn_make_tuple},
      {"make_swizzle", fn_make_swizzle},
      {"make_tile", fn_make_tuple},
      {"make_tuple", fn_make_tuple},
      {"max_common_layout", integer_strides(fn_max_common_layout)},
      {"max_common_vector", integer_strides(fn_max_common_vector)},
      {"nullspace", integer_strides(fn_nullspace)},
      {"prepend", fn_prepend},
      {"product", fn_product},
      {"raked_product", product_strides(Function{pair_op(&raked_product), Property::BlockProduct})},
      {"rank", fn_rank},
      {"recast", integer_strides(fn_recast)},
      {"recast_layout", integer_strides(fn_recast)},
      {"right_inverse", integer_strides(Function{fn_right_inverse, Property::RightInverse}, 0, true)},
      {"select", fn_select},
      {"shape", fn_shape},
      {"shape_div", fn_shape_div},
      {"size", fn_size},
      {"stride", fn_stride},
      {"take", fn_take},
      {"tile_to_shape", integer_strides(fn_tile_to_shape)},
      {"tiled_divide", integer_strides(Function{tiler_op(&tiled_divide), Property::Divide}, 1)},
      {"tiled_product", product_strides(Function{product_op(&tiled_product, &unpack_rest), Property::Product})},
      {"upcast", integer_strides(fn_upcast)},
      {"zip", fn_zip},
      {"zipped_divide", integer_strides(Function{tiler_op(&zipped_divide), Property::Divide}, 1)},
      {"zipped_product", product_strides(Function{product_op(&zipped_product, &zipped), Property::Product})},
  };
  return t;
}

const Layout* plain_layout(const Layout& a) { return &a; }
const Layout* plain_layout(const AnyLayout& a) { return std::get_if<Layout>(&a); }

// A o B where B is a layout, a shape or a tile; a layout B is checked against
// A(B(i)). A is a Layout or an AnyLayout, and B's layout is read in place: for
// small operands a copy costs as much as the composition.
template <class A>
Value checked_composition(const A& a, const Value& b, Diagnostics& diag) {
  const Layout* la = plain_layout(a);
  const bool coordinates_right = b.kind == Value::Kind::Layout && is_coordinate_layout(b.layout);
  if (coordinates_right && !(la && !is_coordinate_layout(*la)))
    throw Error(fmt::format("composition of {} with the coordinate layout {}: CuTe composes a coordinate layout on "
                            "the right only with a plain layout on the left",
                            to_text(Value::of(a), diag.notation()), to_text(b.layout, diag.notation())));
  AnyLayout r = b.kind == Value::Kind::Layout ? AnyLayout{composition(a, b.layout, diag)}
                                              : AnyLayout{composition(a, to_tiler(b, diag.notation()), diag)};
  // A coordinate layout maps to coordinates, not offsets: no point-by-point check of offsets.
  if (b.kind == Value::Kind::Layout && !coordinates_right && !(la && is_coordinate_layout(*la)))
    check_composition(a, b.layout, r, diag);
  return answer(std::move(r));
}

// composition(A, B) for every pair of kinds CuTe composes.
Value compose_values(const Value& a, const Value& b, const Call* c, Diagnostics& diag) {
  const Notation n = diag.notation();
  auto fail = [&](const std::string& m) -> Value {
    if (c) c->fail(m);
    throw Error(m);
  };
  if (a.kind == Value::Kind::Swizzle) {
    if (b.kind == Value::Kind::Swizzle) return Value::of(composition(a.swizzle, b.swizzle));
    if (b.kind == Value::Kind::Layout) return Value::of(composition(a.swizzle, b.layout));  // read in place
    if (b.is_int_tuple()) return Value::of(composition(a.swizzle, *b.as_plain_layout()));
    return fail(fmt::format("cannot compose a swizzle with {} {}", a_kind_name(b), to_text(b, n)));
  }
  if (a.kind == Value::Kind::Composed) {
    if (b.kind == Value::Kind::Composed) return Value::of(composition(a.composed(), b.composed(), diag));
    if (b.kind == Value::Kind::Swizzle)
      return fail(fmt::format("cannot compose {} with the bare swizzle {}", to_text(a, n), to_text(b, n)));
    return checked_composition(AnyLayout{a.composed()}, b, diag);
  }
  if (a.kind != Value::Kind::Layout && !a.is_int_tuple())
    return fail(fmt::format("cannot compose {} {} (expected a layout on the left)", a_kind_name(a), to_text(a, n)));
  std::optional<Layout> of_shape;
  const Layout& la = a.kind == Value::Kind::Layout ? a.layout : of_shape.emplace(*a.as_plain_layout());
  if (b.kind == Value::Kind::Swizzle) return Value::of(composition(la, b.swizzle));
  if (b.kind == Value::Kind::Composed) return Value::of(composition(la, b.composed(), diag));
  if (b.kind == Value::Kind::LayoutLeft || b.kind == Value::Kind::LayoutRight)
    return fail(fmt::format("cannot compose with {}", to_text(b, n)));
  return checked_composition(la, b, diag);
}

}  // namespace

// Looked up by hash: every call of every expression looks its name up.
const Function* find_builtin(std::string_view name) {
  static const std::unordered_map<std::string_view, const Function*> index = [] {
    std::unordered_map<std::string_view, const Function*> by_name;
    for (const auto& [fn_name, fn] : table()) by_name.emplace(fn_name, &fn);
    return by_name;
  }();
  const auto it = index.find(name);
  return it == index.end() ? nullptr : it->second;
}

Value compose(const Value& a, const Value& b, Diagnostics& diag) { return compose_values(a, b, nullptr, diag); }

}  // namespace layoutx::lang

namespace layoutx {

const std::vector<std::string>& function_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [name, fn] : lang::table()) out.push_back(name);
    return out;
  }();
  return names;
}

std::vector<std::string> function_names(const LanguageExtension* extension) {
  std::vector<std::string> out = function_names();
  if (extension)
    for (const auto& [name, fn] : extension->functions) out.push_back(name);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace layoutx
