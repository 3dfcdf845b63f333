// composition: R(i) == A(B(i)); by a tile, mode by mode.
#include <algorithm>

#include "findings.hpp"

namespace layoutx::verify {

namespace {

int rank_of(const Layout& l) { return l.shape.is_leaf() ? 1 : l.shape.rank(); }

// By mode: one tile layout per mode of A; `_` and missing modes keep A's mode.
void check_composition_by_mode(Findings& f, const AnyLayout& result, const AnyLayout& a, const Value& b) {
  const auto show = [](const device::Mismatch& m) { return show_pair("R(i)", "A(B(i))", m); };
  const Layout& inner = inner_layout(a);
  const int rank_a = rank_of(inner);
  if (static_cast<int>(b.elems.size()) > rank_a) return f.skipped("composition: the tile has more modes than A");
  // Modes of A past the tile are kept where the result has them.
  const int modes = std::clamp(rank_of(inner_layout(result)), static_cast<int>(b.elems.size()), rank_a);
  std::vector<Layout> tile;
  Int total = static_int(1);
  for (int m = 0; m < modes; ++m) {
    const Layout mode_a = inner.shape.is_leaf() ? inner : get(inner, m);
    const Value* e = m < static_cast<int>(b.elems.size()) ? &b.elems[m] : nullptr;
    if (!e || e->kind == Value::Kind::Underscore)
      tile.push_back(make_layout(mode_a.shape));
    else if (e->kind == Value::Kind::Integer)
      tile.push_back(Layout{e->integer, static_int(1)});
    else if (e->kind == Value::Kind::Layout)
      tile.push_back(e->layout);
    else
      return f.skipped("composition: a tile with nested modes; property not checked");
    total = total * size(tile.back());
  }
  size_must_match(f, result, total, "the tile's size");
  f.verdict("composition: R(c) == A(B_0(c_0), B_1(c_1), ...) by mode",
            device::check_composition(f.device_options(), result, a, tile), show);
}

}  // namespace

void check_composition(Findings& f, const AnyLayout& result, const OuterCall& call) {
  const auto a = as_function(call.operands[0]);
  const Value& b = call.operands[1];
  if (!a) return f.skipped("composition: the left operand is not a layout; property not checked");
  if (b.kind == Value::Kind::Tuple) return check_composition_by_mode(f, result, *a, b);
  const auto fb = as_function(b);
  if (!fb) return f.skipped("composition: the right operand is not a layout; property not checked");
  if (b.kind != Value::Kind::Swizzle) size_must_match(f, result, size(*fb), "size(B)");
  f.verdict("composition: R(i) == A(B(i))", device::check_composition(f.device_options(), result, *a, *fb),
            [](const device::Mismatch& m) { return show_pair("R(i)", "A(B(i))", m); });
}

}  // namespace layoutx::verify
