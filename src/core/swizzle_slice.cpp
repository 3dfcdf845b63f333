// CuTe's slice_and_offset of a swizzled layout, Sw<B,M,S> o offset o L, at a
// coordinate that fixes some modes (swizzle_layout.hpp). The fixed modes'
// offset splits into the bits the swizzle reads or writes (its YYY and ZZZ
// fields), which join the composed layout's offset, and the others, which
// pass through. Where the modes left can still move a YYY bit and the ZZZ bit
// it is XORed into, the slice stays swizzled; otherwise the swizzle with that
// offset is a plain (dynamic) layout, and the slice decays to a plain layout
// composed with it.
#include "layoutx/swizzle_slice.hpp"

#include <fmt/format.h>

#include "layoutx/tensor_partition.hpp"

namespace layoutx {

namespace {

bool all_static(const IntTuple& t) {
  if (t.is_leaf()) return t.value().is_static;
  for (const IntTuple& e : t.elems())
    if (!all_static(e)) return false;
  return true;
}

// Whether every integer of the coordinate, and every stride it fixes, is static.
bool fixed_part_static(const Value& c, const IntTuple& stride) {
  if (c.kind == Value::Kind::Underscore) return true;
  if (c.kind == Value::Kind::Integer) return c.integer.is_static && all_static(stride);
  if (stride.is_leaf() || c.elems.size() != static_cast<std::size_t>(stride.rank())) return all_static(stride);
  for (std::size_t i = 0; i < c.elems.size(); ++i)
    if (!fixed_part_static(c.elems[i], stride[static_cast<int>(i)])) return false;
  return true;
}

bool has_integer(const Value& c) {
  if (c.kind == Value::Kind::Integer) return true;
  for (const Value& e : c.elems)
    if (has_integer(e)) return true;
  return false;
}

// The bits a mode can set, (s - 1) * d at each leaf (CuTe's to_mixed_bits
// takes power-of-two extents and strides, where this is a run of bits).
std::int64_t reach_bits(const IntTuple& shape, const IntTuple& stride) {
  if (shape.is_leaf() || stride.is_leaf()) {
    if (!shape.is_leaf() || !stride.is_leaf()) return ~std::int64_t{0};
    std::int64_t r = 0;
    if (__builtin_mul_overflow(shape.value().value - 1, stride.value().value, &r)) return ~std::int64_t{0};
    return r < 0 ? ~std::int64_t{0} : r;
  }
  std::int64_t bits = 0;
  for (int i = 0; i < shape.rank() && i < stride.rank(); ++i) bits |= reach_bits(shape[i], stride[i]);
  return bits;
}

// The bits of the fixed modes' offset known only at run time: those a mode
// fixed at a dynamic coordinate (or with a dynamic extent or stride) can set.
std::int64_t run_time_bits(const Value& c, const IntTuple& shape, const IntTuple& stride) {
  if (c.kind == Value::Kind::Underscore) return 0;
  if (c.kind == Value::Kind::Integer)
    return c.integer.is_static && all_static(shape) && all_static(stride) ? 0 : reach_bits(shape, stride);
  if (shape.is_leaf() || stride.is_leaf() || c.elems.size() != static_cast<std::size_t>(shape.rank()))
    return reach_bits(shape, stride);
  std::int64_t bits = 0;
  for (std::size_t i = 0; i < c.elems.size(); ++i)
    bits |= run_time_bits(c.elems[i], shape[static_cast<int>(i)], stride[static_cast<int>(i)]);
  return bits;
}

Int integer(std::int64_t v, bool is_static) { return Int{v, is_static}; }

// CuTe's detail::make_swizzle_strides: the strides along each of the B bits
// of the lower (z_first) or upper field, given the offset the swizzle sees
// (a stride is static where the bit it depends on is).
std::vector<IntTuple> swizzle_strides(bool z_first, std::int64_t z, std::int64_t y, std::int64_t offset,
                                      std::int64_t run_time, int b) {
  std::vector<IntTuple> out;
  for (int i = 0; i < b; ++i) {
    const std::int64_t zi = z << i, yi = y << i;
    const std::int64_t v = z_first ? ((offset & yi) == 0 ? zi : -zi) : ((offset & zi) == 0 ? yi + zi : yi - zi);
    out.emplace_back(integer(v, ((z_first ? yi : zi) & run_time) == 0));
  }
  return out;
}

std::vector<IntTuple> twos(int b) {
  return std::vector<IntTuple>(static_cast<std::size_t>(b), IntTuple(static_int(2)));
}

}  // namespace

SlicedLayout slice_and_offset(const Value& coord, const ComposedLayout& c, Diagnostics& diag) {
  const Notation n = diag.notation();
  require_single_swizzle(c, "slicing at a fixed coordinate");
  const Layout sliced{slice(coord, c.layout.shape, n), slice(coord, c.layout.stride, n)};
  const Swizzle& sw = c.swizzle;
  if (c.pointer) {
    // pointer_flagged.hpp: a static zero offset keeps the flag; another one takes its place.
    const Int offset = offset_at(c.layout, underscores_as_zero(coord)).value();
    if (offset.is_constant(0)) return {with_pointer_flag(sw, *c.pointer, sliced), static_int(0)};
    if (c.pointer->sparsity != 0)
      throw Error("slicing a sparse shared-memory atom at a fixed coordinate is not supported");
    return {ComposedLayout{sw, offset, sliced, {}}, static_int(0)};
  }
  if (!has_underscore(coord)) throw Error("the coordinate has no `_` to slice along");
  if (!has_integer(coord)) return {rebuild(c, sliced), static_int(0)};  // all `_`: only reshaped
  const IntTuple fixed_offset = offset_at(c.layout, underscores_as_zero(coord));
  if (!fixed_offset.is_leaf() || fixed_offset.value().is_scaled_basis() || c.offset.is_scaled_basis())
    throw Error("a swizzle acts on offsets, not on coordinates (scaled-basis strides)");
  const std::int64_t d = fixed_offset.value().value;
  if (d < 0 || c.offset.value < 0)
    throw Error(
        fmt::format("slicing a swizzled layout where the fixed modes reach the negative offset {} is not supported",
                    d < 0 ? d : c.offset.value));
  const std::int64_t zy = sw.yyy_mask() | sw.zzz_mask();
  const bool fixed_static = fixed_part_static(coord, c.layout.stride);
  const std::int64_t run_time =
      c.offset.is_static ? run_time_bits(coord, c.layout.shape, c.layout.stride) & zy : ~std::int64_t{0};
  // offset_only_zy joins the swizzle's offset (static where no run-time bit
  // reaches the swizzle's fields; CuTe prints one that mixes static and
  // run-time bits as MixedBits, here a run-time integer); offset_anti_zy passes through.
  const Int only_zy = integer(c.offset.value ^ (d & zy), run_time == 0);
  const Int anti_zy = integer(d & ~zy, fixed_static);

  // The swizzle bits the sliced layout can reach, (P o L)(size - 1) with P the YZ projection.
  const Int count = size(sliced);
  const IntTuple reach =
      count.value > 0 ? offset_at(sliced, idx2crd(count - static_int(1), sliced.shape)) : IntTuple(static_int(0));
  const bool reach_static = all_static(sliced.shape) && all_static(sliced.stride);
  const std::int64_t active = reach.is_leaf() ? reach.value().value & zy : 0;
  if (reach_static && (active & ~sw.apply(active)) != 0)  // it moves a YYY bit and its ZZZ bit: not reducible
    return {compose(sw, only_zy, sliced), anti_zy};

  if (sw.bits == 0)
    return {sliced, integer(checked_add(c.offset.value, d, "a slice's offset"),
                            only_zy.is_static && anti_zy.is_static)};  // no bits: no swizzle
  const std::int64_t z = sw.zzz_mask() & -sw.zzz_mask(), y = sw.yyy_mask() & -sw.yyy_mask();
  const int m = sw.base, b = sw.bits, s = std::abs(sw.shift);
  std::vector<IntTuple> shape{IntTuple(static_int(std::int64_t{1} << m)), IntTuple(twos(b)),
                              IntTuple(static_int(std::int64_t{1} << (s - b))), IntTuple(twos(b)),
                              IntTuple(static_int(1))};
  std::vector<IntTuple> stride{IntTuple(static_int(1)),
                               IntTuple(swizzle_strides(z < y, z, y, only_zy.value, run_time, b)),
                               IntTuple(static_int(std::int64_t{1} << (m + b))),
                               IntTuple(swizzle_strides(z > y, z, y, only_zy.value, run_time, b)),
                               IntTuple(static_int(std::int64_t{1} << (m + b + s)))};
  const Layout swizzle_layout = make_layout(IntTuple(std::move(shape)), IntTuple(std::move(stride)));
  const Int start = integer(checked_add(sw.apply(only_zy.value), anti_zy.value, "a slice's offset"),
                            only_zy.is_static && anti_zy.is_static);
  return {composition(swizzle_layout, sliced, diag), start};
}

}  // namespace layoutx
