// The divides and products (CuTe layout.hpp, "Logical divide" / "Logical product").
#include <fmt/format.h>

#include <algorithm>

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
  std::vector<Layout> modes;
  for (int i = 0; i < rank(l); ++i)
    modes.push_back(i < static_cast<int>(t.modes.size()) ? f(get(l, i), t.modes[i]) : get(l, i));
  return make_layout(modes);
}

Layout tile_unzip(const Layout& l, const Tiler& t, Diagnostics& diag) {
  const IntTuple profile = t.profile();
  LAYOUTX_TRACE(diag.trace(), "tile_unzip", "L", l, "tiler profile", profile);
  return Layout{zip2_by(l.shape, profile), zip2_by(l.stride, profile)};
}

Layout divide_by_layout(const Layout& l, const Layout& tiler, Diagnostics& diag) {
  LAYOUTX_TRACE_SCOPE(diag.trace(), "logical_divide", "L", l, "tiler", tiler);
  const Layout rest = complement(tiler, coalesce(l).shape, diag);
  LAYOUTX_TRACE(diag.trace(), "complement gives", "cotarget", coalesce(l).shape, "rest", rest);
  return composition(l, make_layout(std::vector<Layout>{tiler, rest}), diag);
}

Layout product_by_layout(const Layout& block, const Layout& tiler, Diagnostics& diag) {
  LAYOUTX_TRACE_SCOPE(diag.trace(), "logical_product", "block", block, "tiler", tiler);
  const Layout rest = complement(block, size(block) * cosize(tiler), diag);
  LAYOUTX_TRACE(diag.trace(), "complement gives", "cotarget", size(block) * cosize(tiler), "rest", rest);
  return make_layout(std::vector<Layout>{block, composition(rest, tiler, diag)});
}

// slice(( _, (_,...,_) ), layout): mode 0 kept whole, mode `which` unpacked.
IntTuple unpack(const IntTuple& t, bool first, bool second) {
  std::vector<IntTuple> out;
  for (int m = 0; m < 2; ++m) {
    const IntTuple& mode = t[m];
    const bool open = (m == 0 ? first : second) && mode.is_tuple() && mode.rank() > 1;
    if (open)
      out.insert(out.end(), mode.elems().begin(), mode.elems().end());
    else
      out.push_back(mode);
  }
  return IntTuple(std::move(out));
}

}  // namespace

Layout unpack_rest(const Layout& z) { return Layout{unpack(z.shape, false, true), unpack(z.stride, false, true)}; }

Layout unpack_both(const Layout& z) { return Layout{unpack(z.shape, true, true), unpack(z.stride, true, true)}; }

Layout logical_divide(const Layout& l, const Tiler& t, Diagnostics& diag) {
  switch (t.kind) {
    case Tiler::Kind::Layout:
      return divide_by_layout(l, t.layout, diag);
    case Tiler::Kind::Integer:
      return divide_by_layout(l, make_layout(t.extent), diag);
    case Tiler::Kind::Underscore:
      return l;
    case Tiler::Kind::Tuple:
      break;
  }
  return by_mode(l, t, "logical_divide: Too many modes in tiler.", diag,
                 [&](const Layout& m, const Tiler& tm) { return logical_divide(m, tm, diag); });
}

Layout zipped_divide(const Layout& l, const Tiler& t, Diagnostics& diag) {
  return tile_unzip(logical_divide(l, t, diag), t, diag);
}
Layout tiled_divide(const Layout& l, const Tiler& t, Diagnostics& diag) { return unpack_rest(zipped_divide(l, t, diag)); }
Layout flat_divide(const Layout& l, const Tiler& t, Diagnostics& diag) { return unpack_both(zipped_divide(l, t, diag)); }

Layout logical_product(const Layout& block, const Tiler& t, Diagnostics& diag) {
  switch (t.kind) {
    case Tiler::Kind::Layout:
      return product_by_layout(block, t.layout, diag);
    case Tiler::Kind::Integer:
      return product_by_layout(block, make_layout(t.extent), diag);
    case Tiler::Kind::Underscore:
      return block;
    case Tiler::Kind::Tuple:
      break;
  }
  return by_mode(block, t, "logical_product: Too many modes in tiler.", diag,
                 [&](const Layout& m, const Tiler& tm) { return logical_product(m, tm, diag); });
}

Layout zipped_product(const Layout& block, const Tiler& t, Diagnostics& diag) {
  return tile_unzip(logical_product(block, t, diag), t, diag);
}
Layout tiled_product(const Layout& block, const Tiler& t, Diagnostics& diag) {
  return unpack_rest(zipped_product(block, t, diag));
}
Layout flat_product(const Layout& block, const Tiler& t, Diagnostics& diag) {
  return unpack_both(zipped_product(block, t, diag));
}

Layout blocked_product(const Layout& block, const Layout& tiler, Diagnostics& diag) {
  const int r = std::max(rank(block), rank(tiler));
  const Layout p = product_by_layout(append_to_rank(block, r), append_to_rank(tiler, r), diag);
  LAYOUTX_TRACE(diag.trace(), "zip", "blocked_product zips", p, "as", "(block mode i, tiler mode i) per mode");
  return zip(get(p, 0), get(p, 1));
}

Layout raked_product(const Layout& block, const Layout& tiler, Diagnostics& diag) {
  const int r = std::max(rank(block), rank(tiler));
  const Layout p = product_by_layout(append_to_rank(block, r), append_to_rank(tiler, r), diag);
  LAYOUTX_TRACE(diag.trace(), "zip", "raked_product zips", p, "as", "(tiler mode i, block mode i) per mode");
  return zip(get(p, 1), get(p, 0));
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
      throw Error(fmt::format("tile_to_shape needs static integers: with the static target shape {} CuTe checks that "
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
