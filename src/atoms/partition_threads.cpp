#include "layoutx/partition_threads.hpp"

#include <fmt/format.h>

#include "layoutx/algebra.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/tensor_partition.hpp"

namespace layoutx {

namespace {

// Every thread's partition is held at once: past this many, one thread at a time.
constexpr std::int64_t kMaxListedThreads = 1 << 16;

// The modes of the CTA tile (M,N,K) an MMA operand keeps: local_tile's
// projections Step<_1,X,_1> (A), Step<X,_1,_1> (B), Step<_1,_1,X> (C).
std::vector<int> operand_modes(const Partitioner& p) {
  if (!p.mma) return {};
  if (p.operand == 'A') return {0, 2};
  if (p.operand == 'B') return {1, 2};
  return {0, 1};
}

std::vector<Value> projected(const std::vector<Value>& all, const std::vector<int>& modes) {
  if (modes.empty()) return all;
  std::vector<Value> kept;
  for (int m : modes) kept.push_back(all.at(static_cast<std::size_t>(m)));
  return kept;
}

std::vector<Value> tuple_elements(const Value& v) {
  if (v.kind == Value::Kind::Tuple) return v.elems;
  return {v};
}

Value underscore_modes(int n) {
  if (n == 1) return Value::tag(Value::Kind::Underscore);
  return Value::tuple(std::vector<Value>(static_cast<std::size_t>(n), Value::tag(Value::Kind::Underscore)));
}

Value one_or_tuple(std::vector<Value> v) { return v.size() == 1 ? v.front() : Value::tuple(std::move(v)); }

// local_tile(tensor, tile, coord, projection): zipped_divide by the kept modes
// of the tile, sliced at ((_,...), coord).
TensorSlice cta_tile(const Partitioner& p, const PartitionRequest& r, const Layout& l, Diagnostics& diag) {
  const Notation n = diag.notation();
  const IntTuple origin = codomain_zero(l);
  if (!r.tile) return {l, origin};
  const std::vector<int> modes = operand_modes(p);
  std::vector<Value> extents;
  for (const IntTuple& e : r.tile->is_leaf() ? std::vector<IntTuple>{*r.tile} : r.tile->elems())
    extents.push_back(Value::of(e));
  if (p.mma && extents.size() != 3)
    throw Error(fmt::format("an MMA's CTA tile has three modes (M,N,K), not {}", to_text(*r.tile, n)));
  std::vector<Value> coord = tuple_elements(*r.tile_coord);
  if (coord.size() != extents.size())
    throw Error(fmt::format("the tile coordinate {} has {} modes; the tile {} has {}", to_text(*r.tile_coord, n),
                            coord.size(), to_text(*r.tile, n), extents.size()));
  extents = projected(extents, modes);
  coord = projected(coord, modes);
  if (static_cast<int>(extents.size()) != l.shape.rank())
    throw Error(
        fmt::format("the tile covers {} modes; the tensor {} has {}", extents.size(), to_text(l, n), l.shape.rank()));
  std::vector<Tiler> tiler;
  for (const Value& e : extents) {
    if (e.kind != Value::Kind::Integer)
      throw Error(fmt::format("each mode of the CTA tile is an extent, not {}", to_text(e, n)));
    tiler.push_back(Tiler::of(e.integer));
  }
  const Layout tiled = zipped_divide(l, Tiler::tuple(tiler), diag);
  const Value at = Value::tuple({underscore_modes(tiled.shape[0].rank()), one_or_tuple(coord)});
  return tensor_slice(origin, tiled, at, n);
}

TensorSlice partition_of(const Partitioner& p, Int t, const Layout& l, Diagnostics& diag) {
  switch (p.operand) {
    case 'A': return partition_A(*p.mma, t, l, diag);
    case 'B': return partition_B(*p.mma, t, l, diag);
    case 'C': return partition_C(*p.mma, t, l, diag);
    case 'S': return partition_S(*p.copy, t, l, diag);
    default: return partition_D(*p.copy, t, l, diag);
  }
}

Layout fragment_of(const Partitioner& p, Int t, const Layout& l, Diagnostics& diag) {
  if (p.operand == 'A') return partition_fragment_A(*p.mma, t, l, diag);
  if (p.operand == 'B') return partition_fragment_B(*p.mma, t, l, diag);
  return partition_fragment_C(*p.mma, t, l, diag);
}

// The tensor's inner layout, and the swizzle its addresses go through: a
// canonical shared-memory atom's byte-address swizzle recast to elements.
Layout inner_and_swizzle(const PartitionRequest& r, AccessModel& model, Notation n) {
  if (const auto* l = std::get_if<Layout>(&r.tensor)) return *l;
  ComposedLayout c = std::get<ComposedLayout>(r.tensor);
  if (c.pointer) {
    if (c.pointer->bits != r.bits)
      throw Error(fmt::format("{} points to {}-bit elements, but the elements are {} bits (--bits)", to_text(c, n),
                              c.pointer->bits, r.bits));
    model.swizzled_pointer = true;
    const AnyLayout addressed = position_independent(c);
    if (const auto* l = std::get_if<Layout>(&addressed)) return *l;
    c = std::get<ComposedLayout>(addressed);
  }
  model.swizzle = c;
  return c.layout;
}

}  // namespace

PartitionAnswer partition_threads(const Partitioner& p, const PartitionRequest& r, Diagnostics& diag) {
  const Notation n = diag.notation();
  PartitionAnswer a;
  const Layout inner = inner_and_swizzle(r, a.model, n);
  require_integer_strides(inner, "partition");
  a.threads = p.mma ? thread_count(*p.mma) : thread_count(*p.copy);
  if (r.thread && (*r.thread < 0 || *r.thread >= a.threads.value))
    throw Error(fmt::format("thread {} is not one of the {} threads (0 to {})", *r.thread, a.threads.value,
                            a.threads.value - 1));
  if (!r.thread && a.threads.value > kMaxListedThreads)
    throw Error(fmt::format("{} threads are more than the {} layoutx lists at once; ask for one thread (--thread)",
                            a.threads.value, kMaxListedThreads));
  if (r.tile.has_value() != r.tile_coord.has_value())
    throw Error("a CTA tile and its coordinate go together (--tile and --tile-coord)");
  const IntTuple flat_shape = product_each(inner.shape);
  a.model.bound = r.problem ? *r.problem : flat_shape;
  if (a.model.bound.rank() != flat_shape.rank())
    throw Error(fmt::format("the problem {} has rank {}; the tensor {} has rank {}", to_text(a.model.bound, n),
                            a.model.bound.rank(), to_text(inner, n), flat_shape.rank()));
  a.model.max_vector = 128 / r.bits > 0 ? 128 / r.bits : 1;
  const TensorSlice tile = cta_tile(p, r, inner, diag);
  const TensorSlice coords = cta_tile(p, r, make_identity_layout(flat_shape), diag);
  a.tile = tile.layout;
  a.tile_origin = tile.origin;
  a.tile_coord_origin = coords.origin;
  const std::int64_t first = r.thread ? *r.thread : 0, last = r.thread ? *r.thread + 1 : a.threads.value;
  for (std::int64_t t = first; t < last; ++t) {
    const Int thread = dynamic_int(t);
    const TensorSlice data = partition_of(p, thread, tile.layout, diag);
    const TensorSlice coord = partition_of(p, thread, coords.layout, diag);
    ThreadPartition part{thread,
                         data.layout,
                         coordinate_sum(tile.origin, data.origin).value(),
                         coord.layout,
                         coordinate_sum(coords.origin, coord.origin),
                         std::nullopt};
    if (p.mma && a.no_fragment.empty()) {
      try {
        part.fragment = fragment_of(p, thread, tile.layout, diag);
      } catch (const Error& e) {
        a.no_fragment = e.what();
      }
    }
    if (p.copy) a.model.max_vector = size(get(data.layout, 0)).value;
    a.parts.push_back(std::move(part));
  }
  return a;
}

TileTv tile_tv(const Partitioner& p, const PartitionAnswer& a, Diagnostics& diag) {
  const Notation n = diag.notation();
  if (a.tile.shape.rank() < 2)
    throw Error(fmt::format("a picture needs a tile of two modes; {} has one", to_text(a.tile, n)));
  const Int rows = product(a.tile.shape[0]), cols = product(a.tile.shape[1]);
  const Layout compact = make_layout(IntTuple::tuple({rows, cols}));
  if (p.mma) {
    const Layout frg = p.operand == 'A'   ? thrfrg_A(*p.mma, compact, diag)
                       : p.operand == 'B' ? thrfrg_B(*p.mma, compact, diag)
                                          : thrfrg_C(*p.mma, compact, diag);
    const OperandTv op = p.operand == 'A'   ? operand_A(*p.mma, diag)
                         : p.operand == 'B' ? operand_B(*p.mma, diag)
                                            : operand_C(*p.mma, diag);
    return {make_layout({get(frg, 0), get(frg, 1)}), op.thr_id, rows, cols};
  }
  const Layout frg = p.operand == 'S' ? tidfrg_S(*p.copy, compact, diag) : tidfrg_D(*p.copy, compact, diag);
  const Layout values = make_layout({get(frg, 1), get(frg, 2)});
  return {make_layout({get(frg, 0), values}), make_layout(IntTuple(size(get(frg, 0)))), rows, cols};
}

}  // namespace layoutx
