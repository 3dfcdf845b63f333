// The divides: R(i) == A(D(i)), D the same divide of A's identity layout.
#include "findings.hpp"
#include "layoutx/notation.hpp"

namespace layoutx::verify {

namespace {

IntTuple widen_last(const IntTuple& t, Int k) {
  if (t.is_leaf()) return IntTuple(t.value() * k);
  if (t.rank() == 0) return t;
  std::vector<IntTuple> e = t.elems();
  e.back() = widen_last(e.back(), k);
  return IntTuple(std::move(e));
}

// A tile divides A mode by mode, and a tile mode may reach past its mode of
// A, which then extends. So the identity gives each mode a field wide enough
// for that reach (no carry into the next mode), and A is widened to match:
// the last leaf of each mode extends over the field.
struct Fields {
  Layout identity;
  AnyLayout base;
};

std::optional<Fields> fields_by_mode(const AnyLayout& a, const Value& tile, Diagnostics& diag) {
  const Layout& inner = inner_layout(a);
  std::vector<Layout> modes;
  if (inner.shape.is_leaf())
    modes.push_back(inner);
  else
    for (int m = 0; m < inner.shape.rank(); ++m) modes.push_back(get(inner, m));
  if (tile.elems.size() > modes.size()) return std::nullopt;
  std::vector<IntTuple> strides, wide_shapes, wide_strides;
  Int field = static_int(1);
  for (std::size_t m = 0; m < modes.size(); ++m) {
    const Int s = size(modes[m]);
    if (s.value <= 0) return std::nullopt;
    Int width = s;
    if (m < tile.elems.size() && tile.elems[m].kind != Value::Kind::Underscore) {
      const auto t = as_tiler(tile.elems[m]);
      if (!t) return std::nullopt;
      width = max(s, cosize(logical_divide(identity_layout(modes[m].shape), *t, diag)));
    }
    strides.push_back(identity_layout(modes[m].shape, field).stride);
    wide_shapes.push_back(widen_last(modes[m].shape, ceil_div(width, s)));
    wide_strides.push_back(modes[m].stride);
    field = field * s * ceil_div(width, s);
  }
  Fields f;
  if (inner.shape.is_leaf()) {
    f.identity = Layout{inner.shape, strides[0]};
    f.base = Layout{wide_shapes[0], wide_strides[0]};
  } else {
    f.identity = Layout{inner.shape, IntTuple(strides)};
    f.base = Layout{IntTuple(wide_shapes), IntTuple(wide_strides)};
  }
  if (const auto* c = std::get_if<ComposedLayout>(&a))
    f.base = on_inner(*c, [&](const Layout&) { return std::get<Layout>(f.base); });
  return f;
}

// The same call with operand 0 replaced, as a function of the index.
std::optional<AnyLayout> again_on(const OuterCall& call, const Layout& first, Diagnostics& diag) {
  std::vector<Value> operands = call.operands;
  operands[0] = Value::of(first);
  return as_function(call.again(std::move(operands), diag));
}

}  // namespace

void check_divide(Findings& f, const AnyLayout& result, const OuterCall& call) {
  const Value& av = call.operands[0];
  const Value& t = call.operands[1];
  const auto a = av.kind == Value::Kind::Swizzle ? std::nullopt : as_function(av);
  if (!a) return f.skipped(call.name + ": property not checked");
  const Layout identity = identity_layout(inner_layout(*a).shape);
  const auto compact = again_on(call, identity, f.diag());
  if (!compact) return f.skipped(call.name + ": property not checked");
  std::optional<AnyLayout> base = *a, d = compact;
  if (t.kind == Value::Kind::Tuple) {
    std::optional<Fields> fields;
    try {
      fields = fields_by_mode(*a, t, f.diag());
    } catch (const Error&) {
      fields.reset();  // fields too wide for 64 bits
    }
    if (!fields) return f.skipped(call.name + ": the tile's reach is too wide to check");
    base = fields->base;
    d = again_on(call, fields->identity, f.diag());
    if (!d) return f.skipped(call.name + ": property not checked");
  }
  size_must_match(f, result, size(*d), "size(D)");
  // With a tile that reaches past a mode of A, D re-indexes A's modes widened
  // to that reach, so it is not the divide of A's own identity: each is named.
  const bool widened = f.text(*d) != f.text(*compact);
  const std::string what =
      widened ? fmt::format("{}: R(i) == A'(D(i)), D = {}, A' = {} (A's modes extended to the tile's reach)", call.name,
                            f.text(*d), f.text(*base))
              : fmt::format("{}: R(i) == A(D(i)), D = {}", call.name, f.text(*d));
  f.verdict(what, device::check_composition(f.device_options(), result, *base, *d),
            [](const device::Mismatch& m) { return show_pair("R(i)", "A(D(i))", m); });
  // Where the tiler does not partition A (it reaches past A, or overlaps),
  // the result is still CuTe's: it extends A. Worth a note, not an error.
  const std::int64_t n = size(*a).value;
  const device::Bijection b = device::check_bijection(f.device_options(), *compact, n);
  const std::string onto = widened
                               ? fmt::format("the tiler partitions A: D0 = {} ({} of A's identity) re-indexes 0..{}",
                                             f.text(*compact), call.name, n - 1)
                               : fmt::format("the tiler partitions A: {} re-indexes 0..{}", f.text(*compact), n - 1);
  const char* d_name = widened ? "D0" : "D";
  f.verdict(
      onto + " (none outside)", b.outside,
      [&](const device::Mismatch& m) { return fmt::format("{}({}) = {}", d_name, m.index, m.actual); },
      Findings::Weight::Note);
  f.verdict(
      onto + " (none left out)", b.missing,
      [](const device::Mismatch& m) { return fmt::format("no index reaches {}", m.index); }, Findings::Weight::Note);
}

}  // namespace layoutx::verify
