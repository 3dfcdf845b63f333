// coalesce, coalesce_x, filter_zeros, filter (CuTe layout.hpp, "Coalesce and Filter").
#include <fmt/format.h>

#include "layoutx/algebra.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/leaf_list.hpp"

namespace layoutx {

namespace {

// detail::bw_coalesce: walk the flat modes right to left against the front
// of the new layout:  _1 modes vanish, a _1 front is replaced, s0:s1*d1 and
// s1:d1 merge when everything involved is static, otherwise prepend. The new
// modes are kept back to front (the front last), so prepending is a push;
// they are turned front first at the end.
void bw_coalesce(const LeafList& old_shape, const LeafList& old_stride, int last, Int last_shape, Int last_stride,
                 LeafList& shape, LeafList& stride) {
  shape.push_back(last_shape);
  stride.push_back(last_stride);
  for (int i = last; i >= 0; --i) {
    if (old_shape[i].is_constant(1)) continue;
    if (shape.size() == 1 && shape[0].is_constant(1)) {
      shape[0] = old_shape[i];
      stride[0] = old_stride[i];
      continue;
    }
    const Int front_shape = shape.back();
    const Int front_stride = stride.back();
    const Int reach = old_shape[i] * old_stride[i];
    // A scaled basis merges only with the same basis (CuTe's ScaledBasis == is false against anything else).
    if (front_shape.is_static && reach.is_static && front_stride.is_static && reach.value == front_stride.value &&
        reach.basis == front_stride.basis) {
      shape.back() = old_shape[i] * front_shape;
      stride.back() = old_stride[i];
    } else {
      shape.push_back(old_shape[i]);
      stride.push_back(old_stride[i]);
    }
  }
  if (shape.size() == 1 && shape[0].is_constant(1)) stride[0] = static_int(0);  // the trivial layout _1:_0
  shape.reverse();
  stride.reverse();
}

// The leaves of a shape and its stride side by side; false where the two
// are not congruent (filter_zeros then reports it).
bool congruent_leaves(const IntTuple& shape, const IntTuple& stride, LeafList& s, LeafList& d) {
  if (shape.is_leaf() || stride.is_leaf()) {
    if (!shape.is_leaf() || !stride.is_leaf()) return false;
    s.push_back(shape.value());
    d.push_back(stride.value());
    return true;
  }
  if (shape.rank() != stride.rank()) return false;
  for (int i = 0; i < shape.rank(); ++i)
    if (!congruent_leaves(shape.elems()[i], stride.elems()[i], s, d)) return false;
  return true;
}

void check_profile_rank(const Layout& l, const IntTuple& profile) {
  if (profile.rank() > rank(l))
    throw naming_values([&](Notation shown) {
      return fmt::format(
          "static_assert(tuple_size<IntTuple>::value <= Layout<Shape,Stride>::rank): profile {} has {} modes, layout "
          "{} has {}",
          to_text(profile, shown), profile.rank(), to_text(l, shown), rank(l));
    });
}

// transform_layout(layout, profile, f): f on the modes the profile covers, the rest kept.
template <class F>
Layout by_profile(const Layout& l, const IntTuple& profile, F f) {
  check_profile_rank(l, profile);
  std::vector<Layout> modes;
  for (int i = 0; i < rank(l); ++i) modes.push_back(i < profile.rank() ? f(get(l, i), profile[i]) : get(l, i));
  return make_layout(modes);
}

}  // namespace

void coalesce_modes(const LeafList& s, const LeafList& d, LeafList& shape, LeafList& stride) {
  const int r = static_cast<int>(s.size());
  if (r == 0) {
    shape.push_back(static_int(1));
    stride.push_back(static_int(0));
    return;
  }
  bw_coalesce(s, d, r - 2, s[r - 1], d[r - 1], shape, stride);
}

Layout layout_of_modes(const LeafList& shape, const LeafList& stride) {
  if (shape.size() == 1) return Layout{shape[0], stride[0]};
  return Layout{flat_tuple(shape), flat_tuple(stride)};
}

Layout coalesce_leaves(const LeafList& s, const LeafList& d) {
  LeafList shape, stride;
  coalesce_modes(s, d, shape, stride);
  return layout_of_modes(shape, stride);
}

Layout coalesce(const Layout& l) { return coalesce_leaves(leaf_list(l.shape), leaf_list(l.stride)); }

Layout coalesce(const Layout& l, const IntTuple& profile) {
  if (profile.is_leaf()) return coalesce(l);
  return by_profile(l, profile, [](const Layout& m, const IntTuple& p) { return coalesce(m, p); });
}

void coalesce_x_modes(const Layout& l, LeafList& shape, LeafList& stride) {
  const LeafList s = leaf_list(l.shape), d = leaf_list(l.stride);
  const int r = static_cast<int>(s.size());
  if (r == 0) {  // the trivial layout _1:_0
    shape.push_back(static_int(1));
    stride.push_back(static_int(0));
    return;
  }
  // A trailing _1 mode becomes _2 so that the layout keeps extending past its domain.
  const Int last = s[r - 1].is_constant(1) ? static_int(2) : s[r - 1];
  bw_coalesce(s, d, r - 2, last, d[r - 1], shape, stride);
}

Layout coalesce_x(const Layout& l) {
  LeafList shape, stride;
  coalesce_x_modes(l, shape, stride);
  return layout_of_modes(shape, stride);
}

Layout filter_zeros(const Layout& l) {
  IntTuple shape = transform_leaf(l.stride, l.shape, [](Int d, Int s) { return d.is_constant(0) ? static_int(1) : s; });
  return Layout{shape, l.stride};
}

// coalesce(filter_zeros(l)) on the leaves: a stride-0 mode's shape becomes _1.
void filter_modes(const Layout& l, LeafList& shape, LeafList& stride) {
  LeafList s, d;
  if (!congruent_leaves(l.shape, l.stride, s, d)) {  // filter_zeros reports what does not match
    const Layout zeros_filtered = filter_zeros(l);
    s = leaf_list(zeros_filtered.shape);
    d = leaf_list(zeros_filtered.stride);
  }
  for (std::size_t i = 0; i < s.size(); ++i)
    if (d[i].is_constant(0)) s[i] = static_int(1);
  coalesce_modes(s, d, shape, stride);
}

Layout filter(const Layout& l) {
  LeafList shape, stride;
  filter_modes(l, shape, stride);
  return layout_of_modes(shape, stride);
}

Layout filter(const Layout& l, const IntTuple& profile) {
  if (profile.is_leaf()) return filter(l);
  return by_profile(l, profile, [](const Layout& m, const IntTuple& p) { return filter(m, p); });
}

}  // namespace layoutx
