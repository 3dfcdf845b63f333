// The TMA copies as values of the atom language. make_tma_atom and
// make_tma_copy build on make_tma_copy's model (tma_copy.hpp); the TiledCopy
// make_tma_copy returns is an ordinary TiledCopy besides (get_slice,
// partition_S/D), carrying what the TMA adds: the coordinate tensor's strides
// and the barrier .with() gives it.
#include "layoutx/tma_language.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "atom_objects.hpp"
#include "layoutx/algebra.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/profile_relations.hpp"
#include "layoutx/tensor.hpp"
#include "layoutx/tma_partition.hpp"

namespace layoutx {

namespace {

// SM90_TMA_LOAD{} and the other operations make_tma_copy takes.
struct TmaOperationObject : ValueObject {
  std::string op;
  explicit TmaOperationObject(std::string o) : op(std::move(o)) {}
  std::string type_name() const override { return op; }
  std::string print(Notation) const override { return op; }
};

// make_tma_atom's Copy_Atom or make_tma_copy's TiledCopy.
struct TmaCopyObject : TiledCopyObject {
  TmaCopyValue tma;
  TmaCopyObject(TiledCopy c, TmaCopyValue t) : TiledCopyObject(std::move(c)), tma(std::move(t)) {}
  std::string type_name() const override { return tma.tiled ? "TiledCopy" : "Copy_Atom"; }
  std::string print(Notation n) const override {
    return tma.tiled ? to_text(copy, n) : copy_atom_text(copy.atom, copy.bits, copy.values, n);
  }
};

// The checks of a TMA function's call (names unique to this file: the atoms build as one unit).
struct TmaArgs {
  const ExtensionCall& c;

  void expect(std::size_t lo, std::size_t hi) const {
    if (c.args.size() >= lo && c.args.size() <= hi) return;
    const std::string want = lo == hi ? fmt::format("{}", lo) : fmt::format("{} to {}", lo, hi);
    throw Error(fmt::format("takes {} argument{}, got {}", want, hi == 1 ? "" : "s", c.args.size()));
  }
  std::string described(const Value& v) const {
    if (v.kind == Value::Kind::Object) return a_kind_name(v);
    return a_kind_name(v) + " " + to_text(v, c.diag.notation());
  }
  const TmaCopyObject& tma(std::size_t i) const {
    if (const auto* o = object_of<TmaCopyObject>(c.args.at(i))) return *o;
    throw ArgumentError(
        i, fmt::format("expected a TMA copy (make_tma_atom(...) or make_tma_copy(...)), got {}", described(c.args[i])));
  }
  const Tensor& tensor(std::size_t i, std::string_view what) const {
    if (c.args.at(i).kind == Value::Kind::Tensor) return as_tensor(c.args[i]);
    throw ArgumentError(i, fmt::format("expected {}, got {}", what, described(c.args[i])));
  }
  Int integer(std::size_t i, std::string_view what) const {
    const Value& v = c.args.at(i);
    if (v.kind == Value::Kind::Integer && !v.integer.is_scaled_basis()) return v.integer;
    throw ArgumentError(i, fmt::format("expected {}, got {}", what, described(v)));
  }
};

std::string_view without_namespaces(std::string_view name) {
  for (bool again = true; again;) {
    again = false;
    for (const std::string_view scope : {"cute::", "cutlass::", "::"})
      if (name.starts_with(scope)) {
        name.remove_prefix(scope.size());
        again = true;
      }
  }
  return name;
}

// The TMA copy make_tma_atom / make_tma_copy build: (op, gmem tensor, smem layout[, cta tiler][, cluster size]).
Value tma_copy_value(const ExtensionCall& c, std::size_t tiler_at, std::size_t cluster_at, bool tiled) {
  const TmaArgs a{c};
  const auto* op = object_of<TmaOperationObject>(c.args.at(0));
  if (!op)
    throw ArgumentError(0, fmt::format("expected a TMA operation (SM90_TMA_LOAD{{}}, SM90_TMA_LOAD_MULTICAST{{}}, "
                                       "SM90_TMA_STORE{{}}, ...), got {}",
                                       a.described(c.args[0])));
  const Tensor& g = a.tensor(1, "the global tensor (make_tensor of a global pointer)");
  if (g.iterator.memory == Memory::Coordinate || g.iterator.memory == Memory::GmmaDescriptor)
    throw ArgumentError(
        1, fmt::format("expected the global tensor (a tensor of a pointer), got {}", g.print(c.diag.notation())));
  const auto* gmem = std::get_if<Layout>(&g.layout);
  if (!gmem) throw ArgumentError(1, "the global tensor has a swizzled layout; TMA reads a plain strided tensor");
  std::string type_name(without_namespaces(g.iterator.element));
  if (!c.template_args.empty()) {
    if (c.template_args.size() != 1 || c.template_types.at(0).empty())
      throw Error(fmt::format("takes one template argument, the type TMA moves: {}<half_t>(...)", c.name));
    type_name = std::string(without_namespaces(c.template_types[0]));
  }
  const TmaValueType* type = find_tma_value_type(type_name);
  if (!type) {
    std::string names;
    for (const auto& t : tma_value_type_names()) names += (names.empty() ? "" : ", ") + t;
    throw ArgumentError(
        1, fmt::format("TMA has no format for '{}' (CuTe: \"Unknown TMA Format!\"); it moves {}", type_name, names));
  }
  if (type->bits != g.iterator.bits && c.template_args.empty())
    throw ArgumentError(1, fmt::format("the global tensor holds {}-bit elements, not {}", g.iterator.bits, type_name));
  if (g.iterator.known_base && g.iterator.position.is_leaf()) {
    const std::int64_t address = g.iterator.base + g.iterator.position.value().value * (g.iterator.bits / 8);
    if (address % 16 != 0)
      throw ArgumentError(
          1,
          "assert((reinterpret_cast<uint64_t>(gmem_address) & 0b1111) == 0) fails: TMA reads from a 16-byte "
          "aligned address");
  }
  const auto portions = smem_portions(c.args.at(2));
  if (!portions)
    throw ArgumentError(2,
                        fmt::format("expected the static shared-memory layout of the tile (swizzled, or plain), got {}",
                                    a.described(c.args[2])));
  TmaCopyInput in{op->op, *gmem, type, portions->first, portions->second, static_int(1), std::nullopt};
  if (tiler_at < c.args.size()) in.cta_tiler = to_tiler(c.args[tiler_at], c.diag.notation());
  if (cluster_at < c.args.size()) {
    in.multicast = a.integer(cluster_at, "the cluster size (an integer)");
    if (in.multicast.value < 1) throw ArgumentError(cluster_at, "the cluster size is at least 1");
  }
  TmaCopyValue v;
  v.op = op->op;
  v.tma = tiled ? make_tma_copy(in, c.diag) : make_tma_atom(in, c.diag);
  v.gmem = *gmem;
  v.type = type;
  v.element = g.iterator.element;
  v.multicast = in.multicast;
  v.tiled = tiled;
  TiledCopy copy;
  copy.atom = v.tma.traits;
  copy.bits = type->bits;
  copy.values = copy_elements(v.tma.traits, type->bits, c.diag);
  copy.layout_tv = v.tma.tv;
  copy.tiler_mn = v.tma.tiler;
  return Value::of(std::make_shared<const TmaCopyObject>(std::move(copy), std::move(v)));
}

// make_tma_atom(op, gmem, smem, cta_tiler[, cluster_size]).
Value make_tma_atom_value(const ExtensionCall& c) {
  TmaArgs{c}.expect(4, 5);
  return tma_copy_value(c, 3, 4, false);
}

// make_tma_copy(op, gmem, smem[, cluster_size]) or (op, gmem, smem, cta_tiler, cluster_size).
Value make_tma_copy_value(const ExtensionCall& c) {
  TmaArgs{c}.expect(3, 5);
  if (c.args.size() == 4) return tma_copy_value(c, 9, 3, true);
  return tma_copy_value(c, 3, 4, true);
}

// tma.get_tma_tensor(shape): the coordinate tensor a TMA copy reads, its strides the TMA coordinates of each mode.
Value get_tma_tensor_value(const ExtensionCall& c) {
  const TmaArgs a{c};
  a.expect(2, 2);
  const TmaCopyObject& t = a.tma(0);
  const Value& shape = c.args[1];
  if (!shape.is_int_tuple())
    throw ArgumentError(1, fmt::format("expected the global tensor's shape, got {}", a.described(shape)));
  const IntTuple s = shape.as_int_tuple();
  if (!congruent(s, t.tma.tma.g_stride))
    throw ArgumentError(1, fmt::format("static_assert is_congruent fails: the shape {} and the TMA strides {} differ "
                                       "in profile",
                                       to_text(s, c.diag.notation()), to_text(t.tma.tma.g_stride, c.diag.notation())));
  Tensor coord = make_coord_tensor(Layout{s, t.tma.tma.g_stride});
  return tensor_value(std::move(coord.iterator), std::move(coord.layout));
}

// tma.with(barrier[, multicast_mask[, cache_hint]]): the copy made executable, completing on the barrier.
Value with_value(const ExtensionCall& c) {
  const TmaArgs a{c};
  const TmaCopyObject& t = a.tma(0);
  if (!is_tma_load(t.tma.op))
    throw ArgumentError(0, fmt::format("{} copies without .with(): its Copy_Traits take no barrier", t.tma.op));
  const bool multicast = t.tma.op.find("MULTICAST") != std::string::npos;
  if (c.args.size() < (multicast ? 3u : 2u) || c.args.size() > 4)
    throw Error(multicast ? "takes the barrier and the multicast mask: tma.with(barrier, mask)"
                          : "takes the barrier it completes on: tma.with(barrier[, multicast_mask])");
  a.integer(1, "the shared-memory barrier (a uint64_t)");
  if (c.args.size() > 2) a.integer(2, "the multicast mask (a uint16_t)");
  auto copy = std::make_shared<TmaCopyObject>(t);
  copy->tma.executable = true;
  copy->tma.tiled = false;  // Copy_Atom::with: a TiledCopy's answer is its Copy_Atom
  return Value::of(std::shared_ptr<const ValueObject>(std::move(copy)));
}

// The (cosize-)1 CTA layout and coordinate of tma_partition(atom, stensor, gtensor).
const Layout& single_cta() {
  static const Layout l{static_int(1), static_int(0)};
  return l;
}

// A tensor's layout without its swizzle (get_nonswizzle_portion); a swizzle
// nested in another is not one tma_partition takes.
const Layout& nonswizzle_portion(std::size_t i, const Tensor& x) {
  if (const auto* plain = std::get_if<Layout>(&x.layout)) return *plain;
  const auto& composed = std::get<ComposedLayout>(x.layout);
  if (!composed.nested.empty())
    throw ArgumentError(i, "a tensor of nested swizzles: tma_partition takes one swizzle over a layout");
  return composed.layout;
}

// The shared-memory tile of tma_partition: layout<0>(stensor) without its swizzle.
Layout smem_tile_of(const TmaArgs& a, std::size_t i, const Tensor& s) {
  if (s.iterator.memory != Memory::Shared)
    throw ArgumentError(i, fmt::format("expected the shared-memory tensor, got {}", s.print(a.c.diag.notation())));
  const Layout& l = nonswizzle_portion(i, s);
  return l.shape.is_leaf() ? l : get(l, 0);
}

// tma_partition(atom, cta_coord, cta_layout, stensor, gtensors...) or (atom, stensor, gtensor):
// the tensors partitioned, the global ones first and the shared one last.
Value tma_partition_value(const ExtensionCall& c) {
  const TmaArgs a{c};
  if (c.args.size() < 3) a.expect(3, 3);
  const TmaCopyObject& t = a.tma(0);
  const bool defaults = c.args.size() == 3;
  if (!defaults && c.args.size() < 5) a.expect(5, 5);
  const std::size_t s_at = defaults ? 1 : 3;
  Layout cta_layout = single_cta();
  IntTuple cta_coord(static_int(0));
  if (!defaults) {
    const auto l = c.args[2].as_plain_layout();
    if (!l || c.args[2].kind != Value::Kind::Layout)
      throw ArgumentError(
          2, fmt::format("expected the CTA layout (CTA coordinate -> multicast id), got {}", a.described(c.args[2])));
    cta_layout = *l;
    if (!c.args[1].is_int_tuple())
      throw ArgumentError(1, fmt::format("expected the CTA's coordinate, got {}", a.described(c.args[1])));
    cta_coord = c.args[1].as_int_tuple();
  }
  const Tensor& s = a.tensor(s_at, "the shared-memory tensor");
  const std::int64_t per_tma = size(get(t.copy.values.src, 1)).value;
  const TmaPartitioner p = tma_partitioner(smem_tile_of(a, s_at, s), per_tma, cta_layout, cta_coord);
  std::vector<Value> out;
  const auto partition = [&](const Tensor& x, std::size_t i) {
    const TensorSlice part = tma_partition(p, nonswizzle_portion(i, x), c.diag);
    const auto* composed = std::get_if<ComposedLayout>(&x.layout);
    if (!composed) {
      out.push_back(tensor_value(moved(x.iterator, part.origin), part.layout));
      return;
    }
    // A swizzled layout keeps its swizzle and offset over the partitioned layout; where a
    // multicast CTA's part starts it would move the offset through the swizzle.
    if (!(part.origin.is_leaf() && part.origin.value().is_constant(0)))
      throw ArgumentError(i,
                          "a multicast part of a tensor whose layout holds its swizzle: tma_partition takes the "
                          "swizzle in the pointer here (make_tensor of a GMMA Layout_*_Atom tiled to the tile)");
    ComposedLayout l = *composed;
    l.layout = part.layout;
    out.push_back(tensor_value(x.iterator, std::move(l)));
  };
  for (std::size_t i = s_at + 1; i < c.args.size(); ++i) partition(a.tensor(i, "a tensor to partition"), i);
  partition(s, s_at);
  return Value::tuple(std::move(out));
}

}  // namespace

const TmaCopyValue* as_tma_copy(const Value& v) {
  const auto* o = object_of<TmaCopyObject>(v);
  return o ? &o->tma : nullptr;
}

bool is_tma_load(std::string_view op) { return op.find("LOAD") != std::string_view::npos; }

std::optional<Value> tma_operation_named(std::string_view name) {
  const auto& ops = tma_operations();
  if (std::find(ops.begin(), ops.end(), name) == ops.end()) return std::nullopt;
  return Value::of(std::make_shared<const TmaOperationObject>(std::string(name)));
}

// copy(tma, src, dst) of a TMA load before .with(barrier): CuTe deletes that copy_unpack.
void check_tma_copy(std::string_view name, const std::vector<Value>& args) {
  if ((name != "copy" && name != "copy_if") || args.empty()) return;
  const TmaCopyValue* t = as_tma_copy(args.front());
  if (t && is_tma_load(t->op) && !t->executable)
    throw Error(
        fmt::format("use of deleted function copy_unpack: \"Don't try to execute a copy with {} before "
                    "calling .with()\" (copy(tma.with(barrier), src, dst))",
                    t->op));
}

void add_tma_functions(LanguageExtension& e) {
  e.check_data_movement = check_tma_copy;
  e.functions.emplace("make_tma_atom", make_tma_atom_value);
  e.functions.emplace("make_tma_copy", make_tma_copy_value);
  e.functions.emplace("get_tma_tensor", get_tma_tensor_value);
  e.functions.emplace("with", with_value);
  e.functions.emplace("tma_partition", tma_partition_value);
}

}  // namespace layoutx
