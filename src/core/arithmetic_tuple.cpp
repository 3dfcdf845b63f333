#include "layoutx/arithmetic_tuple.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "crd2idx.hpp"
#include "layoutx/notation.hpp"

namespace layoutx {

Basis make_basis(const std::vector<int>& modes) {
  if (modes.size() > static_cast<std::size_t>(Basis::kMaxRank))
    throw Error(fmt::format("a scaled basis nests at most {} modes deep, this one {}", Basis::kMaxRank, modes.size()));
  Basis b;
  b.rank = static_cast<std::uint8_t>(modes.size());
  for (std::size_t i = 0; i < modes.size(); ++i) {
    if (modes[i] < 0 || modes[i] > 255)
      throw Error(fmt::format("a scaled basis mode is an index from 0 to 255, not {}", modes[i]));
    b.modes[i] = static_cast<std::uint8_t>(modes[i]);
  }
  return b;
}

namespace {

IntTuple basis_like(const IntTuple& shape, std::vector<int>& modes) {
  if (shape.is_leaf()) return basis_element(modes);
  std::vector<IntTuple> out;
  out.reserve(shape.elems().size());
  for (int i = 0; i < shape.rank(); ++i) {
    modes.push_back(i);
    out.push_back(basis_like(shape.elems()[i], modes));
    modes.pop_back();
  }
  return IntTuple(std::move(out));
}

// A plain integer other than a static zero cannot be added to a coordinate: CuTe has no such +.
[[noreturn]] void no_sum(const IntTuple& a, const IntTuple& b) {
  throw naming_values([&](Notation shown) {
    return fmt::format("CuTe cannot add the integer and the coordinate in {} + {}", to_text(a, shown),
                       to_text(b, shown));
  });
}

IntTuple padded(const IntTuple& t, int rank) {
  std::vector<IntTuple> e = t.elems();
  while (static_cast<int>(e.size()) < rank) e.emplace_back(static_int(0));
  return IntTuple(std::move(e));
}

}  // namespace

Int basis_element(const std::vector<int>& modes) { return Int{1, true, make_basis(modes)}; }

bool has_basis(const IntTuple& t) {
  if (t.is_leaf()) return t.value().is_scaled_basis();
  return std::any_of(t.elems().begin(), t.elems().end(), [](const IntTuple& e) { return has_basis(e); });
}

IntTuple make_basis_like(const IntTuple& shape) {
  std::vector<int> modes;
  return basis_like(shape, modes);
}

Layout make_identity_layout(const IntTuple& shape) {
  if (has_basis(shape))
    throw naming_values([&](Notation shown) {
      return fmt::format("the shape {} holds a scaled basis; a shape holds integers", to_text(shape, shown));
    });
  return Layout{shape, make_basis_like(shape)};
}

IntTuple as_arithmetic_tuple(Int scaled) {
  IntTuple t = Int{scaled.value, scaled.is_static};
  for (int k = scaled.basis.rank; k-- > 0;) {
    std::vector<IntTuple> e(scaled.basis.modes[k], IntTuple(static_int(0)));
    e.push_back(std::move(t));
    t = IntTuple(std::move(e));
  }
  return t;
}

IntTuple coordinate_sum(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf() && a.value().is_constant(0)) return b;
  if (b.is_leaf() && b.value().is_constant(0)) return a;
  if (a.is_leaf() && b.is_leaf()) {
    const Int x = a.value(), y = b.value();
    if (!x.is_scaled_basis() && !y.is_scaled_basis()) return x + y;
    if (!x.is_scaled_basis() || !y.is_scaled_basis()) no_sum(a, b);
    return coordinate_sum(as_arithmetic_tuple(x), as_arithmetic_tuple(y));
  }
  if (a.is_leaf()) {
    if (!a.value().is_scaled_basis()) no_sum(a, b);
    return coordinate_sum(as_arithmetic_tuple(a.value()), b);
  }
  if (b.is_leaf()) {
    if (!b.value().is_scaled_basis()) no_sum(a, b);
    return coordinate_sum(a, as_arithmetic_tuple(b.value()));
  }
  const int r = std::max(a.rank(), b.rank());
  const IntTuple pa = padded(a, r), pb = padded(b, r);
  std::vector<IntTuple> out;
  out.reserve(r);
  for (int i = 0; i < r; ++i) out.push_back(coordinate_sum(pa.elems()[i], pb.elems()[i]));
  return IntTuple(std::move(out));
}

IntTuple evaluate_coordinate(const Layout& l, const IntTuple& coord) {
  return crd2idx_walk<IntTuple>(coord, l.shape, l.stride, coordinate_sum);
}

IntTuple coordinate_coshape(const Layout& l) {
  // CuTe: as_arithmetic_tuple(inner_product(shape - 1, abs(stride))) + 1 at every leaf.
  const IntTuple m1 = transform_leaf(l.shape, [](Int s) { return s - static_int(1); });
  const IntTuple a = transform_leaf(l.stride, [](Int d) { return abs(d); });
  std::function<IntTuple(const IntTuple&, const IntTuple&)> inner = [&](const IntTuple& x,
                                                                        const IntTuple& y) -> IntTuple {
    if (x.is_leaf() || y.is_leaf()) {
      if (x.is_leaf() && y.is_leaf()) return x.value() * y.value();
      throw naming_values([&](Notation shown) {
        return fmt::format("Mismatched ranks: {} and {}", to_text(x, shown), to_text(y, shown));
      });
    }
    if (x.rank() != y.rank())
      throw naming_values([&](Notation shown) {
        return fmt::format("Mismatched ranks: {} and {}", to_text(x, shown), to_text(y, shown));
      });
    IntTuple sum = static_int(0);
    for (int i = 0; i < x.rank(); ++i) sum = coordinate_sum(sum, inner(x.elems()[i], y.elems()[i]));
    return sum;
  };
  IntTuple co = inner(m1, a);
  if (co.is_leaf()) co = as_arithmetic_tuple(co.value());
  return transform_leaf(co, [](Int c) { return c + static_int(1); });
}

Int coordinate_cosize(const Layout& l) { return product(coordinate_coshape(l)); }

void require_integer_strides(const Layout& l, const char* what) {
  if (is_coordinate_layout(l))
    throw naming_values([&](Notation shown) {
      return fmt::format(
          "{} needs integer strides; {} has scaled-basis strides (a coordinate layout), which CuTe's "
          "{} does not compile with",
          what, to_text(l, shown), what);
    });
}

}  // namespace layoutx
