#include "layoutx/swizzle.hpp"

#include <fmt/format.h>

#include <bit>
#include <charconv>

#include "layoutx/notation.hpp"

namespace layoutx {

Swizzle Swizzle::make(int b, int m, int s) {
  if (m < 0) throw Error(fmt::format("MBase must be positive: Sw<{},{},{}>", b, m, s));
  if (b < 0) throw Error(fmt::format("BBits must be positive: Sw<{},{},{}>", b, m, s));
  if (std::abs(s) < b)
    throw Error(fmt::format("abs(SShift) must be more than BBits.: Sw<{},{},{}> has |{}| < {}", b, m, s, s, b));
  // Masks must fit CuTe's 32-bit int arithmetic.
  if (b + m + std::abs(s) > 31)
    throw Error(fmt::format("Sw<{},{},{}>: B + M + |S| = {} exceeds the 31 bits CuTe's int masks hold", b, m, s,
                            b + m + std::abs(s)));
  return Swizzle{b, m, s};
}

std::int64_t Swizzle::yyy_mask() const { return ((std::int64_t{1} << bits) - 1) << (base + std::max(0, shift)); }

std::int64_t Swizzle::zzz_mask() const { return ((std::int64_t{1} << bits) - 1) << (base - std::min(0, shift)); }

std::int64_t Swizzle::apply(std::int64_t offset) const {
  const std::int64_t y = offset & yyy_mask();
  const std::int64_t moved = shift >= 0 ? (y >> shift) : (y << -shift);
  return offset ^ moved;
}

Swizzle make_swizzle(std::int64_t y, std::int64_t z) {
  const auto uy = static_cast<std::uint32_t>(y), uz = static_cast<std::uint32_t>(z);
  if (y < 0 || z < 0 || y > 0xffffffffLL || z > 0xffffffffLL)
    throw Error(fmt::format("make_swizzle: masks {} and {} are not 32-bit bit sets", y, z));
  const int bz = std::popcount(uy), by = std::popcount(uz);
  if (bz != by)
    throw Error(
        fmt::format("Number of bits in Y and Z don't match: cannot build a swizzle from Y={:#b} and Z={:#b}", uy, uz));
  const int tz_y = std::countr_zero(uy), tz_z = std::countr_zero(uz);
  const int m = std::min(tz_y, tz_z) % 32;
  const int s = tz_y - tz_z;
  if (std::abs(s) < bz)
    throw Error(fmt::format("make_swizzle: Y={:#b} and Z={:#b} overlap; no Swizzle<B,M,S> has these masks", uy, uz));
  Swizzle sw{bz, m, s};
  if ((uy | uz) != static_cast<std::uint32_t>(sw.yyy_mask() | sw.zzz_mask()))
    throw Error(fmt::format(
        "make_swizzle: Y={:#b} and Z={:#b} are not contiguous bit fields; no Swizzle<B,M,S> has these masks", uy, uz));
  return sw;
}

Int apply_swizzles(const ComposedLayout& c, Int x) {
  for (auto it = c.nested.rbegin(); it != c.nested.rend(); ++it) {
    const Int shifted = it->offset + x;
    x = Int{it->swizzle.apply(shifted.value), shifted.is_static};
  }
  const Int shifted = c.offset + x;
  return Int{c.swizzle.apply(shifted.value), shifted.is_static};
}

Int evaluate(const ComposedLayout& c, const IntTuple& coord) { return apply_swizzles(c, evaluate(c.layout, coord)); }

namespace {

void append_swizzle_parameter(std::string& out, int v) {
  char digits[12];
  out.append(digits, std::to_chars(digits, digits + sizeof digits, v).ptr);
}

}  // namespace

// Written by hand: a swizzled layout's line is printed often, and fmt's
// general formatting cost more than the rest of its text.
std::string to_text(const Swizzle& s) {
  std::string out = "Sw<";
  append_swizzle_parameter(out, s.bits);
  out += ',';
  append_swizzle_parameter(out, s.base);
  out += ',';
  append_swizzle_parameter(out, s.shift);
  out += '>';
  return out;
}

ComposedLayout with_pointer_flag(const Swizzle& sw, const SmemPtrFlag& flag, const Layout& l) {
  return ComposedLayout{sw, static_int(0), l, {}, false, flag};
}

std::string to_text(const SmemPtrFlag& f) {
  if (f.sparsity != 0) return fmt::format("smem_sparse<{}>_ptr[{}b](unset)", f.sparsity, f.bits);
  return fmt::format("smem_ptr[{}b](unset)", f.bits);
}

std::string to_text(const ComposedLayout& c, Notation n) {
  std::string out = to_text(c.swizzle);
  out.reserve(64);
  out += " o ";
  out += c.pointer ? to_text(*c.pointer) : to_text(c.offset, n);
  out += " o ";
  for (const auto& s : c.nested) {
    out += to_text(s.swizzle);
    out += " o ";
    out += to_text(s.offset, n);
    out += " o ";
  }
  append_text(out, c.layout, n);
  return out;
}

}  // namespace layoutx
