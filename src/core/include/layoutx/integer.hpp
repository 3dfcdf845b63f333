// CuTe's integers: a 64-bit value that is either static (Int<N>, printed _N)
// or dynamic (a run-time int). Every arithmetic step is overflow-checked.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "layoutx/error.hpp"

namespace layoutx {

// The modes of CuTe's ScaledBasis<T, Ns...>: which element of a (nested)
// coordinate a stride steps along. Rank 0 is a plain integer.
struct Basis {
  static constexpr int kMaxRank = 6;
  std::uint8_t rank = 0;
  std::array<std::uint8_t, kMaxRank> modes{};

  constexpr bool empty() const { return rank == 0; }
  constexpr bool operator==(const Basis& o) const {
    if (rank != o.rank) return false;
    for (int i = 0; i < rank; ++i)
      if (modes[i] != o.modes[i]) return false;
    return true;
  }
  constexpr bool operator!=(const Basis& o) const { return !(*this == o); }
};

// An integer, or with a non-empty basis CuTe's scaled basis value@modes (a
// stride of a coordinate layout). The basis sits in what would be padding, so
// a plain integer costs no more than before.
struct Int {
  std::int64_t value = 0;
  bool is_static = true;
  Basis basis;

  constexpr Int() = default;
  constexpr Int(std::int64_t v, bool s = true) : value(v), is_static(s) {}
  constexpr Int(std::int64_t v, bool s, Basis b) : value(v), is_static(s), basis(b) {}

  // CuTe's is_constant<N, T>: a static integer equal to N (a scaled basis never is).
  constexpr bool is_constant(std::int64_t n) const { return is_static && value == n && basis.empty(); }
  constexpr bool is_scaled_basis() const { return !basis.empty(); }
};
static_assert(sizeof(Int) == 16, "a scaled basis must not make integers bigger");

constexpr Int static_int(std::int64_t v) { return Int{v, true}; }
constexpr Int dynamic_int(std::int64_t v) { return Int{v, false}; }

// Checked primitives on raw values: throw Error("overflow ...") naming `what`.
std::int64_t checked_add(std::int64_t a, std::int64_t b, const char* what);
std::int64_t checked_sub(std::int64_t a, std::int64_t b, const char* what);
std::int64_t checked_mul(std::int64_t a, std::int64_t b, const char* what);

// The operations below in full, out of line: scaled bases, CuTe's static
// identities, overflow and division by zero. The inline versions take the
// common case (plain integers, nothing special) themselves: every mode of
// every operation goes through them.
namespace int_detail {
Int sum(Int a, Int b);
Int difference(Int a, Int b);
Int product(Int a, Int b);
Int quotient(Int a, Int b);
Int absolute(Int a);
Int sign(Int a);
Int minimum(Int a, Int b);
Int maximum(Int a, Int b);
Int ceil_quotient(Int a, Int b);

inline bool plain(Int a, Int b) { return __builtin_expect((a.basis.rank | b.basis.rank) == 0, 1); }
}  // namespace int_detail

// Arithmetic with CuTe's static/dynamic propagation rules: a result is static
// when both operands are, and a few identities (x*_0, _0/x, x%_1) stay static
// because CuTe's integral_constant overloads return a constant for them.
inline Int operator+(Int a, Int b) {
  std::int64_t r;
  if (int_detail::plain(a, b) && !__builtin_add_overflow(a.value, b.value, &r))
    return Int{r, a.is_static && b.is_static};
  return int_detail::sum(a, b);
}
inline Int operator-(Int a, Int b) {
  std::int64_t r;
  if (int_detail::plain(a, b) && !__builtin_sub_overflow(a.value, b.value, &r))
    return Int{r, a.is_static && b.is_static};
  return int_detail::difference(a, b);
}
Int operator-(Int a);
inline Int operator*(Int a, Int b) {
  std::int64_t r;
  if (int_detail::plain(a, b) && !a.is_constant(0) && !b.is_constant(0) &&
      !__builtin_mul_overflow(a.value, b.value, &r))
    return Int{r, a.is_static && b.is_static};
  return int_detail::product(a, b);
}
// C++ truncating division; division by zero is an Error.
inline Int operator/(Int a, Int b) {
  if (int_detail::plain(a, b) && b.value > 0 && !a.is_constant(0))
    return Int{a.value / b.value, a.is_static && b.is_static};
  return int_detail::quotient(a, b);
}
Int operator%(Int a, Int b);

inline Int abs(Int a) {
  if (int_detail::plain(a, a) && a.value >= 0) return a;
  return int_detail::absolute(a);
}
inline Int signum(Int a) {
  if (int_detail::plain(a, a)) return Int{(a.value > 0) - (a.value < 0), a.is_static};
  return int_detail::sign(a);
}
inline Int min(Int a, Int b) {
  if (int_detail::plain(a, b)) return Int{a.value < b.value ? a.value : b.value, a.is_static && b.is_static};
  return int_detail::minimum(a, b);
}
inline Int max(Int a, Int b) {
  if (int_detail::plain(a, b)) return Int{a.value < b.value ? b.value : a.value, a.is_static && b.is_static};
  return int_detail::maximum(a, b);
}
// (a + b - 1) / b, as CuTe writes it.
inline Int ceil_div(Int a, Int b) {
  std::int64_t r;
  if (int_detail::plain(a, b) && b.value > 0 && !__builtin_add_overflow(a.value, b.value - 1, &r))
    return Int{r / b.value, a.is_static && b.is_static};
  return int_detail::ceil_quotient(a, b);
}
Int gcd(Int a, Int b);

// Rounds toward negative infinity (C++'s / rounds toward zero); b != 0.
constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

constexpr bool is_power_of_two(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

inline bool operator==(Int a, Int b) { return a.value == b.value && a.is_static == b.is_static && a.basis == b.basis; }
inline bool operator!=(Int a, Int b) { return !(a == b); }

}  // namespace layoutx
