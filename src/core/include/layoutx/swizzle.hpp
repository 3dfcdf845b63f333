// Swizzle<B,M,S> (an XOR of bit fields of an offset) and ComposedLayout
// (swizzle o offset o layout), as in CuTe's swizzle.hpp / layout_composed.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "layoutx/layout.hpp"

namespace layoutx {

struct Swizzle {
  int bits = 0;   // BBits: number of bits in the mask
  int base = 0;   // MBase: least-significant bits kept constant
  int shift = 0;  // SShift: distance the YYY mask is shifted onto ZZZ

  // Refuses what CuTe's static_asserts refuse (negative B/M, |S| < B).
  static Swizzle make(int b, int m, int s);

  std::int64_t yyy_mask() const;
  std::int64_t zzz_mask() const;
  std::int64_t apply(std::int64_t offset) const;

  bool operator==(const Swizzle& o) const { return bits == o.bits && base == o.base && shift == o.shift; }
};

// make_swizzle<Y,Z>(): the swizzle whose YYY and ZZZ masks are Y and Z.
Swizzle make_swizzle(std::int64_t y, std::int64_t z);

// One "Sw<B,M,S> o offset" step of a composed layout.
struct SwizzleStage {
  Swizzle swizzle;
  Int offset;

  bool operator==(const SwizzleStage& o) const { return swizzle == o.swizzle && offset == o.offset; }
};

// CuTe's smem_ptr_flag_bits<B> (smem_sparse_ptr_flag_bits<S,B> when sparse):
// the offset of a canonical shared-memory layout atom. It is a static zero
// that stands for the pointer to B-bit elements make_tensor supplies later;
// CuTe's own overloads keep it through the algebra and recast it as a width.
struct SmemPtrFlag {
  std::int64_t bits = 0;
  std::int64_t sparsity = 0;  // 0: smem_ptr_flag_bits, else the sparsity S

  bool operator==(const SmemPtrFlag& o) const { return bits == o.bits && sparsity == o.sparsity; }
};

struct ComposedLayout {
  Swizzle swizzle;
  Int offset;
  Layout layout;
  // CuTe nests a composed layout inside another when both operands of a
  // composition are swizzled: Sw o off o (Sw' o off' o L). The inner steps,
  // outermost first; usually empty.
  std::vector<SwizzleStage> nested;
  // CuTe's upcast/downcast divide or multiply the offset by an unsigned
  // constant, so a zero offset they make is C<0u>, not Int<0>: CuTe's identity
  // shortcut composition(Swizzle<0,M,S>, Int<0>, L) = L never matches it, and
  // Sw<0,M,S> o _0 o L stays composed through later operations. Not part of
  // equality: both print and map the same.
  bool offset_is_unsigned = false;
  // Set when the offset is a pointer flag (then `offset` is a static 0).
  std::optional<SmemPtrFlag> pointer = std::nullopt;

  bool operator==(const ComposedLayout& o) const {
    return swizzle == o.swizzle && offset == o.offset && layout == o.layout && nested == o.nested &&
           pointer == o.pointer;
  }
};

// A composed layout whose offset is the pointer flag: Sw o smem_ptr[Bb](unset) o L.
ComposedLayout with_pointer_flag(const Swizzle& sw, const SmemPtrFlag& flag, const Layout& l);

// The offset x of the inner layout mapped through the offsets and swizzles.
Int apply_swizzles(const ComposedLayout& c, Int x);
Int evaluate(const ComposedLayout& c, const IntTuple& coord);  // swizzle(offset + layout(coord))

std::string to_text(const Swizzle& s);
std::string to_text(const ComposedLayout& c, Notation n = {});
std::string to_text(const SmemPtrFlag& f);  // smem_ptr[16b](unset), smem_sparse<2>_ptr[16b](unset)

}  // namespace layoutx
