#include "layoutx/kernel_trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/atom_language.hpp"
#include "layoutx/tensor.hpp"
#include "layoutx/tma_language.hpp"

namespace layoutx {

namespace {

const Tensor& tensor_arg(const TracedCall& c, std::size_t i, std::string_view what) {
  const Value& v = c.args->at(i);
  if (v.kind != Value::Kind::Tensor)
    throw Error(fmt::format("the {} of {} is not a tensor (argument {})", what, c.name, i + 1));
  return as_tensor(v);
}

MemorySpace space_of(const Tensor& t, std::string_view what) {
  switch (t.iterator.memory) {
    case Memory::Global: return MemorySpace::Global;
    case Memory::Shared: return MemorySpace::Shared;
    case Memory::Register: return MemorySpace::Register;
    case Memory::GmmaDescriptor:
      throw Error(
          fmt::format("the {} is a tensor of GMMA descriptors: the MMA reads shared memory through them", what));
    default:
      throw Error(fmt::format("the {} is a coordinate tensor: it holds coordinates, not data a copy moves", what));
  }
}

// CuTe vectorizes copy(src, dst) only over layouts known at compile time.
bool static_layout(const Tensor& t) {
  const Layout& l = inner_layout(t.layout);
  return is_static(l.shape) && is_static(l.stride);
}

// The elements of t in its index order, counted from a 128-byte aligned address.
std::vector<std::int64_t> element_offsets(const Tensor& t, std::string_view what) {
  const Iterator& it = t.iterator;
  if (it.bits <= 0 || it.bits % 8 != 0)
    throw Error(fmt::format("the {} holds {}-bit elements; the report counts whole bytes", what, it.bits));
  const std::int64_t bytes = it.bits / 8;
  if (!it.position.is_leaf()) throw Error(fmt::format("the {} starts at a coordinate, not an address", what));
  const std::int64_t base = (it.known_base ? it.base / bytes : 0) + it.position.value().value;
  const std::int64_t n = size(t.layout).value;
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(std::max<std::int64_t>(n, 0)));
  for (std::int64_t i = 0; i < n; ++i)
    out.push_back(checked_add(base, evaluate(t.layout, IntTuple(static_int(i))).value, "an element's offset"));
  return out;
}

// The TMA call's box as the report counts it.
TmaBox tma_box(const TmaCopyValue& t) {
  TmaBox box;
  box.op = t.op;
  box.load = is_tma_load(t.op);
  box.elements = t.tma.elements_per_tma;
  box.multicast = t.multicast.value;
  box.swizzle = to_text(t.tma.swizzle);
  box.tensor_map_swizzle = std::string(t.tma.desc.swizzle);
  return box;
}

// The global element a TMA coordinate names: the descriptor's byte strides
// (the first, implicit, one element), kTmaOutOfBounds outside its dimensions.
std::int64_t tma_element(const IntTuple& coord, const TmaCopyValue& t) {
  const std::vector<Int> c = leaves(coord);
  const TmaDescriptorFields& d = t.tma.desc;
  if (c.size() > d.dims.size()) throw Error("a TMA coordinate has more modes than the descriptor");
  const std::int64_t elem_bytes = t.type->bits / 8;
  std::int64_t offset = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (c[i].is_scaled_basis()) throw Error("a TMA coordinate holds a scaled basis, not an integer");
    if (c[i].value < 0 || static_cast<std::uint64_t>(c[i].value) >= d.dims[i]) return kTmaOutOfBounds;
    const std::int64_t stride = i == 0 ? 1 : static_cast<std::int64_t>(d.strides[i - 1]) / elem_bytes;
    offset = checked_add(offset, checked_mul(c[i].value, stride, "a TMA element's offset"), "a TMA element's offset");
  }
  return offset;
}

// The global elements of a TMA copy's coordinate tensor, in its index order.
std::vector<std::int64_t> tma_offsets(const Tensor& coords, const TmaCopyValue& t, std::string_view what) {
  if (coords.iterator.memory != Memory::Coordinate)
    throw Error(
        fmt::format("the {} of a {} copy is the TMA coordinate tensor (tma.get_tma_tensor(shape), "
                    "partitioned), not a tensor of data",
                    what, t.op));
  if (t.type->bits % 8 != 0)
    throw Error(fmt::format("the {} holds {}-bit elements; the report counts whole bytes", what, t.type->bits));
  const Layout& l = plain_layout(coords, what);
  const std::int64_t n = size(l).value;
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(std::max<std::int64_t>(n, 0)));
  for (std::int64_t i = 0; i < n; ++i)
    out.push_back(
        tma_element(coordinate_sum(coords.iterator.position, evaluate_coordinate(l, IntTuple(static_int(i)))), t));
  return out;
}

// copy(src, dst), copy(copy, src, dst), copy_if(pred, src, dst), copy_if(copy, pred, src, dst):
// whether a predicate and a copy come before the tensors, the count checked.
struct CopyArguments {
  bool predicated = false;
  bool with_copy = false;
};

CopyArguments copy_arguments(const TracedCall& call) {
  const std::size_t n = call.args->size();
  const bool predicated = call.name == "copy_if";
  const std::size_t plain = predicated ? 3 : 2;
  if (n != plain && n != plain + 1)
    throw Error(fmt::format("{} takes {} or {} arguments here, got {}", call.name, plain, plain + 1, n));
  return {predicated, n == plain + 1};
}

std::int64_t mode_size(const Tensor& t, int mode) {
  const Layout& l = inner_layout(t.layout);
  if (l.shape.is_leaf() || mode >= l.shape.rank()) return 1;
  return size(get(l, mode)).value;
}

int rank_of(const Tensor& t) {
  const Layout& l = inner_layout(t.layout);
  return l.shape.is_leaf() ? 1 : l.shape.rank();
}

bool predicate_at(const Tensor& pred, std::int64_t i) {
  return element(pred, IntTuple(dynamic_int(i)), Notation{true}).value().value != 0;
}

// Which of the source's n elements copy_if copies, as CuTe reads its
// predicate: pred(i) for each element (copy_if(pred, src, dst)); through a
// copy atom (src's mode 0 the atom's values, `chunk` a call), one predicate
// a call: pred(rest) for a predicate without mode 0, else the predicate of
// the call's first element.
std::vector<bool> active_elements(const Tensor& pred, const Tensor& src, std::int64_t chunk, bool through_atom) {
  if (!pred.iterator.elements)
    throw Error(
        fmt::format("the predicate is {}: the report follows a register array of bool (make_tensor<bool>) that the "
                    "program fills, such as tP(i) = elem_less(tC(i), shape(mA))",
                    pred.print(Notation{true})));
  const std::int64_t n = size(src.layout).value;
  std::vector<bool> out(static_cast<std::size_t>(std::max<std::int64_t>(n, 0)));
  const std::int64_t values = mode_size(src, 0);
  const bool without_values = through_atom && rank_of(pred) == rank_of(src) - 1;
  if (through_atom && !without_values && rank_of(pred) != rank_of(src))
    throw Error(fmt::format("static_assert: CopyAtom rank-mismatch.: the predicate has rank {}, the source {}",
                            rank_of(pred), rank_of(src)));
  const std::int64_t covered = without_values ? n / std::max<std::int64_t>(values, 1) : n;
  if (size(pred.layout).value < covered)
    throw Error(fmt::format("the predicate has {} elements for the {} it guards", size(pred.layout).value, covered));
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t at = !through_atom ? i : without_values ? i / values : i / chunk * chunk;
    out[static_cast<std::size_t>(i)] = predicate_at(pred, at);
  }
  return out;
}

void add_sums(InstructionTraffic& into, const InstructionTraffic& x) {
  for (auto [a, b] :
       {std::pair{&into.instructions, x.instructions}, std::pair{&into.requests, x.requests},
        std::pair{&into.sectors, x.sectors}, std::pair{&into.min_sectors, x.min_sectors},
        std::pair{&into.bytes, x.bytes}, std::pair{&into.wavefronts, x.wavefronts}, std::pair{&into.ideal, x.ideal}})
    *a = checked_add(*a, b, "a call site's instruction count");
  into.per_thread = std::max(into.per_thread, x.per_thread);
  into.worst_sectors = std::max(into.worst_sectors, x.worst_sectors);
  into.widest_bits = std::max(into.widest_bits, x.widest_bits);
  into.conflict_degree = std::max(into.conflict_degree, x.conflict_degree);
}

// One execution's traffic added to the site's: the same instruction adds up, a new one is appended.
void merge(SiteTraffic& into, const SiteTraffic& one) {
  into.values_per_thread = std::max(into.values_per_thread, one.values_per_thread);
  into.threads = std::max(into.threads, one.threads);
  for (auto [a, b] :
       {std::pair{&into.tma.instructions, one.tma.instructions}, std::pair{&into.tma.sectors, one.tma.sectors},
        std::pair{&into.tma.min_sectors, one.tma.min_sectors}, std::pair{&into.tma.bytes, one.tma.bytes}})
    *a = checked_add(*a, b, "a call site's bulk copy count");
  into.tma.threads = std::max(into.tma.threads, one.tma.threads);
  into.tma.per_thread = std::max(into.tma.per_thread, one.tma.per_thread);
  into.tma.box_bytes = std::max(into.tma.box_bytes, one.tma.box_bytes);
  for (const InstructionTraffic& x : one.instructions) {
    const auto same =
        std::find_if(into.instructions.begin(), into.instructions.end(), [&](const InstructionTraffic& y) {
          return y.op == x.op && y.bits == x.bits && y.cute_bits == x.cute_bits && y.access == x.access;
        });
    if (same == into.instructions.end()) {
      into.instructions.push_back(x);
    } else {
      add_sums(*same, x);
    }
  }
}

}  // namespace

void KernelTrace::record(const TracedCall& call) {
  if (!call.args) return;
  if (call.threads < 1 || call.threads > kMaxBlockThreads)
    throw Error(fmt::format("a CTA of {} threads: CUDA launches at most {} a block", call.threads, kMaxBlockThreads));
  if (call.name == "copy" || call.name == "copy_if") record_copy(call);
  if (call.name == "gemm") record_gemm(call);
}

void KernelTrace::record_copy(const TracedCall& call) {
  const std::size_t n = call.args->size();
  const auto [predicated, with_copy] = copy_arguments(call);
  const Tensor& src = tensor_arg(call, n - 2, "source");
  const Tensor& dst = tensor_arg(call, n - 1, "destination");
  const TmaCopyValue* tma = with_copy ? as_tma_copy(call.args->front()) : nullptr;
  const bool tma_load = tma && is_tma_load(tma->op);
  CopyRecord& r = copies_[call.site];
  if (r.executions.empty() && r.calls.empty()) {
    r.shape.label = std::string(call.label);
    r.shape.predicated = predicated;
    r.shape.kind = CopyKind::AutoVectorizing;
    if (tma) {
      r.shape.kind = CopyKind::Tma;
      r.shape.tma = tma_box(*tma);
      r.shape.src.space = tma_load ? MemorySpace::Global : space_of(src, "source");
      r.shape.dst.space = tma_load ? space_of(dst, "destination") : MemorySpace::Global;
      r.shape.element_bits = tma->type->bits;
    } else if (with_copy) {
      const TiledCopy* tiled = as_tiled_copy(call.args->front());
      const CopyAtom* atom = tiled ? &tiled->atom : as_copy_atom(call.args->front());
      if (!atom)
        throw Error(
            fmt::format("the report follows copies through a TiledCopy (make_tiled_copy(...)), a "
                        "Copy_Atom or copy(src, dst); the first argument is {}",
                        a_kind_name(call.args->front())));
      r.shape.kind = CopyKind::Atom;
      r.atom.kind = Atom::Kind::Copy;
      r.atom.name = atom->name;
      r.atom.copy = *atom;
    }
    if (!tma) {
      r.shape.src.space = space_of(src, "source");
      r.shape.dst.space = space_of(dst, "destination");
      r.shape.element_bits = src.iterator.bits;
    }
    r.shape.src.static_layout = static_layout(src);
    r.shape.dst.static_layout = static_layout(dst);
    r.threads = call.threads;
  }
  const Tensor& data = tma_load ? dst : src;  // a TMA copy's side in shared memory
  if (tma && (data.iterator.memory != Memory::Shared || data.iterator.bits != tma->type->bits))
    throw Error(
        fmt::format("{} copies between the TMA coordinate tensor and a shared-memory tensor of {}-bit "
                    "elements; the {} is {}",
                    tma->op, tma->type->bits, tma_load ? "destination" : "source", data.print(Notation{true})));
  if (!tma && src.iterator.bits != dst.iterator.bits)
    throw Error(
        fmt::format("the source holds {}-bit elements and the destination {}-bit ones: the report follows "
                    "copies of one element type",
                    src.iterator.bits, dst.iterator.bits));
  if (call.thread < 0 || call.thread >= r.threads)
    throw Error(fmt::format("thread {} is outside the block", call.thread));
  const std::size_t e = r.calls[call.thread]++;
  if (e >= r.executions.size()) {
    r.executions.emplace_back();
    r.executions.back().src.resize(static_cast<std::size_t>(r.threads));
    r.executions.back().dst.resize(static_cast<std::size_t>(r.threads));
  }
  elements_ += 2 * size(src.layout).value;
  if (elements_ > kMaxTracedElements)
    throw Error(fmt::format("the CTA's copies move more than {} elements; the report follows at most that many",
                            kMaxTracedElements / 2));
  Execution& x = r.executions[e];
  x.src[static_cast<std::size_t>(call.thread)] =
      tma_load ? tma_offsets(src, *tma, "source") : element_offsets(src, "source");
  x.dst[static_cast<std::size_t>(call.thread)] =
      tma && !tma_load ? tma_offsets(dst, *tma, "destination") : element_offsets(dst, "destination");
  if (x.src[static_cast<std::size_t>(call.thread)].size() != x.dst[static_cast<std::size_t>(call.thread)].size())
    throw Error(fmt::format("the source has {} elements and the destination {}", size(src.layout).value,
                            size(dst.layout).value));
  if (predicated) {
    x.active.resize(static_cast<std::size_t>(r.threads));
    x.active[static_cast<std::size_t>(call.thread)] = copied_elements(call);
  }
}

std::vector<bool> copied_elements(const TracedCall& call) {
  const std::size_t n = call.args->size();
  const auto [predicated, through_atom] = copy_arguments(call);
  const Tensor& src = tensor_arg(call, n - 2, "source");
  if (!predicated)
    return std::vector<bool>(static_cast<std::size_t>(std::max<std::int64_t>(size(src.layout).value, 0)), true);
  const Value& p = call.args->at(n - 3);
  if (p.kind != Value::Kind::Tensor)
    throw Error(
        fmt::format("the predicate of copy_if is {}: the report follows a register array of bool "
                    "(make_tensor<bool>) that the program fills",
                    a_kind_name(p)));
  std::int64_t chunk = 1;
  if (through_atom) {
    const TiledCopy* tiled = as_tiled_copy(call.args->front());
    const CopyAtom* atom = tiled ? &tiled->atom : as_copy_atom(call.args->front());
    if (atom && src.iterator.bits > 0)
      chunk = std::max<std::int64_t>(1, size(get(atom->src, 1)).value / src.iterator.bits);
  }
  return active_elements(as_tensor(p), src, chunk, through_atom);
}

void KernelTrace::record_gemm(const TracedCall& call) {
  const std::size_t n = call.args->size();
  // gemm(mma, A, B, C) or gemm(mma, D, A, B, C).
  if (n != 4 && n != 5) throw Error(fmt::format("gemm takes 4 or 5 arguments here, got {}", n));
  const TiledMma* mma = as_tiled_mma(call.args->front());
  if (!mma)
    throw Error(
        fmt::format("the report follows gemm through a TiledMMA (make_tiled_mma(...)); the first argument is {}",
                    a_kind_name(call.args->front())));
  const Tensor& a = tensor_arg(call, n - 3, "A operand");
  const Tensor& b = tensor_arg(call, n - 2, "B operand");
  const Tensor& c = tensor_arg(call, n - 1, "C operand");
  MmaRecord& r = mmas_[call.site];
  r.site.label = std::string(call.label);
  r.site.atom = mma->atom.name;
  const std::int64_t k = inner_layout(a.layout).shape.rank() >= 3 ? mode_size(a, 2) : 1;
  r.site.atoms_per_call = std::max(r.site.atoms_per_call, mode_size(c, 1) * mode_size(c, 2) * k);
  r.site.a_elements = std::max(r.site.a_elements, size(a.layout).value);
  r.site.b_elements = std::max(r.site.b_elements, size(b.layout).value);
  r.site.c_elements = std::max(r.site.c_elements, size(c.layout).value);
  r.site.a_descriptors = a.iterator.memory == Memory::GmmaDescriptor;
  r.site.b_descriptors = b.iterator.memory == Memory::GmmaDescriptor;
  const std::int64_t calls = ++r.calls[call.thread];
  r.site.executions = std::max(r.site.executions, calls);
  r.site.threads = static_cast<std::int64_t>(r.calls.size());
}

std::string fragments_text(const MmaSite& m) {
  if (!m.a_descriptors && !m.b_descriptors)
    return fmt::format("A {}, B {}, C {} elements", m.a_elements, m.b_elements, m.c_elements);
  const auto operand = [](std::int64_t n, bool descriptors) {
    return fmt::format("{} {}", n, descriptors ? "GMMA descriptors" : "elements");
  };
  return fmt::format("A {}, B {}, C {} elements", operand(m.a_elements, m.a_descriptors),
                     operand(m.b_elements, m.b_descriptors), m.c_elements);
}

std::vector<std::vector<CopySite>> KernelTrace::copy_sites() const {
  std::vector<std::vector<CopySite>> out;
  for (const auto& [offset, r] : copies_) {
    std::vector<CopySite> executions;
    for (const Execution& x : r.executions) {
      CopySite s = r.shape;
      if (s.kind == CopyKind::Atom) s.atom = &r.atom;
      s.src.offsets = x.src;
      s.dst.offsets = x.dst;
      s.active = x.active;
      executions.push_back(std::move(s));
    }
    out.push_back(std::move(executions));
  }
  return out;
}

std::vector<SiteTraffic> KernelTrace::copy_traffic() const {
  std::vector<SiteTraffic> out;
  const std::vector<std::vector<CopySite>> sites = copy_sites();
  auto where = copies_.begin();
  for (const std::vector<CopySite>& executions : sites) {
    const std::size_t site = (where++)->first;
    SiteTraffic total;
    bool first = true;
    for (const CopySite& s : executions) {
      SiteTraffic one;
      try {
        one = predict_traffic(s);
      } catch (const Error& e) {
        // The model names the site by its label; a SiteError's place says it already.
        std::string_view message = e.what();
        if (message.starts_with(s.label + ": ")) message.remove_prefix(s.label.size() + 2);
        throw SiteError(std::string(message), site);
      }
      if (first) {
        total = one;
        first = false;
      } else {
        merge(total, one);
      }
    }
    total.executions = static_cast<std::int64_t>(executions.size());
    out.push_back(std::move(total));
  }
  const std::vector<Predication> masks = predication();
  for (std::size_t i = 0; i < out.size() && i < masks.size(); ++i) out[i].predication = masks[i];
  return out;
}

std::vector<std::size_t> KernelTrace::copy_site_offsets() const {
  std::vector<std::size_t> out;
  for (const auto& [offset, r] : copies_) out.push_back(offset);
  return out;
}

std::vector<Predication> KernelTrace::predication() const {
  std::vector<Predication> out;
  for (const auto& [offset, r] : copies_) {
    Predication p;
    p.predicated = r.shape.predicated;
    p.zero_fill = r.shape.kind == CopyKind::Atom && r.atom.name.find("_ZFILL") != std::string::npos;
    p.masked_per_thread.assign(static_cast<std::size_t>(r.threads), 0);
    std::vector<std::int64_t> elements(static_cast<std::size_t>(r.threads), 0);
    for (const Execution& x : r.executions)
      for (std::size_t t = 0; t < x.src.size(); ++t) {
        elements[t] += static_cast<std::int64_t>(x.src[t].size());
        if (t < x.active.size()) p.masked_per_thread[t] += std::count(x.active[t].begin(), x.active[t].end(), false);
      }
    for (std::size_t t = 0; t < elements.size(); ++t) {
      p.elements += elements[t];
      p.masked += p.masked_per_thread[t];
      if (elements[t] > 0 && p.masked_per_thread[t] == elements[t]) ++p.idle_threads;
    }
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<MmaSite> KernelTrace::mma_sites() const {
  std::vector<MmaSite> out;
  for (const auto& [offset, r] : mmas_) out.push_back(r.site);
  return out;
}

StageResources KernelTrace::resources() const {
  StageResources res;
  for (const auto& [offset, r] : copies_) {
    if (r.shape.dst.space != MemorySpace::Shared || r.executions.empty()) continue;
    if (r.shape.src.space == MemorySpace::Global && res.k_tiles == 0)
      res.k_tiles = static_cast<std::int64_t>(r.executions.size());
    std::set<std::int64_t> written;
    for (const auto& thread : r.executions.front().dst) written.insert(thread.begin(), thread.end());
    res.shared_bytes += static_cast<std::int64_t>(written.size()) * (r.shape.element_bits / 8);
  }
  for (const auto& [offset, r] : mmas_)
    res.register_elements += (r.site.a_descriptors ? 0 : r.site.a_elements) +
                             (r.site.b_descriptors ? 0 : r.site.b_elements) + r.site.c_elements;
  return res;
}

}  // namespace layoutx
