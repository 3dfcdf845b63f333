#include "layoutx/thread_accesses.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/error.hpp"

namespace layoutx {

namespace {

// A layout's leaves (flattened shape and stride), walked by an odometer in
// CuTe's index order (the first mode fastest).
struct FlatLeaves {
  std::vector<std::int64_t> shape;
  std::vector<Int> stride;
};

FlatLeaves flat_leaves(const Layout& l) {
  FlatLeaves f;
  for (const Int& s : leaves(l.shape)) f.shape.push_back(s.value);
  f.stride = leaves(l.stride);
  return f;
}

bool next_index(std::vector<std::int64_t>& idx, const std::vector<std::int64_t>& shape) {
  for (std::size_t j = 0; j < idx.size(); ++j) {
    if (++idx[j] < shape[j]) return true;
    idx[j] = 0;
  }
  return false;
}

std::vector<std::int64_t> partition_offsets(const Layout& l, Int origin, const AccessModel& model) {
  const FlatLeaves f = flat_leaves(l);
  const Int n = size(l);
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(n.value));
  std::vector<std::int64_t> idx(f.shape.size(), 0);
  for (std::int64_t i = 0; i < n.value; ++i) {
    std::int64_t offset = origin.value;
    for (std::size_t j = 0; j < idx.size(); ++j)
      offset = checked_add(offset, checked_mul(idx[j], f.stride[j].value, "an element offset"), "an element offset");
    out.push_back(model.swizzle ? apply_swizzles(*model.swizzle, dynamic_int(offset)).value : offset);
    next_index(idx, f.shape);
  }
  return out;
}

// A coordinate flattened to its leaves (a one-level arithmetic tuple; an integer is one leaf).
std::vector<std::int64_t> coordinate_leaves(const IntTuple& c) {
  std::vector<std::int64_t> out;
  for (const Int& v : leaves(c)) out.push_back(v.value);
  return out;
}

// Identity-tensor partitions have single-mode scaled-basis strides (v@m) and
// a flat origin: walked directly. Anything else through evaluate_coordinate.
bool walkable(const Layout& l, const IntTuple& origin) {
  if (depth(origin) > 1) return false;
  for (const Int& d : leaves(l.stride))
    if (d.basis.rank > 1 || (d.basis.rank == 0 && d.value != 0)) return false;
  return true;
}

void partition_coordinates(const Layout& l, const IntTuple& origin, ThreadAccesses& t) {
  const Int n = size(l);
  if (!walkable(l, origin)) {
    std::vector<std::vector<std::int64_t>> all;
    std::size_t rank = 0;
    for (std::int64_t i = 0; i < n.value; ++i) {
      all.push_back(coordinate_leaves(coordinate_sum(origin, evaluate_coordinate(l, IntTuple(static_int(i))))));
      rank = std::max(rank, all.back().size());
    }
    t.coord_rank = static_cast<int>(rank);
    for (auto& c : all) {
      c.resize(rank, 0);
      t.coords.insert(t.coords.end(), c.begin(), c.end());
    }
    return;
  }
  const FlatLeaves f = flat_leaves(l);
  std::vector<std::int64_t> start = coordinate_leaves(origin);
  std::size_t rank = start.size();
  for (const Int& d : f.stride)
    if (d.basis.rank == 1) rank = std::max<std::size_t>(rank, d.basis.modes[0] + 1u);
  start.resize(rank, 0);
  t.coord_rank = static_cast<int>(rank);
  t.coords.reserve(static_cast<std::size_t>(n.value) * rank);
  std::vector<std::int64_t> idx(f.shape.size(), 0);
  for (std::int64_t i = 0; i < n.value; ++i) {
    std::vector<std::int64_t> c = start;
    for (std::size_t j = 0; j < idx.size(); ++j)
      if (f.stride[j].basis.rank == 1) {
        std::int64_t& leaf = c[f.stride[j].basis.modes[0]];
        leaf = checked_add(leaf, checked_mul(idx[j], f.stride[j].value, "a coordinate"), "a coordinate");
      }
    t.coords.insert(t.coords.end(), c.begin(), c.end());
    next_index(idx, f.shape);
  }
}

// elem_less(coordinate, bound), leaf by leaf (a coordinate with fewer leaves
// than the bound is padded with zeros, as CuTe's arithmetic tuples are).
void apply_predicate(const std::vector<std::int64_t>& bound, ThreadAccesses& t) {
  const std::size_t n = t.offsets.size(), r = static_cast<std::size_t>(t.coord_rank);
  t.in_bounds.assign(n, true);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < bound.size(); ++j) {
      const std::int64_t c = j < r ? t.coords[i * r + j] : 0;
      if (!(c < bound[j])) {
        t.in_bounds[i] = false;
        break;
      }
    }
    if (!t.in_bounds[i]) ++t.masked;
  }
}

}  // namespace

std::int64_t contiguous_vector(const std::vector<std::int64_t>& offsets, std::int64_t max_vector) {
  std::int64_t best = 1;
  for (std::int64_t v = 2; v <= max_vector; v *= 2) {
    if (offsets.size() % static_cast<std::size_t>(v) != 0) break;
    bool runs = true;
    for (std::size_t i = 0; runs && i < offsets.size(); i += static_cast<std::size_t>(v)) {
      if (floor_div(offsets[i], v) * v != offsets[i]) runs = false;
      for (std::size_t k = 1; runs && k < static_cast<std::size_t>(v); ++k)
        if (offsets[i + k] != offsets[i] + static_cast<std::int64_t>(k)) runs = false;
    }
    if (!runs) break;
    best = v;
  }
  return best;
}

std::vector<ThreadAccesses> thread_accesses(const std::vector<ThreadPartition>& parts, const AccessModel& model) {
  std::int64_t total = 0;
  for (const ThreadPartition& p : parts) {
    total = checked_add(total, size(p.layout).value, "the number of elements");
    if (size(p.coord_layout) != size(p.layout))
      throw Error(fmt::format("the identity partition {} has not the size of the partition {}", to_text(p.coord_layout),
                              to_text(p.layout)));
  }
  if (total > kMaxPartitionElements)
    throw Error(fmt::format("the partitions hold {} elements in all, more than the {} layoutx lists at once{}", total,
                            kMaxPartitionElements, parts.size() > 1 ? "; ask for one thread (--thread)" : ""));
  const std::vector<std::int64_t> bound = coordinate_leaves(model.bound);
  std::vector<ThreadAccesses> out;
  out.reserve(parts.size());
  for (const ThreadPartition& p : parts) {
    ThreadAccesses t;
    t.thread = p.thread;
    t.layout = p.layout;
    t.coord_layout = p.coord_layout;
    t.coord_origin = p.coord_origin;
    t.fragment = p.fragment;
    t.offsets = partition_offsets(p.layout, p.origin, model);
    // CuTe's tensor over Sw o smem_ptr_flag o L is a swizzled pointer and L:
    // slicing moves the pointer by the unswizzled offset. Over Sw o offset o L
    // the slice keeps the offset in the layout and the pointer moves by the
    // swizzled one (swizzle_layout.hpp's slice_and_offset).
    t.origin =
        model.swizzle && !model.swizzled_pointer ? dynamic_int(t.offsets.empty() ? 0 : t.offsets.front()) : p.origin;
    partition_coordinates(p.coord_layout, p.coord_origin, t);
    apply_predicate(bound, t);
    t.vector = contiguous_vector(t.offsets, model.max_vector);
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<Owner> owners_of(const std::vector<ThreadAccesses>& threads, const std::vector<std::int64_t>& coord) {
  std::vector<Owner> out;
  for (const ThreadAccesses& t : threads) {
    const std::size_t r = static_cast<std::size_t>(t.coord_rank);
    if (r != coord.size()) continue;
    for (std::size_t i = 0; i < t.offsets.size(); ++i)
      if (std::equal(coord.begin(), coord.end(), t.coords.begin() + static_cast<std::ptrdiff_t>(i * r)))
        out.push_back(Owner{t.thread, static_cast<std::int64_t>(i), t.offsets[i], t.in_bounds[i]});
  }
  return out;
}

}  // namespace layoutx
