#include "layoutx/bounds_check.hpp"

#include <fmt/format.h>

#include "layoutx/tensor.hpp"

namespace layoutx {

namespace {

// elem_less(coord, bound), and not below zero: the coordinate is inside the tensor.
bool inside(const IntTuple& coord, const IntTuple& bound) {
  if (coord.is_leaf() && bound.is_leaf()) return coord.value().value >= 0 && coord.value().value < bound.value().value;
  if (coord.is_leaf() || bound.is_leaf() || coord.rank() != bound.rank()) return false;
  for (int i = 0; i < coord.rank(); ++i)
    if (!inside(coord[i], bound[i])) return false;
  return true;
}

}  // namespace

void BoundsCheck::record(const TracedCall& call) {
  if (!call.args || (call.name != "copy" && call.name != "copy_if")) return;
  const std::size_t n = call.args->size();
  if (n < 2) return;
  std::vector<bool> copied;
  for (const std::size_t side : {n - 2, n - 1}) {
    const Value& v = call.args->at(side);
    if (v.kind != Value::Kind::Tensor) continue;
    const Tensor& t = as_tensor(v);
    if (!t.iterator.bound) continue;
    if (copied.empty()) copied = copied_elements(call);
    std::int64_t outside = 0;
    const std::int64_t count = size(t.layout).value;
    for (std::int64_t i = 0; i < count; ++i)
      if (static_cast<std::size_t>(i) >= copied.size() || copied[static_cast<std::size_t>(i)])
        if (!inside(element(t, IntTuple(dynamic_int(i)), Notation{true}), *t.iterator.bound)) ++outside;
    if (outside == 0) continue;
    OutOfBounds& o = sites_[call.site];
    o.elements = checked_add(o.elements, outside, "the accesses outside a tensor");
    o.per_thread[call.thread] += outside;
    o.shape = to_text(*t.iterator.bound, Notation{true});
  }
}

Finding out_of_bounds_finding(const std::string& site, const OutOfBounds& o, bool predicated) {
  std::int64_t most = 0, thread = 0;
  for (const auto& [t, n] : o.per_thread)
    if (n > most) {
      most = n;
      thread = t;
    }
  return Finding{
      Finding::Kind::OutOfBounds, site,
      fmt::format("out of bounds: {} elements of thread {} ({} in all, {} thread{}) fall outside the global tensor "
                  "of shape {}",
                  most, thread, o.elements, o.per_thread.size(), o.per_thread.size() == 1 ? "" : "s", o.shape),
      predicated ? "the predicate lets them through: compare every mode of each element's coordinate with the "
                   "tensor's shape, tP(i) = elem_less(tC(i), shape(mX)), tC the identity tensor of mX's shape "
                   "tiled and partitioned as the copy's global side"
                 : "guard the copy with copy_if and a predicate: tP(i) = elem_less(tC(i), shape(mX)), tC "
                   "make_identity_tensor(shape(mX)) tiled and partitioned as the copy's global side"};
}

}  // namespace layoutx
