// MMA and copy atoms, TiledMMA and TiledCopy as values of the expression
// language, printed as CuTe's print() writes them.
#include "layoutx/atom_language.hpp"

#include <fmt/format.h>

#include "layoutx/algebra.hpp"
#include "layoutx/notation.hpp"

namespace layoutx {

namespace {

std::string mma_atom_text(const MmaAtom& a, Notation n) {
  return fmt::format("MMA_Atom\n  ThrID:      {}\n  Shape_MNK:  {}\n  LayoutA_TV: {}\n  LayoutB_TV: {}\n  LayoutC_TV: {}",
                     to_text(a.thr_id, n), to_text(a.shape_mnk, n), to_text(a.a, n), to_text(a.b, n), to_text(a.c, n));
}

// An MMA atom by name (MMA_Atom<Op>).
struct MmaAtomObject : ValueObject {
  MmaAtom atom;
  explicit MmaAtomObject(MmaAtom a) : atom(std::move(a)) {}
  std::string type_name() const override { return "MMA_Atom"; }
  std::string print(Notation n) const override { return mma_atom_text(atom, n); }
};

// A copy operation by name, its Copy_Traits in bits; Copy_Atom<Op, T> takes T
// when it is tiled (make_tiled_copy<T>).
struct CopyOpObject : ValueObject {
  CopyAtom atom;
  explicit CopyOpObject(CopyAtom a) : atom(std::move(a)) {}
  std::string type_name() const override { return "Copy_Traits"; }
  std::string print(Notation n) const override {
    return fmt::format("Copy_Traits\n  ThrID:     {}\n  SrcLayout: {}\n  DstLayout: {}\n  RefLayout: {}", to_text(atom.thr_id, n),
                       to_text(atom.src, n), to_text(atom.dst, n), to_text(atom.ref, n));
  }
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
};

struct TiledCopyObject : ValueObject {
  TiledCopy copy;
  explicit TiledCopyObject(TiledCopy c) : copy(std::move(c)) {}
  std::string type_name() const override { return "TiledCopy"; }
  std::string print(Notation n) const override { return to_text(copy, n); }
};

template <class T>
const T* object_of(const Value& v) {
  return v.kind == Value::Kind::Object ? dynamic_cast<const T*>(v.object.get()) : nullptr;
}

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
    if (!c.template_args.empty()) throw Error(fmt::format("{} takes no template arguments (write {}(...))", c.name, c.name));
  }
  const TiledMma& mma(std::size_t i) const {
    if (const auto* o = object_of<TiledMmaObject>(c.args.at(i))) return o->mma;
    throw ArgumentError(i, fmt::format("expected a TiledMMA (make_tiled_mma(...)), got {}", described(c.args[i])));
  }
  const TiledCopy& copy(std::size_t i) const {
    if (const auto* o = object_of<TiledCopyObject>(c.args.at(i))) return o->copy;
    throw ArgumentError(i, fmt::format("expected a TiledCopy (make_tiled_copy<T>(...)), got {}", described(c.args[i])));
  }
  Layout layout(std::size_t i) const {
    const Value& v = c.args.at(i);
    if (v.kind == Value::Kind::Composed)
      throw ArgumentError(i, fmt::format("{} of a swizzled layout is not supported: CuTe has no coordinate tensor of a ComposedLayout (make_coord_tensor does not compile; a swizzled tensor is partitioned through its smem pointer); partition its inner layout", c.name));
    if (auto l = v.as_plain_layout()) return *l;
    throw ArgumentError(i, fmt::format("expected a layout (or a shape), got {}", described(v)));
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
  if (!atom) throw ArgumentError(0, fmt::format("expected an MMA atom (such as SM80_16x8x16_F16F16F16F16_TN), got {}",
                                                a.described(c.args[0])));
  const Layout thr = c.args.size() > 1 ? a.layout(1) : make_layout(IntTuple::tuple({static_int(1), static_int(1), static_int(1)}),
                                                                    IntTuple::tuple({static_int(0), static_int(0), static_int(0)}));
  std::vector<Tiler> perm;
  std::vector<Value> perm_modes;
  if (c.args.size() > 2) {
    const Value& p = c.args[2];
    perm_modes = p.kind == Value::Kind::Tuple ? p.elems : std::vector<Value>{p};
    for (const Value& m : perm_modes) {
      const auto t = as_tiler(m);
      if (!t || t->kind == Tiler::Kind::Tuple)
        throw ArgumentError(2, fmt::format("each mode of a permutation is a layout, an extent or _, not {}", a.described(m)));
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
  if (c.template_args.size() != 1)
    throw Error("takes the element type as its template argument, as in make_tiled_copy<half_t>(op, thr, val) "
                "(CuTe's Copy_Atom<op, half_t>)");
  const auto* op = object_of<CopyOpObject>(c.args[0]);
  if (!op) throw ArgumentError(0, fmt::format("expected a copy operation (such as SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>), got {}",
                                              a.described(c.args[0])));
  const std::int64_t bits = c.template_args[0];
  if (bits < 1 || bits > 1024) throw Error(fmt::format("an element of {} bits is not a value type", bits));
  const Layout thr = a.layout(1);
  const Layout val = c.args.size() > 2 ? a.layout(2) : make_layout(IntTuple(static_int(1)));
  return Value::of(std::make_shared<const TiledCopyObject>(make_tiled_copy(op->atom, static_cast<int>(bits), thr, val, c.diag)));
}

using MmaLayout = Layout (*)(const TiledMma&, Diagnostics&);
using CopyLayout = Layout (*)(const TiledCopy&, Diagnostics&);
using MmaPartition = TensorSlice (*)(const TiledMma&, Int, const Layout&, Diagnostics&);
using MmaFragment = Layout (*)(const TiledMma&, Int, const Layout&, Diagnostics&);
using CopyPartition = TensorSlice (*)(const TiledCopy&, Int, const Layout&, Diagnostics&);

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

auto mma_partition(MmaPartition f) {
  return [f](const ExtensionCall& c) {
    const Args a{c};
    a.expect(3, 3);
    a.no_template_args();
    return to_value(f(a.mma(0), a.integer(1), a.layout(2), c.diag));
  };
}

auto mma_fragment(MmaFragment f) {
  return [f](const ExtensionCall& c) {
    const Args a{c};
    a.expect(3, 3);
    a.no_template_args();
    return Value::of(f(a.mma(0), a.integer(1), a.layout(2), c.diag));
  };
}

auto copy_partition(CopyPartition f) {
  return [f](const ExtensionCall& c) {
    const Args a{c};
    a.expect(3, 3);
    a.no_template_args();
    return to_value(f(a.copy(0), a.integer(1), a.layout(2), c.diag));
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
  if (const auto* m = object_of<TiledMmaObject>(c.args[0])) return Value::of(tile_size(m->mma, static_cast<int>(mode_index(c, 3, usage))));
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

std::optional<Value> atom_named(std::string_view name, std::string_view template_text) {
  // No atom's name is this long; a huge unknown name costs no catalogue search.
  if (name.size() + template_text.size() > 256) return std::nullopt;
  const std::string full = template_text.empty() ? std::string(name) : fmt::format("{}<{}>", name, template_text);
  const Atom* atom = find_atom(full);
  if (!atom) return std::nullopt;
  if (atom->kind == Atom::Kind::Mma) return Value::of(std::make_shared<const MmaAtomObject>(atom->mma));
  return Value::of(std::make_shared<const CopyOpObject>(atom->copy));
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
      {"partition_A", mma_partition(partition_A)},
      {"partition_B", mma_partition(partition_B)},
      {"partition_C", mma_partition(partition_C)},
      {"partition_fragment_A", mma_fragment(partition_fragment_A)},
      {"partition_fragment_B", mma_fragment(partition_fragment_B)},
      {"partition_fragment_C", mma_fragment(partition_fragment_C)},
      {"partition_S", copy_partition(partition_S)},
      {"partition_D", copy_partition(partition_D)},
  };
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

const TiledCopy* as_tiled_copy(const Value& v) {
  const auto* o = object_of<TiledCopyObject>(v);
  return o ? &o->copy : nullptr;
}

}  // namespace layoutx
