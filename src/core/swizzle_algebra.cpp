#include "layoutx/swizzle_algebra.hpp"

#include <fmt/format.h>

#include <bit>
#include <numeric>

#include "layoutx/notation.hpp"

namespace layoutx {

namespace {

int log2_of_power_of_two(std::int64_t n, const char* what) {
  if (n <= 0 || !std::has_single_bit(static_cast<std::uint64_t>(n)))
    throw Error(fmt::format("{}<{}> of a swizzle: N must be a power of two", what, n));
  return std::countr_zero(static_cast<std::uint64_t>(n));
}

// The projection of a swizzle onto its Y and Z bits, as a layout (detail::transfer_swizzle's P).
Layout swizzle_only_zy(const Swizzle& sw) {
  const int m = sw.base, b = sw.bits, s = std::abs(sw.shift);
  return Layout{
      IntTuple::tuple({static_int(std::int64_t{1} << m), static_int(std::int64_t{1} << b),
                       static_int(std::int64_t{1} << (s - b)), static_int(std::int64_t{1} << b), static_int(1)}),
      IntTuple::tuple({static_int(0), static_int(std::int64_t{1} << m), static_int(0),
                       static_int(std::int64_t{1} << (m + s)), static_int(0)})};
}

// make_swizzle<Y,Z>() takes its masks as template arguments: they must be static.
std::int64_t static_mask(const Layout& l, std::int64_t i, const char* what) {
  const Int v = evaluate(l, IntTuple(static_int(i)));
  if (!v.is_static)
    throw naming_values<StaticRequiredError>([&](Notation shown) {
      return fmt::format(
          "{}: the new swizzle's mask {}({}) = {} is dynamic, but make_swizzle needs static "
          "integers (make the layout's shape and stride static)",
          what, to_text(l, shown), i, v.value);
    });
  return v.value;
}

}  // namespace

AnyLayout compose(const Swizzle& sw, Int offset, const Layout& l) {
  if (sw.bits == 0 && offset.is_constant(0)) return l;
  return ComposedLayout{sw, offset, l, {}};
}

AnyLayout composition(const Swizzle& sw, const Layout& l) { return compose(sw, static_int(0), l); }

bool vanishes(const ComposedLayout& c) {
  return c.swizzle.bits == 0 && c.offset.is_constant(0) && !c.offset_is_unsigned && !c.pointer && c.nested.empty();
}

AnyLayout rebuild(const ComposedLayout& c, const Layout& inner) {
  if (vanishes(c)) return inner;
  ComposedLayout out = c;
  out.layout = inner;
  return out;
}

AnyLayout composition(const Layout& a, const Swizzle& sw) {
  const std::int64_t y = static_mask(a, sw.yyy_mask(), "composition(Layout, Swizzle)");
  const std::int64_t z = static_mask(a, sw.zzz_mask(), "composition(Layout, Swizzle)");
  return composition(make_swizzle(y, z), a);
}

AnyLayout composition(const Layout& a, const ComposedLayout& b, Diagnostics& diag) {
  require_single_swizzle(b, "composition");
  if (!b.offset.is_constant(0)) {
    const std::string message =
        fmt::format("Require offset == 0.: composition({}, {}) needs the composed layout's offset to be a static 0",
                    to_text(a, diag.notation()), to_text(b, diag.notation()));
    if (!b.offset.is_static) throw StaticRequiredError(message);
    throw Error(message);
  }
  return composition(composition(a, b.swizzle), Tiler::of(b.layout), diag);
}

AnyLayout composition(const AnyLayout& a, const Tiler& b, Diagnostics& diag) {
  if (const auto* l = std::get_if<Layout>(&a)) return composition(*l, b, diag);
  const auto& c = std::get<ComposedLayout>(a);
  return on_inner(c, [&](const Layout& inner) { return composition(inner, b, diag); });
}

AnyLayout composition(const AnyLayout& a, const Layout& b, Diagnostics& diag) {
  if (const auto* l = std::get_if<Layout>(&a)) return composition(*l, b, diag);
  return on_inner(std::get<ComposedLayout>(a), [&](const Layout& inner) { return composition(inner, b, diag); });
}

AnyLayout composition(const ComposedLayout& a, const ComposedLayout& b, Diagnostics& diag) {
  const AnyLayout inner = composition(a.layout, b, diag);
  if (vanishes(a)) return inner;
  if (const auto* l = std::get_if<Layout>(&inner)) return rebuild(a, *l);
  const auto& ic = std::get<ComposedLayout>(inner);
  ComposedLayout out = a;
  out.layout = ic.layout;
  out.nested.push_back(SwizzleStage{ic.swizzle, ic.offset});
  out.nested.insert(out.nested.end(), ic.nested.begin(), ic.nested.end());
  return out;
}

void require_single_swizzle(const ComposedLayout& c, const char* operation) {
  if (!c.nested.empty())
    throw naming_values([&](Notation shown) {
      return fmt::format("{} of the nested composed layout {} is not supported", operation, to_text(c, shown));
    });
}

Swizzle composition(const Swizzle& a, const Swizzle& b) {
  if (a.shift != b.shift)
    throw Error(fmt::format("Can only merge swizzles of the same shift.: {} and {}", to_text(a), to_text(b)));
  return make_swizzle(a.yyy_mask() ^ b.yyy_mask(), a.zzz_mask() ^ b.zzz_mask());
}

static AnyLayout invert(const ComposedLayout& c, Layout (*inverse)(const Layout&, trace::Recorder*), const char* name,
                        trace::Recorder* recorder) {
  require_single_swizzle(c, name);
  // CuTe inverts a non-zero offset as an integer; the pointer flag is no integer it can negate.
  if (c.pointer)
    throw naming_values([&](Notation shown) {
      return fmt::format("{}({}): CuTe has no {} of the pointer flag {} (no matching function)", name,
                         to_text(c, shown), name, to_text(*c.pointer));
    });
  if (!c.offset.is_constant(0))
    throw naming_values([&](Notation shown) {
      return fmt::format(
          "{}({}): CuTe's answer is a Layout o offset o Swizzle, which layoutx cannot represent; "
          "use a zero offset",
          name, to_text(c, shown));
    });
  return composition(inverse(c.layout, recorder), c.swizzle);
}

AnyLayout right_inverse(const ComposedLayout& c, trace::Recorder* recorder) {
  return invert(c, &right_inverse, "right_inverse", recorder);
}
AnyLayout left_inverse(const ComposedLayout& c, trace::Recorder* recorder) {
  return invert(c, &left_inverse, "left_inverse", recorder);
}

Swizzle upcast(const Swizzle& sw, std::int64_t n) {
  const int k = log2_of_power_of_two(n, "upcast");
  const int new_m = sw.base - k;
  if (new_m >= 0) return Swizzle{sw.bits, new_m, sw.shift};
  return Swizzle{std::max(sw.bits + new_m, 0), 0, sw.shift};
}

Swizzle downcast(const Swizzle& sw, std::int64_t n) {
  const int k = log2_of_power_of_two(n, "downcast");
  return Swizzle::make(sw.bits, sw.base + k, sw.shift);
}

// CuTe recasts a composed layout's offset with upcast<N>/downcast<N> of an integer,
// which its composed-layout code only reaches for a static offset (the integer
// overloads are declared after it and a dynamic int has no associated namespace).
static void require_static_offsets(const ComposedLayout& c, const char* what, std::int64_t n) {
  bool dynamic = !c.offset.is_static;
  for (const auto& s : c.nested) dynamic = dynamic || !s.offset.is_static;
  if (dynamic)
    throw StaticRequiredError(
        fmt::format("{}<{}> of a composed layout needs static integers: CuTe has no {}<{}> of the dynamic "
                    "offset {}",
                    what, n, what, n, c.offset.value));
}

static Int upcast_offset(Int offset, std::int64_t n) {
  if (offset.is_static && offset.value % n != 0)
    throw Error(fmt::format("upcast<{}>: the offset {} is not a multiple of {}", n, offset.value, n));
  return offset / static_int(n);
}

// A pointer-flagged layout recasts the flag's element width and leaves the
// swizzle alone: it acts on the pointer, which keeps its addresses.
static ComposedLayout recast_flagged(const ComposedLayout& c, std::int64_t bits, const Layout& l, const char* what,
                                     std::int64_t n) {
  if (c.pointer->sparsity != 0)
    throw naming_values([&](Notation shown) {
      return fmt::format("Not implemented for safety: CuTe refuses {}<{}> of the sparse layout {}", what, n,
                         to_text(c, shown));
    });
  if (bits == 0)
    throw naming_values([&](Notation shown) {
      return fmt::format("{}<{}> of {} would point to 0-bit elements: CuTe has no uint_bit<0> for smem_ptr[0b]", what,
                         n, to_text(c, shown));
    });
  return with_pointer_flag(c.swizzle, SmemPtrFlag{bits, 0}, l);
}

ComposedLayout upcast(const ComposedLayout& c, std::int64_t n, Diagnostics& diag) {
  if (c.pointer) {
    if (n <= 0) throw Error(fmt::format("upcast<{}>: the factor must be a positive integer", n));
    return recast_flagged(c, c.pointer->bits * n, upcast(c.layout, n, diag), "upcast", n);
  }
  require_static_offsets(c, "upcast", n);
  ComposedLayout out{upcast(c.swizzle, n), upcast_offset(c.offset, n), upcast(c.layout, n, diag), {}, true};
  for (const auto& s : c.nested) out.nested.push_back(SwizzleStage{upcast(s.swizzle, n), upcast_offset(s.offset, n)});
  return out;
}

ComposedLayout downcast(const ComposedLayout& c, std::int64_t n) {
  if (c.pointer) {
    if (n <= 0) throw Error(fmt::format("downcast<{}>: the factor must be a positive integer", n));
    return recast_flagged(c, c.pointer->bits / n, downcast(c.layout, n), "downcast", n);
  }
  require_static_offsets(c, "downcast", n);
  ComposedLayout out{downcast(c.swizzle, n), c.offset * static_int(n), downcast(c.layout, n), {}, true};
  for (const auto& s : c.nested) out.nested.push_back(SwizzleStage{downcast(s.swizzle, n), s.offset * static_int(n)});
  return out;
}

Swizzle recast_layout(const Swizzle& sw, std::int64_t old_bits, std::int64_t new_bits) {
  if (old_bits <= 0 || new_bits <= 0)
    throw Error(fmt::format("recast<{},{}>: element sizes in bits must be positive", old_bits, new_bits));
  const std::int64_t g = std::gcd(old_bits, new_bits);
  const std::int64_t num = new_bits / g, den = old_bits / g;
  if (num == 1 && den == 1) return sw;
  if (num == 1) return downcast(sw, den);
  if (den == 1) return upcast(sw, num);
  throw Error(fmt::format("Recast not supported.: recast<{},{}> of a swizzle needs a whole ratio", old_bits, new_bits));
}

ComposedLayout recast_layout(const ComposedLayout& c, std::int64_t old_bits, std::int64_t new_bits, Diagnostics& diag) {
  if (old_bits <= 0 || new_bits <= 0)
    throw Error(fmt::format("recast<{},{}>: element sizes in bits must be positive", old_bits, new_bits));
  const std::int64_t g = std::gcd(old_bits, new_bits);
  const std::int64_t num = new_bits / g, den = old_bits / g;
  if (num == 1 && den == 1) return c;
  if (num == 1) return downcast(c, den);
  if (den == 1) return upcast(c, num, diag);
  if (c.pointer) return downcast(upcast(c, num, diag), den);
  throw Error(
      fmt::format("Recast not supported.: recast<{},{}> of a composed layout needs a whole ratio", old_bits, new_bits));
}

AnyLayout position_independent(const ComposedLayout& c) {
  if (!c.pointer || c.pointer->sparsity != 0)
    throw naming_values([&](Notation shown) {
      return fmt::format(
          "as_position_independent_swizzle_layout takes Sw o smem_ptr[Bb](unset) o L (a canonical "
          "shared-memory atom); {} has no such pointer flag",
          to_text(c, shown));
    });
  const std::int64_t bits = c.pointer->bits;
  if (bits <= 0 || !std::has_single_bit(static_cast<std::uint64_t>(bits)))
    throw Error(
        fmt::format("as_position_independent_swizzle_layout: CuTe has no uint_bit_t<{}> (a power of two "
                    "from 1 to 128 bits)",
                    bits));
  return compose(recast_layout(c.swizzle, 8, bits), static_int(0), c.layout);
}

Layout max_common_layout(const ComposedLayout& a, const Layout& b, Diagnostics& diag) {
  require_single_swizzle(a, "max_common_layout");
  const Layout common = max_common_layout(a.layout, b, diag);
  const Int base = static_int(std::int64_t{1} << a.swizzle.base);
  if (base.value < size(common).value) return composition(common, Tiler::of(base), diag);
  return common;
}

Int max_common_vector(const ComposedLayout& a, const Layout& b, Diagnostics& diag) {
  require_single_swizzle(a, "max_common_vector");
  return min(max_common_vector(a.layout, b, diag), static_int(std::int64_t{1} << a.swizzle.base));
}

Int max_common_vector(const ComposedLayout& a, const ComposedLayout& b, Diagnostics& diag) {
  require_single_swizzle(a, "max_common_vector");
  require_single_swizzle(b, "max_common_vector");
  const Int vec = max_common_vector(a.layout, b.layout, diag);
  if (a.swizzle == b.swizzle) return vec;
  return min(min(vec, static_int(std::int64_t{1} << a.swizzle.base)), static_int(std::int64_t{1} << b.swizzle.base));
}

AnyLayout logical_product(const Layout& block, const ComposedLayout& tiler, Diagnostics& diag) {
  require_single_swizzle(tiler, "logical_product");
  if (!tiler.offset.is_constant(0))
    throw Error(fmt::format("Require Swizzle offset == 0.: logical_product({}, {})", to_text(block, diag.notation()),
                            to_text(tiler, diag.notation())));
  const Layout new_layout = logical_product(block, Tiler::of(tiler.layout), diag);
  const Layout only_zy = composition(swizzle_only_zy(tiler.swizzle), tiler.layout, diag);
  // CuTe reads the active bits at the last index, size(P o L) - 1, and takes
  // them as template arguments: a dynamic size or value does not compile.
  const Int active_bits = evaluate(only_zy, IntTuple(size(only_zy) - static_int(1)));
  if (!active_bits.is_static)
    throw naming_values([&](Notation shown) {
      return fmt::format(
          "logical_product with a swizzled tiler: the swizzle's active bits (P o L)(size - 1) of {} are dynamic, "
          "but make_swizzle needs static integers (make the tiler's shape and stride static)",
          to_text(only_zy, shown));
    });
  const std::int64_t active = active_bits.value;
  const std::int64_t active_z = active & tiler.swizzle.zzz_mask();
  const std::int64_t active_y = active & tiler.swizzle.yyy_mask();
  auto through = [&](std::int64_t bits) {
    const Int v =
        evaluate(new_layout, IntTuple::tuple({static_int(0), evaluate(tiler.layout, IntTuple(static_int(bits)))}));
    if (!v.is_static)
      throw StaticRequiredError(
          fmt::format("logical_product with a swizzled tiler: the new swizzle's mask is dynamic, but "
                      "make_swizzle needs static integers"));
    return v.value;
  };
  return composition(make_swizzle(through(active_y), through(active_z)), new_layout);
}

const Layout& inner_layout(const AnyLayout& l) {
  if (const auto* p = std::get_if<Layout>(&l)) return *p;
  return std::get<ComposedLayout>(l).layout;
}

Int size(const AnyLayout& l) { return size(inner_layout(l)); }
Int cosize(const AnyLayout& l) { return cosize(inner_layout(l)); }

Int evaluate(const AnyLayout& l, const IntTuple& coord) {
  if (const auto* p = std::get_if<Layout>(&l)) return evaluate(*p, coord);
  return evaluate(std::get<ComposedLayout>(l), coord);
}

std::string to_text(const AnyLayout& l, Notation n) {
  return std::visit([n](const auto& x) { return to_text(x, n); }, l);
}

}  // namespace layoutx
