// The divides and products (CuTe layout.hpp, "Logical divide" / "Logical product").
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "layoutx/algebra.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/trace.hpp"

namespace layoutx {

namespace {

// transform_layout(layout, tiler, f): f mode by mode, uncovered modes kept.
template <class F>
Layout by_mode(const Layout& l, const Tiler& t, const char* too_many, Diagnostics& diag, F f) {
  if (static_cast<int>(t.modes.size()) > rank(l))
    throw Error(fmt::format("{}: the tiler has {} modes but {} has rank {}", too_many, t.modes.size(),
                            to_text(l, diag.notation()), rank(l)));
  LAYOUTX_TRACE_SCOPE(diag.trace(), "by mode", "L", l);
  const int r = rank(l);
  std::vector<IntTuple> shapes, strides;
  shapes.reserve(r);
  strides.reserve(r);
  for (int i = 0; i < r; ++i) {
    if (i < static_cast<int>(t.modes.size())) {
      Layout m = f(get(l, i), t.modes[i]);
      shapes.push_back(std::move(m.shape));
      strides.push_back(std::move(m.stride));
    } else {
      shapes.push_back(l.shape[i]);
      strides.push_back(l.stride[i]);
    }
  }
  return Layout{IntTuple(std::move(shapes)), IntTuple(std::move(strides))};
}

Layout tile_unzip(const Layout& l, const Tiler& t, Diagnostics& diag) {
  const IntTuple profile = t.profile();
  LAYOUTX_TRACE(diag.trace(), "tile_unzip", "L", l, "tiler profile", profile);
  return Layout{zip2_by(l.shape, profile), zip2_by(l.stride, profile)};
}

// make_layout(a, b), b's modes moved in.
Layout pair_of(const Layout& a, Layout&& b) {
  return Layout{IntTuple::pair(a.shape, std::move(b.shape)), IntTuple::pair(a.stride, std::move(b.stride))};
}

Layout divide_by_layout(const Layout& l, const Layout& tiler, Diagnostics& diag) {
  LAYOUTX_TRACE_SCOPE(diag.trace(), "logical_divide", "L", l, "tiler", tiler);
  const IntTuple cotarget = std::move(coalesce(l).shape);
  Layout rest = complement(tiler, cotarget, diag);
  LAYOUTX_TRACE(diag.trace(), "complement gives", "cotarget", cotarget, "rest", rest);
  return composition(l, pair_of(tiler, std::move(rest)), diag);
}

// logical_divide(s:d, n) of one integer mode by an integer n > 0 (not _1),
// step for step what divide_by_layout computes for it, with the same
// integers and the same overflow checks in the same order: the cotarget is
// s, complement(n:_1, s) is c:n with c = ceil_div(s, n) (stride _0 where c
// is _1), and s:d composed with (n,c):(_1,n) scales each stride by d (a
// stride _0 stays). No warning can arise on the way; with a trace the
// general path runs, for its steps.
std::optional<Layout> divide_mode_by_integer(const Layout& l, Int n, const Diagnostics& diag) {
  if (diag.trace() || !l.shape.is_leaf() || !l.stride.is_leaf() || n.is_scaled_basis() || n.value <= 0 ||
      n.is_constant(1))
    return std::nullopt;
  const Int s = l.shape.value(), d = l.stride.value();
  const Int covered = static_int(1) * n;  // complement's stride past the tile
  const Int c = ceil_div(s, covered);
  Int rest_stride = static_int(0);
  if (!c.is_constant(1)) {
    rest_stride = covered;
    (void)(covered * c);  // compact_col_major's running product: its overflow is an error there too
  }
  const Int tile_stride = static_int(1) * d;
  const Int rest_scaled = rest_stride.is_constant(0) ? rest_stride : rest_stride * d;
  return Layout{IntTuple::pair(n, c), IntTuple::pair(tile_stride, rest_scaled)};
}

// The second mode of logical_product(block, tiler): the tiler's layout of
// copies of the block, composed onto the block's complement.
Layout block_copies(const Layout& block, const Layout& tiler, Diagnostics& diag) {
  LAYOUTX_TRACE_SCOPE(diag.trace(), "logical_product", "block", block, "tiler", tiler);
  const Int cotarget = size(block) * cosize(tiler);
  const Layout rest = complement(block, cotarget, diag);
  LAYOUTX_TRACE(diag.trace(), "complement gives", "cotarget", cotarget, "rest", rest);
  return composition(rest, tiler, diag);
}

Layout product_by_layout(const Layout& block, const Layout& tiler, Diagnostics& diag) {
  return pair_of(block, block_copies(block, tiler, diag));
}

// append_to_rank(l, r), kept in `padded` where it adds modes; l itself otherwise.
const Layout& at_rank(const Layout& l, int r, Layout& padded) {
  if (rank(l) >= r) return l;
  padded = append_to_rank(l, r);
  return padded;
}

// slice(( _, (_,...,_) ), layout): mode 0 kept whole, mode `which` unpacked,
// the modes moved out of t.
IntTuple unpack(IntTuple&& t, bool first, bool second) {
  std::vector<IntTuple> out;
  for (int m = 0; m < 2; ++m) {
    static_cast<void>(t[m]);  // get<m>'s checks
    IntTuple& mode = t.is_tuple() ? t.elems()[m] : t;
    const bool open = (m == 0 ? first : second) && mode.is_tuple() && mode.rank() > 1;
    if (open)
      out.insert(out.end(), std::make_move_iterator(mode.elems().begin()), std::make_move_iterator(mode.elems().end()));
    else
      out.push_back(std::move(mode));
  }
  return IntTuple(std::move(out));
}

Layout unpacked(Layout&& z, bool first, bool second) {
  return Layout{unpack(std::move(z.shape), first, second), unpack(std::move(z.stride), first, second)};
}

}  // namespace

Layout unpack_rest(const Layout& z) { return unpacked(Layout(z), false, true); }

Layout unpack_both(const Layout& z) { return unpacked(Layout(z), true, true); }

Layout logical_divide(const Layout& l, const Tiler& t, Diagnostics& diag) {
  switch (t.kind) {
    case Tiler::Kind::Layout:
      // n:_1 is make_layout(n), the layout an integer tile n stands for.
      if (t.layout.shape.is_leaf() && t.layout.stride.is_leaf() && t.layout.stride.value().is_constant(1))
        if (std::optional<Layout> r = divide_mode_by_integer(l, t.layout.shape.value(), diag)) return std::move(*r);
      return divide_by_layout(l, t.layout, diag);
    case Tiler::Kind::Integer:
      if (std::optional<Layout> r = divide_mode_by_integer(l, t.extent, diag)) return std::move(*r);
      return divide_by_layout(l, make_layout(t.extent), diag);
    case Tiler::Kind::Underscore: return l;
    case Tiler::Kind::Tuple: break;
  }
  return by_mode(l, t, "logical_divide: Too many modes in tiler.", diag,
                 [&](const Layout& m, const Tiler& tm) { return logical_divide(m, tm, diag); });
}

Layout zipped_divide(const Layout& l, const Tiler& t, Diagnostics& diag) {
  return tile_unzip(logical_divide(l, t, diag), t, diag);
}
Layout tiled_divide(const Layout& l, const Tiler& t, Diagnostics& diag) {
  return unpacked(zipped_divide(l, t, diag), false, true);
}
Layout flat_divide(const Layout& l, const Tiler& t, Diagnostics& diag) {
  return unpacked(zipped_divide(l, t, diag), true, true);
}

Layout logical_product(const Layout& block, const Tiler& t, Diagnostics& diag) {
  switch (t.kind) {
    case Tiler::Kind::Layout: return product_by_layout(block, t.layout, diag);
    case Tiler::Kind::Integer: return product_by_layout(block, make_layout(t.extent), diag);
    case Tiler::Kind::Underscore: return block;
    case Tiler::Kind::Tuple: break;
  }
  return by_mode(block, t, "logical_product: Too many modes in tiler.", diag,
                 [&](const Layout& m, const Tiler& tm) { return logical_product(m, tm, diag); });
}

Layout zipped_product(const Layout& block, const Tiler& t, Diagnostics& diag) {
  return tile_unzip(logical_product(block, t, diag), t, diag);
}
Layout tiled_product(const Layout& block, const Tiler& t, Diagnostics& diag) {
  return unpacked(zipped_product(block, t, diag), false, true);
}
Layout flat_product(const Layout& block, const Tiler& t, Diagnostics& diag) {
  return unpacked(zipped_product(block, t, diag), true, true);
}

namespace {

// product_by_layout's two halves at a common rank, zipped mode by mode:
// (block mode i, copies mode i) for blocked_product, the other way for raked.
Layout zipped_halves(const Layout& block, const Layout& tiler, bool block_first, Diagnostics& diag) {
  const int r = std::max(rank(block), rank(tiler));
  Layout padded_block, padded_tiler;
  const Layout& b = at_rank(block, r, padded_block);
  const Layout copies = block_copies(b, at_rank(tiler, r, padded_tiler), diag);
  LAYOUTX_TRACE(diag.trace(), "zip", block_first ? "blocked_product zips" : "raked_product zips",
                pair_of(b, Layout(copies)), "as",
                block_first ? "(block mode i, tiler mode i) per mode" : "(tiler mode i, block mode i) per mode");
  return block_first ? zip(b, copies) : zip(copies, b);
}

}  // namespace

Layout blocked_product(const Layout& block, const Layout& tiler, Diagnostics& diag) {
  return zipped_halves(block, tiler, true, diag);
}

Layout raked_product(const Layout& block, const Layout& tiler, Diagnostics& diag) {
  return zipped_halves(block, tiler, false, diag);
}

Layout tile_to_shape(const Layout& block, const IntTuple& target, const std::optional<IntTuple>& order,
                     Diagnostics& diag) {
  const Notation n = diag.notation();
  const int r = target.rank();
  if (rank(block) > r)
    throw Error(fmt::format("Rank of layout must be <= rank of target shape.: {} has rank {}, {} has rank {}",
                            to_text(block, n), rank(block), to_text(target, n), r));
  const Layout padded = append_to_rank(block, r);
  const IntTuple block_shape = product_each(padded.shape);
  const IntTuple target_shape = product_each(target);
  // CuTe asserts evenly_divides only when the whole target shape is static, and
  // then the answer must be static too: a dynamic block size cannot be checked.
  const bool checked = is_static(target_shape);
  for (int i = 0; i < r; ++i) {
    const Int t = target_shape[i].value(), b = block_shape[i].value();
    if (b.value == 0) throw Error(fmt::format("tile_to_shape: mode {} of the block has size 0", i));
    if (!checked) continue;
    if (!b.is_static)
      throw StaticRequiredError(
          fmt::format("tile_to_shape needs static integers: with the static target shape {} CuTe checks that "
                      "the block divides it, which it cannot do for the dynamic block size {} of mode {}",
                      to_text(target, n), b.value, i));
    if ((t % b).value != 0)
      throw Error(fmt::format(
          "tile_to_shape: block shape does not divide the target shape.: mode {} of {} is {}, not a multiple of {}", i,
          to_text(target, n), t.value, b.value));
  }
  const IntTuple product_shape = ceil_div(target_shape, block_shape);
  const Layout tiler = order ? make_ordered_layout(product_shape, *order) : make_layout(product_shape);
  return blocked_product(padded, tiler, diag);
}

}  // namespace layoutx
