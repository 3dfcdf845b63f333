#include "layoutx/value_composition.hpp"

#include <fmt/format.h>

#include <optional>

#include "layoutx/algebra.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/postconditions.hpp"

namespace layoutx {

namespace {

// A function's answer as a value, moved in (Value::of copies it).
Value answer(AnyLayout&& l) {
  if (auto* plain = std::get_if<Layout>(&l)) {
    Value v;
    v.kind = Value::Kind::Layout;
    v.layout = std::move(*plain);
    return v;
  }
  return Value::of(std::move(std::get<ComposedLayout>(l)));
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
    throw Error(
        fmt::format("composition of {} with the coordinate layout {}: CuTe composes a coordinate layout on "
                    "the right only with a plain layout on the left",
                    to_text(Value::of(a), diag.notation()), to_text(b.layout, diag.notation())));
  AnyLayout r = b.kind == Value::Kind::Layout ? AnyLayout{composition(a, b.layout, diag)}
                                              : AnyLayout{composition(a, to_tiler(b, diag.notation()), diag)};
  // A coordinate layout maps to coordinates, not offsets: no point-by-point check of offsets.
  if (b.kind == Value::Kind::Layout && !coordinates_right && !(la && is_coordinate_layout(*la)))
    check_composition(a, b.layout, r, diag);
  return answer(std::move(r));
}

}  // namespace

Value compose_values(const Value& a, const Value& b, Diagnostics& diag) {
  const Notation n = diag.notation();
  if (a.kind == Value::Kind::Swizzle) {
    if (b.kind == Value::Kind::Swizzle) return Value::of(composition(a.swizzle, b.swizzle));
    if (b.kind == Value::Kind::Layout) return Value::of(composition(a.swizzle, b.layout));  // read in place
    if (b.is_int_tuple()) return Value::of(composition(a.swizzle, *b.as_plain_layout()));
    throw Error(fmt::format("cannot compose a swizzle with {} {}", a_kind_name(b), to_text(b, n)));
  }
  if (a.kind == Value::Kind::Composed) {
    if (b.kind == Value::Kind::Composed) return Value::of(composition(a.composed(), b.composed(), diag));
    if (b.kind == Value::Kind::Swizzle)
      throw Error(fmt::format("cannot compose {} with the bare swizzle {}", to_text(a, n), to_text(b, n)));
    return checked_composition(AnyLayout{a.composed()}, b, diag);
  }
  if (a.kind != Value::Kind::Layout && !a.is_int_tuple())
    throw Error(fmt::format("cannot compose {} {} (expected a layout on the left)", a_kind_name(a), to_text(a, n)));
  std::optional<Layout> of_shape;
  const Layout& la = a.kind == Value::Kind::Layout ? a.layout : of_shape.emplace(*a.as_plain_layout());
  if (b.kind == Value::Kind::Swizzle) return Value::of(composition(la, b.swizzle));
  if (b.kind == Value::Kind::Composed) return Value::of(composition(la, b.composed(), diag));
  if (b.kind == Value::Kind::LayoutLeft || b.kind == Value::Kind::LayoutRight)
    throw Error(fmt::format("cannot compose with {}", to_text(b, n)));
  return checked_composition(la, b, diag);
}

}  // namespace layoutx
