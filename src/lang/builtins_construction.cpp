// The language's functions that build values: layouts (make_layout,
// make_ordered_layout, make_identity_layout, ...), tuples (make_shape,
// make_coord, ...), swizzles and composed layouts, by CuTe's names.
#include <fmt/format.h>
#include <cstdlib>
#include <vector>

#include "builtins.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/notation.hpp"

namespace layoutx::lang::construction {

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
      c.fail_arg(1, e);
    }
  }
  std::vector<Layout> modes;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].kind != Value::Kind::Layout)
      c.fail_arg(
          i, fmt::format("make_layout(L0, L1, ...) concatenates layouts; got {} {}", a_kind_name(a[i]), c.text(a[i])));
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

Value fn_position_independent(const Call& c) {
  c.expect_args(1, 1);
  if (c.args[0].kind != Value::Kind::Composed)
    c.fail_arg(
        0, fmt::format("expected Sw o smem_ptr[Bb](unset) o L, got a {} {}", kind_name(c.args[0]), c.text(c.args[0])));
  return Value::of(position_independent(c.args[0].composed()));
}

Value fn_make_layout_like(const Call& c) {
  c.expect_args(1, 1);
  return Value::of(make_layout_like(c.layout(0)));
}

Value fn_make_fragment_like(const Call& c) {
  c.expect_args(1, 1);
  if (c.args[0].kind == Value::Kind::Composed)
    return Value::of(make_fragment_like(c.args[0].composed().layout, c.diag));
  return Value::of(make_fragment_like(c.layout(0), c.diag));
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
  if (has_basis(shape))
    c.fail_arg(0, fmt::format("make_basis_like takes a shape; {} holds a scaled basis", c.text(shape)));
  return Value::of(make_basis_like(shape));
}

}  // namespace layoutx::lang::construction
