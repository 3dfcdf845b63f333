// composition (CuTe layout.hpp detail::composition_impl and its callers).
#include <fmt/format.h>

#include <algorithm>

#include "layoutx/algebra.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/leaf_list.hpp"
#include "layoutx/limits.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/trace.hpp"

namespace layoutx {

namespace {

// Largest right-hand size for which a dubious composition is verified point by point.
constexpr std::int64_t kVerifyLimit = std::int64_t{1} << 16;

struct Fold {
  std::vector<IntTuple> result_shape, result_stride;
  Int rest_shape, rest_stride;
  bool weak_stride_accepted = false;  // CuTe's weak stride check passed where the strong one fails
};

void check_stride_divisibility(Int curr_shape, Int rest_stride, int mode, const IntTuple& lhs_shape, Fold& f,
                               Diagnostics& diag) {
  const bool divides = rest_stride.value % curr_shape.value == 0 || rest_stride.value < curr_shape.value;
  if (!divides) {
    const std::string msg = fmt::format(
        "Stride Divisibility Condition: the stride {} of the right-hand layout does not divide mode {} (size {}) of "
        "the left-hand shape {} (it must be a multiple of it, or smaller than it)",
        rest_stride.value, mode, curr_shape.value, to_text(lhs_shape, diag.notation()));
    if (curr_shape.is_static && rest_stride.is_static) throw Error(msg);
    diag.warn("Stride Divisibility Condition", msg + "; CuTe computes it anyway because the operands are dynamic");
  }
  // The weak check lets a stride smaller than the mode through even when it
  // does not divide the mode; the result is then not A o B once the elements spill over.
  if (const Int a = abs(rest_stride); a.value < curr_shape.value && a.value != 0 && curr_shape.value % a.value != 0)
    f.weak_stride_accepted = true;
}

void check_shape_divisibility(Int rest_shape, Int new_shape, int mode, const IntTuple& lhs_shape, Diagnostics& diag) {
  if (new_shape.value == 0)
    throw Error(fmt::format("composition: a size-0 mode meets mode {} of {}; CuTe divides by it", mode,
                            to_text(lhs_shape, diag.notation())));
  if (rest_shape.value % new_shape.value == 0) return;
  const std::string msg = fmt::format(
      "Shape Divisibility Condition: the right-hand size {} is not a multiple of the {} elements mode {} of the "
      "left-hand shape {} provides",
      rest_shape.value, new_shape.value, mode, to_text(lhs_shape, diag.notation()));
  if (rest_shape.is_static && new_shape.is_static) throw Error(msg);
  diag.warn("Shape Divisibility Condition", msg + "; CuTe computes it anyway because the operands are dynamic");
}

// composition_impl for a tuple lhs and integral rhs mode s:d.
Layout compose_mode(const IntTuple& lhs_shape, const IntTuple& lhs_stride, Int rhs_shape, Int rhs_stride,
                    bool& weak_stride_accepted, Diagnostics& diag) {
  const int r = lhs_shape.rank();
  Fold f{{}, {}, rhs_shape, rhs_stride, false};
  f.result_shape.reserve(r);
  f.result_stride.reserve(r);
  for (int i = 0; i + 1 < r; ++i) {
    const Int curr_shape = lhs_shape[i].value();
    const Int curr_stride = lhs_stride[i].value();
    LAYOUTX_TRACE(diag.trace(), "lhs mode", "i", i, "curr_shape", curr_shape, "curr_stride", curr_stride, "rest_shape",
                  f.rest_shape, "rest_stride", f.rest_stride);
    if (curr_shape.value <= 0)
      throw Error(fmt::format("composition: mode {} of the left-hand shape {} has size {}; CuTe divides by it", i,
                              to_text(lhs_shape, diag.notation()), curr_shape.value));
    f.weak_stride_accepted = false;
    check_stride_divisibility(curr_shape, f.rest_stride, i, lhs_shape, f, diag);
    const Int next_shape = ceil_div(curr_shape, abs(f.rest_stride));
    const Int next_stride = ceil_div(abs(f.rest_stride), curr_shape) * signum(f.rest_stride);
    LAYOUTX_TRACE(diag.trace(), "shape_div", "next_shape", next_shape, "next_stride", next_stride);
    if (next_shape.is_constant(1) || f.rest_shape.is_constant(1)) {
      LAYOUTX_TRACE(diag.trace(), "no mode", "reason",
                    next_shape.is_constant(1) ? "next_shape is 1" : "rest_shape is 1");
      f.rest_stride = next_stride;
      continue;
    }
    const Int new_shape = min(next_shape, f.rest_shape);
    check_shape_divisibility(f.rest_shape, new_shape, i, lhs_shape, diag);
    if (f.weak_stride_accepted && f.rest_shape.value > new_shape.value) weak_stride_accepted = true;
    f.result_shape.emplace_back(new_shape);
    f.result_stride.emplace_back(f.rest_stride * curr_stride);
    LAYOUTX_TRACE(diag.trace(), "mode", "shape", f.result_shape.back(), "stride", f.result_stride.back());
    f.rest_shape = f.rest_shape / new_shape;
    f.rest_stride = next_stride;
  }
  const Int last_stride = lhs_stride[r - 1].value();
  LAYOUTX_TRACE(diag.trace(), "last lhs mode", "curr_stride", last_stride, "rest_shape", f.rest_shape, "rest_stride",
                f.rest_stride);
  if (f.result_shape.empty()) return Layout{f.rest_shape, f.rest_stride * last_stride};
  if (f.rest_shape.is_constant(1))
    return Layout{unwrap(IntTuple(std::move(f.result_shape))), unwrap(IntTuple(std::move(f.result_stride)))};
  f.result_shape.emplace_back(f.rest_shape);
  f.result_stride.emplace_back(f.rest_stride * last_stride);
  return Layout{IntTuple(std::move(f.result_shape)), IntTuple(std::move(f.result_stride))};
}

// make_layout(modes) moving the modes in (make_layout copies them).
Layout composed_modes(std::vector<Layout>&& modes) {
  std::vector<IntTuple> shapes, strides;
  shapes.reserve(modes.size());
  strides.reserve(modes.size());
  for (Layout& m : modes) {
    shapes.push_back(std::move(m.shape));
    strides.push_back(std::move(m.stride));
  }
  return Layout{IntTuple(std::move(shapes)), IntTuple(std::move(strides))};
}

Layout composition_impl(const IntTuple& lhs_shape, const IntTuple& lhs_stride, const IntTuple& rhs_shape,
                        const IntTuple& rhs_stride, bool& weak, Diagnostics& diag) {
  if (rhs_shape.is_tuple()) {  // right-distributivity over the rhs modes
    const int r = rhs_shape.rank();
    std::vector<IntTuple> shapes, strides;
    shapes.reserve(r);
    strides.reserve(r);
    for (int i = 0; i < r; ++i) {
      Layout m = composition_impl(lhs_shape, lhs_stride, rhs_shape[i], rhs_stride[i], weak, diag);
      shapes.push_back(std::move(m.shape));
      strides.push_back(std::move(m.stride));
    }
    return Layout{IntTuple(std::move(shapes)), IntTuple(std::move(strides))};
  }
  LAYOUTX_TRACE_SCOPE(diag.trace(), "rhs mode", "shape", rhs_shape, "stride", rhs_stride);
  if (const Int d = rhs_stride.value(); d.is_scaled_basis()) {
    // A stride v@(N0,N1,...) composes with mode (N0,N1,...) of A by v (CuTe's basis_get).
    const IntTuple* s = &lhs_shape;
    const IntTuple* t = &lhs_stride;
    for (int k = 0; k < d.basis.rank; ++k) {
      const int m = d.basis.modes[k];
      if (m >= s->rank())
        throw Error(fmt::format("the stride {} of the right-hand layout names mode {} of {}, which has rank {}",
                                to_text(d, diag.notation()), m, to_text(*s, diag.notation()), s->rank()));
      s = &(*s)[m];
      t = &(*t)[m];
    }
    return composition_impl(*s, *t, rhs_shape, IntTuple(Int{d.value, d.is_static}), weak, diag);
  }
  if (rhs_stride.value().is_constant(0))
    LAYOUTX_TRACE(diag.trace(), "mode", "shape", rhs_shape, "stride", rhs_stride, "why", "a static stride 0 is kept");
  if (rhs_stride.value().is_constant(0)) return Layout{rhs_shape, rhs_stride};
  if (lhs_shape.is_leaf())
    LAYOUTX_TRACE(diag.trace(), "mode", "shape", rhs_shape, "stride", rhs_stride.value() * lhs_stride.value(), "why",
                  "the lhs is a single mode");
  if (lhs_shape.is_leaf()) return Layout{rhs_shape, rhs_stride.value() * lhs_stride.value()};
  return compose_mode(lhs_shape, lhs_stride, rhs_shape.value(), rhs_stride.value(), weak, diag);
}

void report_weak_composition(const Layout& a, const Layout& b, const Layout& r, Diagnostics& diag) {
  const Notation notation = diag.notation();
  const std::int64_t n = size(b).value;
  if (n <= kVerifyLimit) {
    for (std::int64_t i = 0; i < n; ++i) {
      const Int want = evaluate(a, IntTuple(evaluate(b, IntTuple(static_int(i)))));
      const Int got = evaluate(r, IntTuple(static_int(i)));
      if (want.value != got.value) {
        diag.warn(
            "Stride Divisibility Condition",
            fmt::format("composition({}, {}) = {} is CuTe's answer but not A o B: CuTe's weak stride divisibility "
                        "check accepted a stride that does not divide a mode of A (at index {}: A(B({})) = {}, "
                        "result = {})",
                        to_text(a, notation), to_text(b, notation), to_text(r, notation), i, i, want.value, got.value));
        return;
      }
    }
    return;
  }
  diag.warn(
      "Stride Divisibility Condition",
      fmt::format("composition({}, {}) = {} is CuTe's answer, but CuTe's weak stride divisibility check accepted a "
                  "stride that does not divide a mode of A, so it is not A o B",
                  to_text(a, notation), to_text(b, notation), to_text(r, notation)));
}

// Each leaf of B becomes up to one mode per mode of A, so nested compositions
// of dynamic size-1 modes (which coalesce keeps) grow exponentially; refuse a
// result past any layout a kernel uses before building it.
void check_result_modes(const Layout& flat_a, const Layout& b) {
  const std::size_t leaves_of_b = leaf_count(b.shape);
  const std::size_t bound = leaves_of_b * static_cast<std::size_t>(std::max(1, rank(flat_a)));
  if (bound > kMaxComposedModes)
    throw Error(
        fmt::format("the composition could have {} modes ({} modes of A times {} of B), more than "
                    "the {} layoutx builds",
                    bound, rank(flat_a), leaves_of_b, kMaxComposedModes));
}

// coalesce_x(A, profile): coalesce_x at the profile's terminals, A's other modes kept.
Layout coalesce_x(const Layout& a, const IntTuple& profile, Notation n) {
  if (profile.is_leaf()) return coalesce_x(a);
  if (profile.rank() > rank(a))
    throw Error(
        fmt::format("static_assert(tuple_size<IntTuple>::value <= Layout<Shape,Stride>::rank): the right-hand "
                    "layout's coordinates have {} modes but {} has rank {}",
                    profile.rank(), to_text(a, n), rank(a)));
  std::vector<Layout> modes;
  for (int i = 0; i < rank(a); ++i)
    modes.push_back(i < profile.rank() ? coalesce_x(get(a, i), profile[i], n) : get(a, i));
  return make_layout(modes);
}

// CuTe's coprofile(B): the codomain's structure, the sum of B's strides as an arithmetic tuple.
IntTuple coprofile(const Layout& b) {
  IntTuple sum = static_int(0);
  for (const Int d : leaves(b.stride)) sum = coordinate_sum(sum, d);
  if (sum.is_leaf()) sum = as_arithmetic_tuple(sum.value());
  return repeat_like(sum, static_int(0));
}

}  // namespace

Layout composition(const Layout& a, const Layout& b, Diagnostics& diag) {
  LAYOUTX_TRACE_SCOPE(diag.trace(), "composition", "A", a, "B", b);
  // A right-hand layout with scaled-basis strides picks A's modes: A is coalesced mode by mode.
  const Layout flat = is_coordinate_layout(b) ? coalesce_x(a, coprofile(b), diag.notation()) : coalesce_x(a);
  LAYOUTX_TRACE(diag.trace(), "coalesced lhs", "A", flat);
  check_result_modes(flat, b);
  bool weak = false;
  Layout r = composition_impl(flat.shape, flat.stride, b.shape, b.stride, weak, diag);
  if (weak && !is_coordinate_layout(a) && !is_coordinate_layout(b)) report_weak_composition(a, b, r, diag);
  LAYOUTX_TRACE(diag.trace(), "result", "R", r);
  return r;
}

Layout composition(const Layout& a, const Tiler& b, Diagnostics& diag) {
  switch (b.kind) {
    case Tiler::Kind::Layout: return composition(a, b.layout, diag);
    case Tiler::Kind::Underscore: return a;
    case Tiler::Kind::Integer: {
      LAYOUTX_TRACE_SCOPE(diag.trace(), "composition", "A", a, "B", Layout{b.extent, static_int(1)});
      const Layout flat = coalesce_x(a);
      LAYOUTX_TRACE(diag.trace(), "coalesced lhs", "A", flat);
      bool weak = false;
      Layout r = composition_impl(flat.shape, flat.stride, b.extent, static_int(1), weak, diag);
      if (weak && !is_coordinate_layout(a)) report_weak_composition(a, Layout{b.extent, static_int(1)}, r, diag);
      LAYOUTX_TRACE(diag.trace(), "result", "R", r);
      return r;
    }
    case Tiler::Kind::Tuple: break;
  }
  if (static_cast<int>(b.modes.size()) > rank(a))
    throw Error(
        fmt::format("static_assert(tuple_size<Tiler>::value <= Layout<LShape,LStride>::rank): the tiler has {} modes "
                    "but {} has rank {}",
                    b.modes.size(), to_text(a, diag.notation()), rank(a)));
  LAYOUTX_TRACE_SCOPE(diag.trace(), "composition by mode", "A", a);
  // Modes of a not covered by the tiler are dropped.
  std::vector<Layout> modes;
  for (size_t i = 0; i < b.modes.size(); ++i)
    modes.push_back(composition(get(a, static_cast<int>(i)), b.modes[i], diag));
  return composed_modes(std::move(modes));
}

}  // namespace layoutx
