// MMA and copy atoms, TiledMMA and TiledCopy as values of the expression
// language, printed as CuTe's print() writes them.
#include "layoutx/atom_language.hpp"

#include <fmt/format.h>

#include "atom_objects.hpp"
#include "layoutx/algebra.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/swizzle_slice.hpp"
#include "layoutx/tensor.hpp"
#include "layoutx/tensor_partition.hpp"
#include "layoutx/tma_language.hpp"

namespace layoutx {

namespace {

std::string mma_atom_text(const MmaAtom& a, Notation n) {
  return fmt::format(
      "MMA_Atom\n  ThrID:      {}\n  Shape_MNK:  {}\n  LayoutA_TV: {}\n  LayoutB_TV: {}\n  LayoutC_TV: {}",
      to_text(a.thr_id, n), to_text(a.shape_mnk, n), to_text(a.a, n), to_text(a.b, n), to_text(a.c, n));
}

// An MMA atom by name (MMA_Atom<Op>).
struct MmaAtomObject : ValueObject {
  MmaAtom atom;
  explicit MmaAtomObject(MmaAtom a) : atom(std::move(a)) {}
  std::string type_name() const override { return "MMA_Atom"; }
  std::string print(Notation n) const override { return mma_atom_text(atom, n); }
  bool print_ends_line() const override { return true; }
};

// A copy operation by name, its Copy_Traits in bits; Copy_Atom<Op, T> takes T
// when it is tiled (make_tiled_copy<T>).
struct CopyOpObject : ValueObject {
  CopyAtom atom;
  explicit CopyOpObject(CopyAtom a) : atom(std::move(a)) {}
  std::string type_name() const override { return "Copy_Traits"; }
  std::string print(Notation n) const override {
    return fmt::format("Copy_Traits\n  ThrID:     {}\n  SrcLayout: {}\n  DstLayout: {}\n  RefLayout: {}",
                       to_text(atom.thr_id, n), to_text(atom.src, n), to_text(atom.dst, n), to_text(atom.ref, n));
  }
};

// Copy_Atom<Op, T>: a copy operation moving elements of T.
struct CopyAtomObject : ValueObject {
  CopyAtom atom;
  int bits;
  CopyElements values;
  CopyAtomObject(CopyAtom a, int b, CopyElements v) : atom(std::move(a)), bits(b), values(std::move(v)) {}
  std::string type_name() const override { return "Copy_Atom"; }
  std::string print(Notation n) const override { return copy_atom_text(atom, bits, values, n); }
  bool print_ends_line() const override { return true; }
};

struct TiledMmaObject : ValueObject {
  TiledMma mma;
  Value permutation;  // PermutationMNK as given, padded with `_` to three modes
  TiledMmaObject(TiledMma m, Value p) : mma(std::move(m)), permutation(std::move(p)) {}
  std::string type_name() const override { return "TiledMMA"; }
  std::string print(Notation n) const override {
    return fmt::format("TiledMMA\n  ThrLayoutVMNK:  {}\n  PermutationMNK: {}\n{}", to_text(mma.thr_layout_vmnk, n),
                       to_text(permutation, n), mma_atom_text(mma.atom, n));
  }
  bool print_ends_line() const override { return true; }
};

// tiled_mma.get_slice(t): the TiledMMA seen by thread t.
struct ThrMmaObject : ValueObject {
  std::shared_ptr<const TiledMmaObject> tiled;
  Int thread;
  IntTuple vmnk;  // ThrLayoutVMNK.get_flat_coord(t)
  ThrMmaObject(std::shared_ptr<const TiledMmaObject> m, Int t, IntTuple c)
      : tiled(std::move(m)), thread(t), vmnk(std::move(c)) {}
  std::string type_name() const override { return "ThrMMA"; }
  std::string print(Notation n) const override {
    return fmt::format("ThrMMA\n  Thr VMNK: {}\n{}", to_text(vmnk, n), tiled->print(n));
  }
  bool print_ends_line() const override { return true; }
};

// The checks every function makes of its call, with the messages of the language's own table.
struct Args {
  const ExtensionCall& c;

  std::string text(const Value& v) const { return to_text(v, c.diag.notation()); }
  void expect(std::size_t lo, std::size_t hi) const {
    if (c.args.size() >= lo && c.args.size() <= hi) return;
    const std::string want = lo == hi ? fmt::format("{}", lo) : fmt::format("{} to {}", lo, hi);
    throw Error(fmt::format("takes {} argument{}, got {}", want, hi == 1 ? "" : "s", c.args.size()));
  }
  void no_template_args() const {
    if (!c.template_args.empty())
      throw Error(fmt::format("{} takes no template arguments (write {}(...))", c.name, c.name));
  }
  const TiledMma& mma(std::size_t i) const {
    if (const auto* o = object_of<TiledMmaObject>(c.args.at(i))) return o->mma;
    throw ArgumentError(i, fmt::format("expected a TiledMMA (make_tiled_mma(...)), got {}", described(c.args[i])));
  }
  const TiledCopy& copy(std::size_t i) const {
    if (const auto* tma = as_tma_copy(c.args.at(i)); tma && !tma->tiled)
      throw ArgumentError(i, "expected a TiledCopy, got make_tma_atom's Copy_Atom (make_tma_copy makes a TiledCopy)");
    if (const auto* o = object_of<TiledCopyObject>(c.args.at(i))) return o->copy;
    throw ArgumentError(i, fmt::format("expected a TiledCopy (make_tiled_copy<T>(...)), got {}", described(c.args[i])));
  }
  Layout layout(std::size_t i) const {
    const Value& v = c.args.at(i);
    if (v.kind == Value::Kind::Composed)
      throw ArgumentError(i, fmt::format("{} of a swizzled layout is not supported: CuTe has no coordinate tensor of a "
                                         "ComposedLayout (make_coord_tensor does not compile; a swizzled tensor is "
                                         "partitioned through its smem pointer); partition its inner layout",
                                         c.name));
    if (auto l = v.as_plain_layout()) return *l;
    throw ArgumentError(i, fmt::format("expected a layout (or a shape), got {}", described(v)));
  }
  // A tensor argument: a tensor, or a layout standing for make_coord_tensor(L).
  Tensor tensor(std::size_t i) const {
    const Value& v = c.args.at(i);
    if (v.kind == Value::Kind::Tensor) return as_tensor(v);
    return make_coord_tensor(layout(i));
  }
  Int integer(std::size_t i) const {
    const Value& v = c.args.at(i);
    if (v.kind == Value::Kind::Integer && !v.integer.is_scaled_basis()) return v.integer;
    throw ArgumentError(i, fmt::format("expected an integer, got {}", described(v)));
  }
  std::string described(const Value& v) const {
    if (v.kind == Value::Kind::Object) return a_kind_name(v);
    return a_kind_name(v) + " " + text(v);
  }
};

Value make_tiled_mma_value(const ExtensionCall& c) {
  const Args a{c};
  a.expect(1, 3);
  a.no_template_args();
  const auto* atom = object_of<MmaAtomObject>(c.args[0]);
  if (!atom)
    throw ArgumentError(
        0, fmt::format("expected an MMA atom (such as SM80_16x8x16_F16F16F16F16_TN), got {}", a.described(c.args[0])));
  const Layout thr = c.args.size() > 1 ? a.layout(1)
                                       : make_layout(IntTuple::tuple({static_int(1), static_int(1), static_int(1)}),
                                                     IntTuple::tuple({static_int(0), static_int(0), static_int(0)}));
  std::vector<Tiler> perm;
  std::vector<Value> perm_modes;
  if (c.args.size() > 2) {
    const Value& p = c.args[2];
    perm_modes = p.kind == Value::Kind::Tuple ? p.elems : std::vector<Value>{p};
    for (const Value& m : perm_modes) {
      const auto t = as_tiler(m);
      if (!t || t->kind == Tiler::Kind::Tuple)
        throw ArgumentError(
            2, fmt::format("each mode of a permutation is a layout, an extent or _, not {}", a.described(m)));
      perm.push_back(*t);
    }
  }
  TiledMma mma = make_tiled_mma(atom->atom, thr, perm, c.diag);
  while (perm_modes.size() < 3) perm_modes.push_back(Value::tag(Value::Kind::Underscore));
  return Value::of(std::make_shared<const TiledMmaObject>(std::move(mma), Value::tuple(std::move(perm_modes))));
}

// make_tiled_copy<T>(op, thr_layout[, val_layout]): Copy_Atom<op, T>, tiled.
Value make_tiled_copy_value(const ExtensionCall& c) {
  const Args a{c};
  a.expect(2, 3);
  if (const auto* atom = object_of<CopyAtomObject>(c.args[0])) {  // make_tiled_copy(Copy_Atom<Op, T>{}, thr, val)
    a.no_template_args();
    const Layout val = c.args.size() > 2 ? a.layout(2) : make_layout(IntTuple(static_int(1)));
    return tiled_copy_value(make_tiled_copy(atom->atom, atom->bits, a.layout(1), val, c.diag));
  }
  if (c.template_args.size() != 1)
    throw Error(
        "takes the element type as its template argument, as in make_tiled_copy<half_t>(op, thr, val) "
        "(CuTe's Copy_Atom<op, half_t>)");
  const auto* op = object_of<CopyOpObject>(c.args[0]);
  if (!op)
    throw ArgumentError(0,
                        fmt::format("expected a copy operation (such as SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>), got {}",
                                    a.described(c.args[0])));
  const std::int64_t bits = c.template_args[0];
  if (bits < 1 || bits > 1024) throw Error(fmt::format("an element of {} bits is not a value type", bits));
  const Layout thr = a.layout(1);
  const Layout val = c.args.size() > 2 ? a.layout(2) : make_layout(IntTuple(static_int(1)));
  return tiled_copy_value(make_tiled_copy(op->atom, static_cast<int>(bits), thr, val, c.diag));
}

using MmaLayout = Layout (*)(const TiledMma&, Diagnostics&);
using CopyLayout = Layout (*)(const TiledCopy&, Diagnostics&);
using MmaPartition = TensorSlice (*)(const TiledMma&, Int, const Layout&, Diagnostics&);
using MmaFragment = Layout (*)(const TiledMma&, Int, const Layout&, Diagnostics&);
using CopyPartition = TensorSlice (*)(const TiledCopy&, Int, const Layout&, Diagnostics&);
using SwizzledMmaPartition = SlicedLayout (*)(const TiledMma&, Int, const ComposedLayout&, Diagnostics&);
using SwizzledCopyPartition = SlicedLayout (*)(const TiledCopy&, Int, const ComposedLayout&, Diagnostics&);

auto mma_layout(MmaLayout f) {
  return [f](const ExtensionCall& c) {
    const Args a{c};
    a.expect(1, 1);
    a.no_template_args();
    return Value::of(f(a.mma(0), c.diag));
  };
}

auto copy_layout(CopyLayout f) {
  return [f](const ExtensionCall& c) {
    const Args a{c};
    a.expect(1, 1);
    a.no_template_args();
    return Value::of(f(a.copy(0), c.diag));
  };
}

// A thread's view of a tiled operation: thr.f(tensor), or layoutx's f(tiled, thread, tensor).
template <class Tiled>
struct ThreadView {
  const Tiled& tiled;
  Int thread;
  std::size_t tensor_at;
};

ThreadView<TiledMma> mma_view(const Args& a) {
  if (const auto* thr = object_of<ThrMmaObject>(a.c.args.at(0))) {
    a.expect(2, 2);
    return {thr->tiled->mma, thr->thread, 1};
  }
  a.expect(2, 3);
  if (a.c.args.size() == 2)
    throw ArgumentError(
        0, fmt::format("expected a thread's slice (tiled_mma.get_slice(t)), got {}", a.described(a.c.args[0])));
  return {a.mma(0), a.integer(1), 2};
}

ThreadView<TiledCopy> copy_view(const Args& a) {
  if (const auto* thr = object_of<ThrCopyObject>(a.c.args.at(0))) {
    a.expect(2, 2);
    return {thr->tiled->copy, thr->thread, 1};
  }
  a.expect(2, 3);
  if (a.c.args.size() == 2)
    throw ArgumentError(
        0, fmt::format("expected a thread's slice (tiled_copy.get_slice(t)), got {}", a.described(a.c.args[0])));
  return {a.copy(0), a.integer(1), 2};
}

// The partition of tensor t a thread takes: its layout, the iterator moved to where it starts.
Value partitioned(const Tensor& t, const TensorSlice& s) { return tensor_value(moved(t.iterator, s.origin), s.layout); }

Value partitioned(const Tensor& t, const SlicedLayout& s) {
  return tensor_value(moved(t.iterator, IntTuple(s.offset)), s.layout);
}

auto mma_partition(MmaPartition f, SwizzledMmaPartition swizzled) {
  return [f, swizzled](const ExtensionCall& c) {
    const Args a{c};
    a.no_template_args();
    const ThreadView<TiledMma> v = mma_view(a);
    const Tensor t = a.tensor(v.tensor_at);
    if (const auto* composed = std::get_if<ComposedLayout>(&t.layout))
      return partitioned(t, swizzled(v.tiled, v.thread, *composed, c.diag));
    return partitioned(t, f(v.tiled, v.thread, plain_layout(t, c.name), c.diag));
  };
}

// The layout a fragment is made like: a swizzled partition's inner layout
// (CuTe's make_fragment_like of a ComposedLayout takes its layout_b).
Layout fragment_model(const AnyLayout& l) {
  if (const auto* composed = std::get_if<ComposedLayout>(&l)) return composed->layout;
  return std::get<Layout>(l);
}

// thr.partition_fragment_X(tensor): a register tensor of the operand's type;
// layoutx's partition_fragment_X(tiled, thread, L): the fragment's layout.
// The register tensor of layout `l` holding the MMA's values of `operand`
// (1 A, 2 B, 3 C), as make_fragment_X and partition_fragment_X make it.
Value register_fragment_tensor(const TiledMma& mma, int operand, const Layout& l) {
  const std::vector<int> bits = mma_operand_bits(mma.atom.name);
  if (bits.empty()) throw Error(fmt::format("the value types of {} are not known to layoutx", mma.atom.name));
  Tensor r = make_register_tensor(bits[static_cast<std::size_t>(operand)], "", l);
  return tensor_value(std::move(r.iterator), std::move(r.layout));
}

// An SM90 MMA reading operand `which` from shared memory: the tensor of GMMA
// descriptors CuTe makes of the partitioned tensor `part`
// (MakeTensor<GMMA::smem_desc<Major>>).
Value gmma_descriptor_tensor(const TiledMma& mma, char which, const Tensor& part, Diagnostics& diag) {
  if (part.iterator.memory != Memory::Shared)
    throw Error(
        fmt::format("static_assert: Expected SMEM Tensor to construct a GMMA Desc Tensor: {} reads {} from "
                    "shared memory, not from {}",
                    mma.atom.name, which, part.print(diag.notation())));
  const auto* plain = std::get_if<Layout>(&part.layout);
  if (!plain)
    throw Error(
        fmt::format("GMMA's layout_type reads the swizzle from the shared-memory pointer; {} has it in its "
                    "layout (build the layout from GMMA::Layout_*_Atom<T>, whose swizzle make_tensor moves "
                    "into the pointer)",
                    part.print(diag.notation())));
  const std::vector<int> bits = mma_operand_bits(mma.atom.name);
  const int want = bits.empty() ? part.iterator.bits : bits[which == 'A' ? 1 : 2];
  if (want != part.iterator.bits)
    throw Error(
        fmt::format("static_assert: Expecting ValType{} type: {} takes {}-bit elements, the tensor holds "
                    "{}-bit ones",
                    which, mma.atom.name, want, part.iterator.bits));
  Iterator it;
  it.memory = Memory::GmmaDescriptor;
  it.bits = 64;
  it.known_base = false;
  return tensor_value(std::move(it),
                      gmma_descriptor_layout(mma, which, *plain, part.iterator.bits, part.iterator.swizzle, diag));
}

auto mma_fragment(MmaFragment f, MmaPartition partition, SwizzledMmaPartition swizzled, int operand) {
  return [f, partition, swizzled, operand](const ExtensionCall& c) {
    const Args a{c};
    a.no_template_args();
    const ThreadView<TiledMma> v = mma_view(a);
    const Tensor t = a.tensor(v.tensor_at);
    const char which = "?ABC"[operand];
    if (v.tensor_at == 1 && which != 'C' && reads_gmma_descriptor(v.tiled.atom, which) &&
        std::holds_alternative<Layout>(t.layout)) {
      const Value part = partitioned(t, partition(v.tiled, v.thread, std::get<Layout>(t.layout), c.diag));
      return gmma_descriptor_tensor(v.tiled, which, as_tensor(part), c.diag);
    }
    const auto* composed = std::get_if<ComposedLayout>(&t.layout);
    const Layout l = composed
                         ? make_fragment(v.tiled, "?ABC"[operand],
                                         fragment_model(swizzled(v.tiled, v.thread, *composed, c.diag).layout), c.diag)
                         : f(v.tiled, v.thread, plain_layout(t, c.name), c.diag);
    if (v.tensor_at == 2) return Value::of(l);
    return register_fragment_tensor(v.tiled, operand, l);
  };
}

// tiled_mma.make_fragment_X(t) / thr_mma.make_fragment_X(t) (CuTe's static
// member): the register tensor for an already partitioned tensor t.
auto mma_make_fragment(char which, int operand) {
  return [which, operand](const ExtensionCall& c) {
    const Args a{c};
    a.no_template_args();
    a.expect(2, 2);
    const TiledMma* mma = nullptr;
    if (const auto* thr = object_of<ThrMmaObject>(c.args[0])) mma = &thr->tiled->mma;
    if (!mma) mma = &a.mma(0);
    const Tensor t = a.tensor(1);
    if (which != 'C' && reads_gmma_descriptor(mma->atom, which)) return gmma_descriptor_tensor(*mma, which, t, c.diag);
    const Layout l = make_fragment(*mma, which, fragment_model(t.layout), c.diag);
    return register_fragment_tensor(*mma, operand, l);
  };
}

auto copy_partition(CopyPartition f, SwizzledCopyPartition swizzled) {
  return [f, swizzled](const ExtensionCall& c) {
    const Args a{c};
    a.no_template_args();
    const ThreadView<TiledCopy> v = copy_view(a);
    const Tensor t = a.tensor(v.tensor_at);
    if (const auto* composed = std::get_if<ComposedLayout>(&t.layout))
      return partitioned(t, swizzled(v.tiled, v.thread, *composed, c.diag));
    return partitioned(t, f(v.tiled, v.thread, plain_layout(t, c.name), c.diag));
  };
}

// thr_copy.retile_S(tensor) / retile_D(tensor): the same data regrouped by the copy's values.
Value retile_value(const ExtensionCall& c) {
  const Args a{c};
  a.no_template_args();
  a.expect(2, 2);
  const auto* thr = object_of<ThrCopyObject>(c.args[0]);
  if (!thr)
    throw ArgumentError(
        0, fmt::format("expected a thread's slice (tiled_copy.get_slice(t)), got {}", a.described(c.args[0])));
  if (c.args[1].kind != Value::Kind::Tensor)
    throw ArgumentError(1, fmt::format("expected a tensor, got {}", a.described(c.args[1])));
  const Tensor& t = as_tensor(c.args[1]);
  return tensor_value(t.iterator, retile(thr->tiled->copy, plain_layout(t, c.name), c.diag));
}

// tiled.get_slice(t) / get_thread_slice(t).
Value slice_value(const ExtensionCall& c) {
  const Args a{c};
  a.expect(2, 2);
  a.no_template_args();
  const Int thread = a.integer(1);
  if (const auto m = shared_object_of<TiledMmaObject>(c.args[0]))
    return Value::of(std::make_shared<const ThrMmaObject>(m, thread, thread_vmnk(m->mma, thread, c.diag.notation())));
  if (const auto* tma = as_tma_copy(c.args[0]); tma && !tma->tiled)
    throw ArgumentError(0,
                        "make_tma_atom makes a Copy_Atom, which has no get_slice: partition with tma_partition, "
                        "or make a TiledCopy with make_tma_copy");
  if (const auto t = shared_object_of<TiledCopyObject>(c.args[0]))
    return Value::of(std::make_shared<const ThrCopyObject>(t, thread));
  throw ArgumentError(0, fmt::format("expected a TiledMMA or a TiledCopy, got {}", a.described(c.args[0])));
}

const CopyAtomObject& copy_atom_arg(const Args& a, std::size_t i) {
  if (const auto* o = object_of<CopyAtomObject>(a.c.args.at(i))) return *o;
  throw ArgumentError(i, fmt::format("expected a copy atom (Copy_Atom<Op, T>{{}}), got {}", a.described(a.c.args[i])));
}

// make_tiled_copy_A / _B / _C(copy_atom, tiled_mma): the atom over the MMA's A, B or C thread-value layout.
auto tiled_copy_of_mma(MmaLayout layout_tv, int m, int n) {
  return [layout_tv, m, n](const ExtensionCall& c) {
    const Args a{c};
    a.expect(2, 2);
    a.no_template_args();
    const CopyAtomObject& atom = copy_atom_arg(a, 0);
    const TiledMma& mma = a.mma(1);
    const IntTuple tiler = IntTuple::pair(tile_size(mma, m), tile_size(mma, n));
    return tiled_copy_value(make_tiled_copy_impl(atom.atom, atom.bits, layout_tv(mma, c.diag), tiler, c.diag));
  };
}

// make_tiled_copy_S / _D(copy_atom, tiled_copy): the atom over the copy's source or destination layout.
auto tiled_copy_of_copy(CopyLayout layout_tv) {
  return [layout_tv](const ExtensionCall& c) {
    const Args a{c};
    a.expect(2, 2);
    a.no_template_args();
    const CopyAtomObject& atom = copy_atom_arg(a, 0);
    const TiledCopy& copy = a.copy(1);
    return tiled_copy_value(make_tiled_copy_impl(atom.atom, atom.bits, layout_tv(copy, c.diag), copy.tiler_mn, c.diag));
  };
}

// One integer template argument, an index below `modes`.
std::int64_t mode_index(const ExtensionCall& c, std::int64_t modes, const char* usage) {
  if (c.template_args.size() != 1 || !c.template_types.at(0).empty()) throw Error(usage);
  const std::int64_t i = c.template_args[0];
  if (i < 0 || i >= modes) throw Error(fmt::format("Index out of range: mode {} of {}", i, modes));
  return i;
}

// tile_size<I>(mma): the extent of M (0), N (1) or K (2) the tiled MMA covers;
// tile_size<I>(copy): mode I of its Tiler_MN.
Value tile_size_value(const ExtensionCall& c) {
  const Args a{c};
  a.expect(1, 1);
  const char* usage = "takes the mode as its template argument: tile_size<0>(x) for M, <1> for N (<2> for an MMA's K)";
  if (const auto* m = object_of<TiledMmaObject>(c.args[0]))
    return Value::of(tile_size(m->mma, static_cast<int>(mode_index(c, 3, usage))));
  const TiledCopy& copy = a.copy(0);
  const std::int64_t modes = copy.tiler_mn.is_leaf() ? 1 : copy.tiler_mn.rank();
  const std::int64_t i = mode_index(c, modes, usage);
  return Value::of(product(copy.tiler_mn.is_leaf() ? copy.tiler_mn : copy.tiler_mn[static_cast<int>(i)]));
}

// tile_shape(mma): (M,N,K), the tile the tiled MMA covers.
Value tile_shape_value(const ExtensionCall& c) {
  const Args a{c};
  a.expect(1, 1);
  a.no_template_args();
  return Value::of(tile_shape(a.mma(0)));
}

// size(x) of a TiledMMA or a TiledCopy: its threads; size<I>(mma): mode I of
// ThrLayoutVMNK (the language's size takes every other value).
Value size_value(const ExtensionCall& c) {
  const Args a{c};
  a.expect(1, 1);
  if (const auto* m = object_of<TiledMmaObject>(c.args[0])) {
    if (c.template_args.empty()) return Value::of(thread_count(m->mma));
    const int i = static_cast<int>(mode_index(c, 4, "takes one mode index: size<I>(mma), I of (V,M,N,K)"));
    return Value::of(product(m->mma.thr_layout_vmnk.shape[i]));
  }
  a.no_template_args();
  return Value::of(thread_count(a.copy(0)));
}

// (1,1):(0,0), the one-thread one-value layout of the generic atoms' traits.
Layout single_value() {
  return make_layout(IntTuple::pair(static_int(1), static_int(1)), IntTuple::pair(static_int(0), static_int(0)));
}

Layout one_thread() { return make_layout(IntTuple(static_int(1)), IntTuple(static_int(0))); }

// An operation name `base<args>` split at its first '<'.
std::pair<std::string_view, std::string_view> operation_parts(std::string_view op) {
  if (op.substr(0, 6) == "cute::") op.remove_prefix(6);
  const std::size_t lt = op.find('<');
  if (lt == std::string_view::npos || op.back() != '>') return {op, ""};
  return {op.substr(0, lt), op.substr(lt + 1, op.size() - lt - 2)};
}

// A template argument list split at its top-level commas.
std::vector<std::string_view> template_arguments(std::string_view args) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= args.size(); ++i) {
    if (i == args.size() || (args[i] == ',' && depth == 0)) {
      std::string_view a = args.substr(start, i - start);
      while (!a.empty() && a.front() == ' ') a.remove_prefix(1);
      while (!a.empty() && a.back() == ' ') a.remove_suffix(1);
      out.push_back(a);
      start = i + 1;
    } else {
      depth += args[i] == '<' ? 1 : args[i] == '>' ? -1 : 0;
    }
  }
  return out;
}

// The MMA operation `op`: the catalogue's, or MMA_Traits<UniversalFMA<D,A,B,C>>,
// which CuTe defines for any types: one thread (ThrID Layout<_1>), one value.
std::optional<MmaAtom> mma_operation(std::string_view op) {
  const auto [base, args] = operation_parts(op);
  if (base == "UniversalFMA")
    return MmaAtom{std::string(op), IntTuple::tuple({static_int(1), static_int(1), static_int(1)}),
                   one_thread(),    single_value(),
                   single_value(),  single_value()};
  const Atom* atom = find_atom(op);
  if (!atom || atom->kind != Atom::Kind::Mma) return std::nullopt;
  MmaAtom mma = atom->mma;
  // GMMA operations name A's major, then B's, among their template arguments.
  std::vector<char> majors;
  for (std::string_view a : template_arguments(args))
    if (a.find("Major::") != std::string_view::npos) majors.push_back(a.ends_with("MN") ? 'M' : 'K');
  if (!majors.empty()) mma.major_a = majors[0];
  if (majors.size() > 1) mma.major_b = majors[1];
  return mma;
}

// Copy_Traits<UniversalCopy<S, D = S>>, which CuTe defines for any types: one
// thread moving one S, the layouts in bits ((_1,sizeof_bits<S>):(_0,_1)).
std::optional<CopyAtom> universal_copy(std::string_view op, std::string_view args) {
  const std::vector<std::string_view> types = template_arguments(args);
  if (types.empty() || types.size() > 2) return std::nullopt;
  const int src_bits = type_bits(types[0]);
  const int dst_bits = type_bits(types.back());
  if (src_bits == 0 || dst_bits == 0) return std::nullopt;
  const auto bits_layout = [](int bits) {
    return make_layout(IntTuple::pair(static_int(1), static_int(bits)), IntTuple::pair(static_int(0), static_int(1)));
  };
  return CopyAtom{std::string(op), one_thread(), bits_layout(src_bits), bits_layout(dst_bits), bits_layout(src_bits)};
}

// The copy operation `op`: the catalogue's, or Copy_Traits<AutoVectorizingCopyWithAssumedAlignment<N>>
// (DefaultCopy, AutoVectorizingCopy), which move one value of one thread, whatever its type.
std::optional<CopyAtom> copy_operation(std::string_view op) {
  const auto [base, args] = operation_parts(op);
  if (base == "DefaultCopy" || base == "AutoVectorizingCopy" || base == "AutoVectorizingCopyWithAssumedAlignment")
    return CopyAtom{std::string(op), one_thread(), single_value(), single_value(), single_value()};
  if (base == "UniversalCopy") return universal_copy(op, args);
  const Atom* atom = find_atom(op);
  if (!atom || atom->kind != Atom::Kind::Copy) return std::nullopt;
  return atom->copy;
}

// MMA_Atom<Op>: the atom of the operation Op.
Value mma_atom_named(std::string_view op) {
  auto atom = mma_operation(op);
  if (!atom) throw Error(fmt::format("MMA_Atom<{}>: {} is no MMA operation layoutx knows", op, op));
  return Value::of(std::make_shared<const MmaAtomObject>(std::move(*atom)));
}

// Copy_Atom<Op, T>: the copy operation Op moving elements of T.
Value copy_atom_named(std::string_view args) {
  int depth = 0;
  std::size_t comma = std::string_view::npos;
  for (std::size_t i = 0; i < args.size(); ++i) {
    depth += args[i] == '<' ? 1 : args[i] == '>' ? -1 : 0;
    if (args[i] == ',' && depth == 0) comma = i;
  }
  if (comma == std::string_view::npos)
    throw Error("Copy_Atom takes the operation and the element type: Copy_Atom<Op, T>");
  const std::string_view op = args.substr(0, comma), type = args.substr(comma + 1);
  auto atom = copy_operation(op);
  if (!atom) throw Error(fmt::format("Copy_Atom<{}>: {} is no copy operation layoutx knows", args, op));
  const int bits = type_bits(type);
  if (bits == 0) throw Error(fmt::format("Copy_Atom<{}>: {} is no value type layoutx knows", args, type));
  Diagnostics diag;
  CopyElements values = copy_elements(*atom, bits, diag);
  return Value::of(std::make_shared<const CopyAtomObject>(std::move(*atom), bits, std::move(values)));
}

std::optional<Value> atom_named(std::string_view name, std::string_view template_text) {
  // No atom's name is this long; a huge unknown name costs no catalogue search.
  if (name.size() + template_text.size() > 256) return std::nullopt;
  if (name.substr(0, 6) == "cute::") name.remove_prefix(6);
  if (name == "MMA_Atom") return mma_atom_named(template_text);
  if (name == "Copy_Atom") return copy_atom_named(template_text);
  const std::string full = template_text.empty() ? std::string(name) : fmt::format("{}<{}>", name, template_text);
  if (auto tma = tma_operation_named(full)) return tma;
  if (auto mma = mma_operation(full)) return Value::of(std::make_shared<const MmaAtomObject>(std::move(*mma)));
  if (auto copy = copy_operation(full)) return Value::of(std::make_shared<const CopyOpObject>(std::move(*copy)));
  return std::nullopt;
}

LanguageExtension make_atom_language() {
  LanguageExtension e;
  e.name = atom_named;
  e.functions = {
      {"make_tiled_mma", make_tiled_mma_value},
      {"make_tiled_copy", make_tiled_copy_value},
      {"get_layoutA_TV", mma_layout(layout_A_TV)},
      {"get_layoutB_TV", mma_layout(layout_B_TV)},
      {"get_layoutC_TV", mma_layout(layout_C_TV)},
      {"get_layoutS_TV", copy_layout(layout_S_TV)},
      {"get_layoutD_TV", copy_layout(layout_D_TV)},
      {"tile_size", tile_size_value},
      {"tile_shape", tile_shape_value},
      {"size", size_value},
      {"partition_A", mma_partition(partition_A, partition_A)},
      {"partition_B", mma_partition(partition_B, partition_B)},
      {"partition_C", mma_partition(partition_C, partition_C)},
      {"partition_fragment_A", mma_fragment(partition_fragment_A, partition_A, partition_A, 1)},
      {"partition_fragment_B", mma_fragment(partition_fragment_B, partition_B, partition_B, 2)},
      {"partition_fragment_C", mma_fragment(partition_fragment_C, partition_C, partition_C, 3)},
      {"make_fragment_A", mma_make_fragment('A', 1)},
      {"make_fragment_B", mma_make_fragment('B', 2)},
      {"make_fragment_C", mma_make_fragment('C', 3)},
      {"partition_S", copy_partition(partition_S, partition_S)},
      {"partition_D", copy_partition(partition_D, partition_D)},
      {"retile_S", retile_value},
      {"retile_D", retile_value},
      {"get_slice", slice_value},
      {"get_thread_slice", slice_value},
      {"make_tiled_copy_A", tiled_copy_of_mma(layout_A_TV, 0, 2)},
      {"make_tiled_copy_B", tiled_copy_of_mma(layout_B_TV, 1, 2)},
      {"make_tiled_copy_C", tiled_copy_of_mma(layout_C_TV, 0, 1)},
      {"make_tiled_copy_S", tiled_copy_of_copy(layout_S_TV)},
      {"make_tiled_copy_D", tiled_copy_of_copy(layout_D_TV)},
  };
  add_tma_functions(e);
  return e;
}

}  // namespace

const LanguageExtension& atom_language() {
  static const LanguageExtension e = make_atom_language();
  return e;
}

const TiledMma* as_tiled_mma(const Value& v) {
  const auto* o = object_of<TiledMmaObject>(v);
  return o ? &o->mma : nullptr;
}

const CopyAtom* as_copy_atom(const Value& v) {
  const auto* o = object_of<CopyAtomObject>(v);
  return o ? &o->atom : nullptr;
}

const TiledCopy* as_tiled_copy(const Value& v) {
  const auto* o = object_of<TiledCopyObject>(v);
  return o ? &o->copy : nullptr;
}

}  // namespace layoutx
