// From layouts to lane addresses: a THREADS layout (lane + 32 * instruction ->
// element offset, or -> coordinate of a shared-memory layout) becomes one
// byte-offset table per warp-wide instruction.
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "layoutx/bank.hpp"
#include "layoutx/notation.hpp"

namespace layoutx {

namespace {

// Larger THREADS layouts are not one warp's accesses but a whole kernel's.
constexpr std::int64_t kMaxInstructions = std::int64_t{1} << 16;

std::int64_t element_offset(const AnyLayout& threads, const AnyLayout* smem, std::int64_t i) {
  const std::int64_t o = evaluate(threads, IntTuple(static_int(i))).value;
  if (!smem) return o;
  const std::int64_t extent = size(*smem).value;
  if (o < 0 || o >= extent)
    throw Error(
        fmt::format("THREADS maps index {} to {}, outside the shared-memory layout's {} coordinates", i, o, extent));
  return evaluate(*smem, IntTuple(static_int(o))).value;
}

// A canonical shared-memory atom (Sw o smem_ptr[Bb](unset) o L) swizzles the
// byte addresses behind its pointer, as make_tensor(smem_ptr, atom) does: its
// elements lie where its position-independent form says, not where its
// printed offsets say.
AnyLayout addressed(const AnyLayout& l, std::int64_t elem_bits) {
  const auto* c = std::get_if<ComposedLayout>(&l);
  if (!c || !c->pointer) return l;
  if (c->pointer->bits != elem_bits)
    throw naming_values([&](Notation shown) {
      return fmt::format("{} points to {}-bit elements, but the element size given is {} bits", to_text(*c, shown),
                         c->pointer->bits, elem_bits);
    });
  return position_independent(*c);
}

}  // namespace

std::int64_t element_byte_offset(std::int64_t offset, std::int64_t elem_bits) {
  const std::int64_t bits = checked_mul(offset, elem_bits, "the byte offset of an element");
  if (bits % 8 != 0)
    throw Error(
        fmt::format("element offset {} of {}-bit elements is not a whole byte ({} bits)", offset, elem_bits, bits));
  return bits / 8;
}

namespace {

void check_elem_bits(std::int64_t elem_bits) {
  if (elem_bits <= 0) throw Error(fmt::format("element size must be positive, got {} bits", elem_bits));
}

void check_instruction_count(std::int64_t count, const char* what) {
  if (count > kMaxInstructions)
    throw Error(fmt::format("{} describes {} instructions; at most {} are analysed", what, count, kMaxInstructions));
}

// Analyses one instruction's lanes and adds it to the totals; `label` names it in errors.
void add_instruction(BankAnalysis& a, const std::vector<std::int64_t>& bytes, const std::string& label) {
  try {
    a.instructions.push_back(analyze_instruction(a.access, bytes));
  } catch (const Error& e) {
    if (label.empty()) throw;
    throw naming_values([&](Notation shown) { return fmt::format("{}: {}", label, e.message(shown)); });
  }
  const InstructionBanks& r = a.instructions.back();
  a.wavefronts += r.wavefronts;
  a.ideal += r.ideal;
  a.conflict_degree = std::max(a.conflict_degree, r.conflict_degree);
}

void warn_past_shared_memory(const BankAnalysis& a, Diagnostics& diag) {
  const AccessInfo& info = access_info(a.access);
  std::int64_t highest = 0;
  for (const auto& r : a.instructions) {
    const std::size_t used = info.matrices ? static_cast<std::size_t>(lanes_used(a.access)) : r.byte_offsets.size();
    for (std::size_t lane = 0; lane < used && lane < r.byte_offsets.size(); ++lane)
      highest = std::max(highest, r.byte_offsets[lane]);
  }
  if (highest + info.bytes > kMaxSharedBytes)
    diag.warn("byte offset + access <= 227 KB",
              fmt::format("byte offset {} lies beyond the 227 KB of shared memory a block can have on sm_90", highest));
}

}  // namespace

BankAnalysis analyze_banks(SharedAccess access, const AnyLayout& threads_given, std::int64_t elem_bits,
                           Diagnostics& diag, const AnyLayout* smem_given) {
  const AccessInfo& info = access_info(access);
  check_elem_bits(elem_bits);
  const AnyLayout threads = smem_given ? threads_given : addressed(threads_given, elem_bits);
  const std::optional<AnyLayout> smem_addressed =
      smem_given ? std::optional<AnyLayout>(addressed(*smem_given, elem_bits)) : std::nullopt;
  const AnyLayout* smem = smem_addressed ? &*smem_addressed : nullptr;
  const std::int64_t n = size(threads).value;
  if (n <= 0) throw Error("THREADS has no lanes");
  const bool one_warp = n <= kWarpLanes;
  if (!one_warp && n % kWarpLanes != 0)
    throw Error(
        fmt::format("THREADS has {} lanes: one warp has at most 32, several instructions need a multiple of 32", n));
  check_instruction_count(n / kWarpLanes, "THREADS");
  if (info.matrices && n < lanes_used(access))
    throw Error(fmt::format("{} takes a row address from each of lanes 0..{}, THREADS has {} lane{}", info.name,
                            lanes_used(access) - 1, n, n == 1 ? "" : "s"));

  BankAnalysis a;
  a.access = access;
  a.elem_bits = elem_bits;
  const std::int64_t lanes = one_warp ? n : kWarpLanes;
  for (std::int64_t first = 0; first < n; first += lanes) {
    std::vector<std::int64_t> bytes;
    bytes.reserve(lanes);
    for (std::int64_t lane = 0; lane < lanes; ++lane)
      bytes.push_back(element_byte_offset(element_offset(threads, smem, first + lane), elem_bits));
    add_instruction(a, bytes, one_warp ? "" : fmt::format("instruction {}", first / kWarpLanes));
  }
  warn_past_shared_memory(a, diag);
  return a;
}

BankAnalysis analyze_tv_banks(SharedAccess access, const Layout& tv, const AnyLayout& smem_given,
                              std::int64_t elem_bits, Diagnostics& diag) {
  const AccessInfo& info = access_info(access);
  check_elem_bits(elem_bits);
  const AnyLayout smem = addressed(smem_given, elem_bits);
  if (info.matrices)
    throw Error(
        fmt::format("{} takes one row address per lane, not a thread-value layout: give THREADS instead", info.name));
  if (rank(tv) < 2)
    throw naming_values([&](Notation shown) {
      return fmt::format("a TV layout has a thread mode and a value mode, got {}", to_text(tv, shown));
    });
  const std::int64_t threads = size(get(tv, 0)).value, values = size(tv).value / std::max<std::int64_t>(threads, 1);
  if (threads <= 0 || values <= 0) throw Error("the TV layout has no threads or no values");
  if (threads > kWarpLanes && threads % kWarpLanes != 0)
    throw Error(fmt::format("the TV layout has {} threads: at most one warp's 32, or whole warps", threads));
  const std::int64_t access_bits = std::int64_t{info.bytes} * 8;
  if (access_bits % elem_bits != 0)
    throw Error(
        fmt::format("a {}-byte {} does not hold a whole number of {}-bit elements", info.bytes, info.name, elem_bits));
  const std::int64_t vector = access_bits / elem_bits;
  if (values % vector != 0)
    throw Error(fmt::format("each thread holds {} values, not a whole number of {}-element {} accesses", values, vector,
                            info.name));
  const std::int64_t lanes = std::min<std::int64_t>(threads, kWarpLanes), warps = threads / lanes;
  check_instruction_count(checked_mul(warps, values / vector, "the instruction count"), "the TV layout");

  BankAnalysis a;
  a.access = access;
  a.elem_bits = elem_bits;
  auto offset_of = [&](std::int64_t t, std::int64_t v) { return element_offset(tv, &smem, t + threads * v); };
  for (std::int64_t w = 0; w < warps; ++w)
    for (std::int64_t v = 0; v < values; v += vector) {
      std::vector<std::int64_t> bytes;
      for (std::int64_t lane = 0; lane < lanes; ++lane) {
        const std::int64_t t = w * lanes + lane, first = offset_of(t, v);
        for (std::int64_t j = 1; j < vector; ++j)
          if (offset_of(t, v + j) != first + j)
            throw Error(
                fmt::format("thread {}'s values {}..{} are not contiguous in shared memory (value {} is at {}, "
                            "not {}): one {} cannot access them",
                            t, v, v + vector - 1, v + j, offset_of(t, v + j), first + j, info.name));
        bytes.push_back(element_byte_offset(first, elem_bits));
      }
      add_instruction(a, bytes,
                      warps * values == vector ? "" : fmt::format("warp {}, values {}..{}", w, v, v + vector - 1));
    }
  warn_past_shared_memory(a, diag);
  return a;
}

}  // namespace layoutx
