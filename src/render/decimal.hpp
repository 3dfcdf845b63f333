// Decimal text for streamed tables, where formatting is most of the work:
// two digits per division and the length from the bit length (no loop), and
// numbers kept in decimal that are added to without any division.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "layoutx/int_tuple.hpp"

namespace layoutx::render_detail {

// The longest decimal int64 ("-9223372036854775808").
constexpr std::size_t kMaxIntChars = 20;
// Short text is copied as one fixed-size block; the buffer keeps this much slack.
constexpr std::size_t kBlock = 32;

inline constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

inline constexpr std::uint64_t kPowersOf10[20] = {1ULL,
                                                  10ULL,
                                                  100ULL,
                                                  1000ULL,
                                                  10000ULL,
                                                  100000ULL,
                                                  1000000ULL,
                                                  10000000ULL,
                                                  100000000ULL,
                                                  1000000000ULL,
                                                  10000000000ULL,
                                                  100000000000ULL,
                                                  1000000000000ULL,
                                                  10000000000000ULL,
                                                  100000000000000ULL,
                                                  1000000000000000ULL,
                                                  10000000000000000ULL,
                                                  100000000000000000ULL,
                                                  1000000000000000000ULL,
                                                  10000000000000000000ULL};

// Number of decimal digits of v >= 10: log10 from log2 (1233/4096 ~ log10(2)), then one comparison.
inline int decimal_length(std::uint64_t v) {
  const int t = ((64 - std::countl_zero(v)) * 1233) >> 12;
  return t + (v >= kPowersOf10[t]);
}

// v's `length` digits (its decimal_length, v >= 10) at p; returns their end.
inline char* put_uint_digits(char* p, std::uint64_t v, int length) {
  char* const end = p + length;
  char* q = end;
  while (v >= 100) {
    const std::uint64_t r = v % 100;
    v /= 100;
    q -= 2;
    std::memcpy(q, kDigitPairs + 2 * r, 2);
  }
  if (v >= 10) {
    std::memcpy(q - 2, kDigitPairs + 2 * v, 2);
  } else {
    q[-1] = static_cast<char>('0' + v);
  }
  return end;
}

inline char* put_uint(char* p, std::uint64_t v) {
  if (v < 10) {
    *p = static_cast<char>('0' + v);
    return p + 1;
  }
  return put_uint_digits(p, v, decimal_length(v));
}

// put_int right-aligned in `width` columns (spaces before it; wider when it
// needs more), its length found once.
inline char* put_int_aligned(char* p, std::int64_t v, std::size_t width) {
  const std::uint64_t u = v >= 0 ? static_cast<std::uint64_t>(v) : 0 - static_cast<std::uint64_t>(v);
  const int digits = u < 10 ? 1 : decimal_length(u);
  for (std::size_t k = static_cast<std::size_t>(digits) + (v < 0 ? 1 : 0); k < width; ++k) *p++ = ' ';
  if (v < 0) *p++ = '-';
  if (u < 10) {
    *p = static_cast<char>('0' + u);
    return p + 1;
  }
  return put_uint_digits(p, u, digits);
}

inline char* put_int(char* p, std::int64_t v) {
  if (v >= 0) return put_uint(p, static_cast<std::uint64_t>(v));
  *p = '-';
  return put_uint(p + 1, 0 - static_cast<std::uint64_t>(v));
}

// A view of fixed row text whose storage has kBlock bytes of padding, so that
// text up to kBlock long is copied as one fixed-size block (the bytes past its
// end are scratch, overwritten by what follows).
struct PieceView {
  const char* data;
  std::size_t size;

  char* put(char* p) const {
    if (size <= kBlock / 2)
      std::memcpy(p, data, kBlock / 2);
    else if (size <= kBlock)
      std::memcpy(p, data, kBlock);
    else
      std::memcpy(p, data, size);
    return p + size;
  }
};

// The storage of a PieceView: edit(), append, seal() rewrites it in place.
class Piece {
 public:
  explicit Piece(std::string_view s = {}) {
    edit().assign(s);
    seal();
  }
  std::string& edit() {
    text_.clear();
    return text_;
  }
  void seal() {
    size_ = text_.size();
    text_.append(kBlock, '\0');
  }
  // Valid until the next edit().
  PieceView view() const { return {text_.data(), size_}; }

 private:
  std::string text_;
  std::size_t size_ = 0;
};

// A number in [0, 10^16) kept as decimal digits, one per byte, least
// significant first, in two words. Adding to it and writing it out take a few
// word operations and no division: the columns that count (index, coordinate
// digit) and the offsets of a run with a non-negative stride use it.
class BcdNumber {
 public:
  static constexpr std::uint64_t kLimit = 10000000000000000ULL;  // 10^16

  explicit BcdNumber(std::uint64_t v = 0) : lo_(digits_of(v % 100000000)), hi_(digits_of(v / 100000000)) {}

  // Past kLimit the result is meaningless; callers stay below it. The high
  // word is rarely touched: only on a carry out of the low eight digits.
  void add(const BcdNumber& step) {
    const bool carry = add_word(lo_, step.lo_, false);
    if (carry || step.hi_) add_word(hi_, step.hi_, carry);
  }

  // The number of digits put writes.
  int length() const { return hi_ == 0 ? significant_digits(lo_) : 8 + significant_digits(hi_); }

  // Writes 8-byte words: up to 8 bytes past the end are scratch.
  char* put(char* p) const {
    if (hi_ == 0) return put_word(p, lo_, significant_digits(lo_));
    p = put_word(p, hi_, significant_digits(hi_));
    return put_word(p, lo_, 8);
  }

 private:
  static constexpr std::uint64_t kOnes = 0x0101010101010101ULL;

  // Each byte gets digit + 246, so a byte sum of 10 or more carries out of the
  // byte; bytes that did not carry still have their top bit set and give the 246 back.
  static bool add_word(std::uint64_t& a, std::uint64_t b, bool carry) {
    std::uint64_t t;
    const bool c1 = __builtin_add_overflow(a, b + 246 * kOnes, &t);
    const bool c2 = __builtin_add_overflow(t, static_cast<std::uint64_t>(carry), &t);
    a = t - ((t >> 7) & kOnes) * 246;
    return c1 || c2;
  }
  static std::uint64_t digits_of(std::uint64_t v) {  // v < 10^8
    std::uint64_t w = 0;
    for (int shift = 0; v; shift += 8, v /= 10) w |= (v % 10) << shift;
    return w;
  }
  static int significant_digits(std::uint64_t w) { return w ? (71 - std::countl_zero(w)) >> 3 : 1; }
  // The n low digits as text, most significant first in memory.
  static char* put_word(char* p, std::uint64_t w, int n) {
    std::uint64_t text = w | 0x30 * kOnes;
    if constexpr (std::endian::native == std::endian::little)
      text = __builtin_bswap64(text) >> (8 * (8 - n));
    else
      text <<= 8 * (8 - n);
    std::memcpy(p, &text, 8);
    return p + n;
  }

  std::uint64_t lo_ = 0, hi_ = 0;
};

// CuTe's num_digits, the column width of print_layout: decimal digits of a
// non-negative int (1 for negative ones).
inline int num_digits(std::int64_t x) {
  int d = 1;
  // Unsigned: the last step reaches 10^19, past INT64_MAX.
  for (std::uint64_t p = 10; d < 19 && x >= 0 && static_cast<std::uint64_t>(x) >= p; p *= 10) ++d;
  return d;
}

// Coordinates as plain numbers, whatever the static marks: in tables and
// pictures they are data, not C++ types.
inline std::string plain(const IntTuple& t) {
  if (t.is_leaf()) return std::to_string(t.value().value);
  std::string out = "(";
  for (int i = 0; i < t.rank(); ++i) {
    if (i) out += ',';
    out += plain(t[i]);
  }
  return out + ")";
}

}  // namespace layoutx::render_detail
