// upcast, downcast, recast_layout (CuTe layout.hpp, "Upcast" / "Downcast" / "Recast").
#include <fmt/format.h>

#include <numeric>

#include "layoutx/algebra.hpp"
#include "layoutx/notation.hpp"

namespace layoutx {

namespace {

Layout upcast_mode(const IntTuple& shape, const IntTuple& stride, Int n, Diagnostics& diag) {
  if (shape.is_tuple()) {
    std::vector<Layout> modes;
    for (int i = 0; i < shape.rank(); ++i) modes.push_back(upcast_mode(shape[i], stride[i], n, diag));
    return make_layout(modes);
  }
  const Int s = shape.value(), d = stride.value();
  if (d.is_constant(0)) return Layout{shape, stride};
  if (d.is_static) {
    if (d.value % n.value != 0 && n.value % d.value != 0)
      throw Error(fmt::format("Divisibility condition: upcast<{}> of a mode with stride {}: neither divides the other",
                              n.value, d.value));
    return Layout{ceil_div(s, ceil_div(n, abs(d))), signum(d) * ceil_div(abs(d), n)};
  }
  // CuTe assumes dynamic strides are multiples of N and divides without checking.
  if (d.value % n.value != 0)
    diag.warn("Divisibility condition",
              fmt::format("upcast<{}>: dynamic stride {} is not a multiple of {}; CuTe divides it anyway", n.value,
                          d.value, n.value));
  return Layout{shape, d / n};
}

Layout downcast_mode(const IntTuple& shape, const IntTuple& stride, Int n) {
  if (shape.is_tuple()) {
    std::vector<Layout> modes;
    for (int i = 0; i < shape.rank(); ++i) modes.push_back(downcast_mode(shape[i], stride[i], n));
    return make_layout(modes);
  }
  const Int d = stride.value();
  if (d.is_constant(1) || d.is_constant(-1)) return Layout{shape.value() * n, stride};
  return Layout{shape, d * n};
}

void check_factor(std::int64_t n, const char* what) {
  if (n <= 0) throw Error(fmt::format("{}<{}>: the factor must be a positive integer", what, n));
}

}  // namespace

Layout upcast(const Layout& l, std::int64_t n, Diagnostics& diag) {
  check_factor(n, "upcast");
  return upcast_mode(l.shape, l.stride, static_int(n), diag);
}

Layout downcast(const Layout& l, std::int64_t n) {
  check_factor(n, "downcast");
  if (!has_constant(l.stride, 1))
    throw naming_values([&](Notation shown) {
      return fmt::format("Downcast requires adjacent elements: {} has no stride-1 mode", to_text(l, shown));
    });
  return downcast_mode(l.shape, l.stride, static_int(n));
}

Layout recast_layout(const Layout& l, std::int64_t old_bits, std::int64_t new_bits, Diagnostics& diag) {
  if (old_bits <= 0 || new_bits <= 0)
    throw Error(fmt::format("recast<{},{}>: element sizes in bits must be positive", old_bits, new_bits));
  const std::int64_t g = std::gcd(old_bits, new_bits);
  const std::int64_t num = new_bits / g, den = old_bits / g;
  if (num == 1 && den == 1) return l;
  if (num == 1) return downcast(l, den);
  if (den == 1) return upcast(l, num, diag);
  return downcast(upcast(l, num, diag), den);
}

}  // namespace layoutx
