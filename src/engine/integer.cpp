#include "layoutx/integer.hpp"

#include <fmt/format.h>

#include <limits>
#include <numeric>

namespace layoutx {

namespace {

[[noreturn]] void overflow(const char* what, std::int64_t a, char op, std::int64_t b) {
  throw Error(fmt::format("64-bit overflow in {}: {} {} {} does not fit in a signed 64-bit integer", what,
                          a, op, b));
}

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

Int operator+(Int a, Int b) {
  return Int{checked_add(a.value, b.value, "addition"), a.is_static && b.is_static};
}

Int operator-(Int a, Int b) {
  return Int{checked_sub(a.value, b.value, "subtraction"), a.is_static && b.is_static};
}

Int operator-(Int a) { return Int{checked_sub(0, a.value, "negation"), a.is_static}; }

Int operator*(Int a, Int b) {
  // CuTe returns C<0> for _0 * x and x * _0 even when x is dynamic.
  if (a.is_constant(0) || b.is_constant(0)) return static_int(0);
  return Int{checked_mul(a.value, b.value, "multiplication"), a.is_static && b.is_static};
}

Int operator/(Int a, Int b) {
  if (b.value == 0) throw Error(fmt::format("integer division by zero ({} / 0)", a.value));
  if (a.is_constant(0)) return static_int(0);
  if (a.value == std::numeric_limits<std::int64_t>::min() && b.value == -1) overflow("division", a.value, '/', b.value);
  return Int{a.value / b.value, a.is_static && b.is_static};
}

Int operator%(Int a, Int b) {
  if (b.value == 0) throw Error(fmt::format("integer modulo by zero ({} % 0)", a.value));
  if (b.is_constant(1) || b.is_constant(-1) || a.is_constant(0)) return static_int(0);
  return Int{a.value % b.value, a.is_static && b.is_static};
}

Int abs(Int a) { return a.value < 0 ? -a : a; }

Int signum(Int a) { return Int{(a.value > 0) - (a.value < 0), a.is_static}; }

Int min(Int a, Int b) { return Int{std::min(a.value, b.value), a.is_static && b.is_static}; }

Int max(Int a, Int b) { return Int{std::max(a.value, b.value), a.is_static && b.is_static}; }

Int ceil_div(Int a, Int b) { return (a + b - static_int(1)) / b; }

Int gcd(Int a, Int b) { return Int{std::gcd(a.value, b.value), a.is_static && b.is_static}; }

}  // namespace layoutx
