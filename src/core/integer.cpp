#include "layoutx/integer.hpp"

#include <fmt/format.h>

#include "layoutx/notation.hpp"
#include "layoutx/wide_integer.hpp"

#include <limits>
#include <numeric>

namespace layoutx {

namespace {

[[noreturn]] void overflow(const char* what, std::int64_t a, char op, std::int64_t b) {
  throw Error(fmt::format("64-bit overflow in {}: {} {} {} does not fit in a signed 64-bit integer", what, a, op, b));
}

bool any_basis(Int a, Int b) { return __builtin_expect((a.basis.rank | b.basis.rank) != 0, 0); }

// CuTe defines only scaling, abs, ceil_div and adding a static zero on a
// ScaledBasis; anything else on one does not compile.
[[noreturn]] void no_basis_op(const char* op, Int a, Int b) {
  const Int scaled = a.is_scaled_basis() ? a : b;
  throw naming_values([&](Notation shown) {
    return fmt::format("{} is a scaled basis (a coordinate stride): CuTe has no {} of {} and {}",
                       to_text(scaled, shown), op, to_text(a, shown), to_text(b, shown));
  });
}

Int without_basis(Int a) { return Int{a.value, a.is_static}; }

}  // namespace

std::int64_t checked_add(std::int64_t a, std::int64_t b, const char* what) {
  std::int64_t r;
  if (__builtin_add_overflow(a, b, &r)) overflow(what, a, '+', b);
  return r;
}

std::int64_t checked_sub(std::int64_t a, std::int64_t b, const char* what) {
  std::int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) overflow(what, a, '-', b);
  return r;
}

std::int64_t checked_mul(std::int64_t a, std::int64_t b, const char* what) {
  std::int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) overflow(what, a, '*', b);
  return r;
}

Int int_detail::sum(Int a, Int b) {
  if (any_basis(a, b)) {
    // _0 + E and E + _0 are E; a sum of bases is an arithmetic tuple, never a stride.
    if (a.is_constant(0)) return b;
    if (b.is_constant(0)) return a;
    no_basis_op("sum", a, b);
  }
  return Int{checked_add(a.value, b.value, "addition"), a.is_static && b.is_static};
}

Int int_detail::difference(Int a, Int b) {
  if (any_basis(a, b)) no_basis_op("difference", a, b);
  return Int{checked_sub(a.value, b.value, "subtraction"), a.is_static && b.is_static};
}

Int operator-(Int a) {
  if (a.is_scaled_basis()) no_basis_op("negation", a, a);
  return Int{checked_sub(0, a.value, "negation"), a.is_static};
}

Int int_detail::product(Int a, Int b) {
  if (any_basis(a, b)) {
    // x * (v@N) = (x*v)@N, with x*v under the integer rules (so _0 * E<0> is _0@0).
    if (a.is_scaled_basis() && b.is_scaled_basis()) no_basis_op("product", a, b);
    const Int r = without_basis(a) * without_basis(b);
    return Int{r.value, r.is_static, a.is_scaled_basis() ? a.basis : b.basis};
  }
  // CuTe returns C<0> for _0 * x and x * _0 even when x is dynamic.
  if (a.is_constant(0) || b.is_constant(0)) return static_int(0);
  return Int{checked_mul(a.value, b.value, "multiplication"), a.is_static && b.is_static};
}

namespace {

// Of two static integers the division is CuTe's compile-time error; with a
// run-time operand the compiled program divides by zero when it runs.
[[noreturn]] void division_by_zero(Int a, Int b, const std::string& message) {
  if (a.is_static && b.is_static) throw Error(message);
  throw RunTimeFault(message);
}

}  // namespace

Int int_detail::quotient(Int a, Int b) {
  if (any_basis(a, b)) no_basis_op("quotient", a, b);
  if (b.value == 0) division_by_zero(a, b, fmt::format("integer division by zero ({} / 0)", a.value));
  if (a.is_constant(0)) return static_int(0);
  if (a.value == std::numeric_limits<std::int64_t>::min() && b.value == -1) overflow("division", a.value, '/', b.value);
  return Int{a.value / b.value, a.is_static && b.is_static};
}

Int operator%(Int a, Int b) {
  if (any_basis(a, b)) no_basis_op("remainder", a, b);
  if (b.value == 0) division_by_zero(a, b, fmt::format("integer modulo by zero ({} % 0)", a.value));
  if (b.is_constant(1) || b.is_constant(-1) || a.is_constant(0)) return static_int(0);
  if (b.value == -1) return Int{0, a.is_static && b.is_static};  // INT64_MIN % -1 traps in hardware
  return Int{a.value % b.value, a.is_static && b.is_static};
}

Int int_detail::absolute(Int a) {
  if (a.is_scaled_basis()) {
    const Int r = abs(without_basis(a));
    return Int{r.value, r.is_static, a.basis};
  }
  return a.value < 0 ? -a : a;
}

Int int_detail::sign(Int a) {
  if (a.is_scaled_basis()) no_basis_op("signum", a, a);
  return Int{(a.value > 0) - (a.value < 0), a.is_static};
}

Int int_detail::minimum(Int a, Int b) {
  if (any_basis(a, b)) no_basis_op("min", a, b);
  return Int{std::min(a.value, b.value), a.is_static && b.is_static};
}

Int int_detail::maximum(Int a, Int b) {
  if (any_basis(a, b)) no_basis_op("max", a, b);
  return Int{std::max(a.value, b.value), a.is_static && b.is_static};
}

// The sum a + b - 1 may leave 64 bits where the quotient does not (ceil_div(2^63-1, 4)); CuTe's
// formula is evaluated in 128 bits and only a quotient that does not fit is an overflow.
Int int_detail::ceil_quotient(Int a, Int b) {
  if (any_basis(a, b)) {
    if (b.is_scaled_basis()) no_basis_op("ceil_div", a, b);
    const Int r = ceil_div(without_basis(a), b);
    return Int{r.value, r.is_static, a.basis};
  }
  if (b.value == 0) division_by_zero(a, b, fmt::format("ceil_div({}, 0): division by zero", a.value));
  const Int128 q = (static_cast<Int128>(a.value) + b.value - 1) / b.value;
  if (q > std::numeric_limits<std::int64_t>::max() || q < std::numeric_limits<std::int64_t>::min())
    overflow("ceil_div", a.value, '/', b.value);
  return Int{static_cast<std::int64_t>(q), a.is_static && b.is_static};
}

Int gcd(Int a, Int b) {
  if (any_basis(a, b)) no_basis_op("gcd", a, b);
  // std::gcd needs |a| and |b| to fit; the gcd of INT64_MIN and 0 (2^63) does not.
  const auto magnitude = [](std::int64_t v) {
    return v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  };
  const std::uint64_t g = std::gcd(magnitude(a.value), magnitude(b.value));
  if (g > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) overflow("gcd", a.value, ',', b.value);
  return Int{static_cast<std::int64_t>(g), a.is_static && b.is_static};
}

}  // namespace layoutx
