// CuTe's layout algebra on plain layouts (layout.hpp), with CuTe's exact
// result structure. Preconditions CuTe checks with static_assert throw Error
// naming CuTe's condition; answers CuTe gives that break the operation's
// meaning are returned with a warning in the caller's Diagnostics.
#pragma once

#include <optional>

#include "layoutx/layout.hpp"
#include "layoutx/tiler.hpp"

namespace layoutx {

// @post depth(result) <= 1, result(i) == l(i) for i < size(l)
Layout coalesce(const Layout& l);
// @post coalesce applied at the terminals of profile, other modes kept
Layout coalesce(const Layout& l, const IntTuple& profile);
// @post like coalesce, but the function is kept outside the domain too (detail::coalesce_x)
Layout coalesce_x(const Layout& l);
// @post size-1 replaces every static stride-0 mode
Layout filter_zeros(const Layout& l);
// @post no stride-0 or size-1 modes (or _1:_0), coalesced
Layout filter(const Layout& l);
Layout filter(const Layout& l, const IntTuple& profile);

// @post result(c) == a(b(c)) for c in the domain of b, compatible(b, result)
Layout composition(const Layout& a, const Layout& b, Diagnostics& diag);
Layout composition(const Layout& a, const Tiler& b, Diagnostics& diag);

// @post result is ordered, disjoint from l's image, and fills cotarget
Layout complement(const Layout& l, const IntTuple& cotarget, Diagnostics& diag);
Layout complement(const Layout& l, Diagnostics& diag);

// @post l(result(i)) == i for i < size(result); the steps go to `recorder`, if any
Layout right_inverse(const Layout& l, trace::Recorder* recorder = nullptr);
// @post result(l(i)) == i for i < size(l) (l injective)
Layout left_inverse(const Layout& l, trace::Recorder* recorder = nullptr);

// @post size and offsets of l kept, modes regrouped as ((tile),(rest)) per tiler mode
Layout logical_divide(const Layout& l, const Tiler& t, Diagnostics& diag);
Layout zipped_divide(const Layout& l, const Tiler& t, Diagnostics& diag);
Layout tiled_divide(const Layout& l, const Tiler& t, Diagnostics& diag);
Layout flat_divide(const Layout& l, const Tiler& t, Diagnostics& diag);

// @post mode 0 is the block, mode 1 the tiler's layout of block copies
Layout logical_product(const Layout& block, const Tiler& t, Diagnostics& diag);
Layout zipped_product(const Layout& block, const Tiler& t, Diagnostics& diag);
Layout tiled_product(const Layout& block, const Tiler& t, Diagnostics& diag);
Layout flat_product(const Layout& block, const Tiler& t, Diagnostics& diag);
// @post rank(result) == max(rank(block), rank(tiler))
Layout blocked_product(const Layout& block, const Layout& tiler, Diagnostics& diag);
Layout raked_product(const Layout& block, const Layout& tiler, Diagnostics& diag);
// @post compatible(target, shape(result)); order defaults to LayoutLeft
Layout tile_to_shape(const Layout& block, const IntTuple& target, const std::optional<IntTuple>& order,
                     Diagnostics& diag);

// @post a(result(i)) == i and b(result(i)) == i for i < size(result)
Layout max_common_layout(const Layout& a, const Layout& b, Diagnostics& diag);
Int max_common_vector(const Layout& a, const Layout& b, Diagnostics& diag);

// @post l(result(i)) == 0 for i < size(result)
Layout nullspace(const Layout& l);

// Element-size changes: upcast<N> groups N elements into one, downcast<N> splits one into N.
Layout upcast(const Layout& l, std::int64_t n, Diagnostics& diag);
Layout downcast(const Layout& l, std::int64_t n);
// recast_layout<OldBits,NewBits>: the layout for the same bytes viewed with NewBits-wide elements.
Layout recast_layout(const Layout& l, std::int64_t old_bits, std::int64_t new_bits, Diagnostics& diag);

// filter_zeros(stride, shape): size 1 wherever the stride is a static 0.
IntTuple filter_zeros(const IntTuple& stride, const IntTuple& shape);
// @post compact, same shape, strides ordered like l's (static-0 strides kept)
Layout make_layout_like(const Layout& l);
// @post compact, mode 0 column-major, the other modes ordered like l's
Layout make_fragment_like(const Layout& l, Diagnostics& diag);
// @post the largest N for which upcast<N>(l) is valid on the static part of l
Int max_alignment(const Layout& l, Diagnostics& diag);
// @post an ordered layout of at most b elements spread over shape_a
Layout domain_distribute(const IntTuple& shape_a, Int b);

// The modes of `l` sliced with (_, (_,...,_)) / ((_,...),(_,...)): unpack mode 1 (or both).
Layout unpack_rest(const Layout& zipped);
Layout unpack_both(const Layout& zipped);

}  // namespace layoutx
