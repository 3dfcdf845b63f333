// The independent evaluator on the CPU: the device's code, the indices split
// into contiguous parts, one per core; each part keeps its own failures and
// the parts are joined in index order, so the answer is the one-core answer.
#include <fmt/format.h>

#include "backend.hpp"
#include "layoutx/parallel.hpp"

namespace layoutx::device_detail::cpu {

namespace {

void note(Outcome& o, const Failure& f, std::size_t first_limit) {
  ++o.failures;
  if (o.first.size() < first_limit) o.first.push_back(f);
}

// Appends the failures of a later range of indices to those of an earlier one.
void join(Outcome& o, const Outcome& later, std::size_t first_limit) {
  o.failures += later.failures;
  for (const Failure& f : later.first) {
    if (o.first.size() >= first_limit) break;
    o.first.push_back(f);
  }
}

// The host streams its offsets in blocks of 2^16: parts of half a block still
// pay for their thread.
constexpr std::uint64_t kHostBlockPart = std::uint64_t{1} << 15;

// The spec over indices [lo, hi) on every core, in parts of at least
// min_part; host[i - host_base] is the host's offset of index i (HostOffsets
// only).
Outcome check_range(const CheckSpec& s, std::uint64_t lo, std::uint64_t hi, const std::int64_t* host,
                    std::uint64_t host_base, std::uint64_t* bits, std::size_t first_limit,
                    std::uint64_t min_part = std::uint64_t{1} << 16) {
  const int parts = parts_for(hi - lo, min_part);
  std::vector<Outcome> part(static_cast<std::size_t>(parts));
  for_each_part(hi - lo, parts, [&](int p, std::uint64_t b, std::uint64_t e) {
    Outcome& o = part[static_cast<std::size_t>(p)];
    Failure f{};
    for (std::uint64_t i = lo + b; i < lo + e; ++i)
      if (!holds(s, i, host, host_base, bits, f)) note(o, f, first_limit);
  });
  Outcome all;
  for (const Outcome& o : part) join(all, o, first_limit);
  return all;
}

}  // namespace

std::vector<Outcome> run(const std::vector<CheckSpec>& specs, std::uint64_t bitmap_bits, std::size_t first_limit) {
  std::vector<std::uint64_t> bits((bitmap_bits + 63) / 64, 0);
  std::vector<Outcome> out;
  for (const CheckSpec& s : specs) out.push_back(check_range(s, 0, s.points, nullptr, 0, bits.data(), first_limit));
  return out;
}

// The host's offsets arrive in blocks from one thread; each block is checked
// on every core as it comes (copying them to check one batch while the next
// is produced cost more than it saved).
Outcome compare_host(const CheckSpec& spec, const device::OffsetSource& host, std::size_t first_limit) {
  Outcome o;
  std::uint64_t base = 0;
  host([&](const std::int64_t* values, std::size_t n) {
    if (base + n > spec.points)
      throw Error(fmt::format("the host gave more than the {} offsets the layout has", spec.points));
    join(o, check_range(spec, base, base + n, values, base, nullptr, first_limit, kHostBlockPart), first_limit);
    base += n;
  });
  if (base != spec.points) throw Error(fmt::format("the host gave {} offsets for a layout of size {}", base, spec.points));
  return o;
}

void generate(const FlatLayout& l, std::uint64_t n, const device::OffsetBlocks& sink) {
  constexpr std::uint64_t kBlock = 1 << 16;
  std::vector<std::int64_t> block(kBlock);
  for (std::uint64_t base = 0; base < n; base += kBlock) {
    const std::uint64_t count = std::min(kBlock, n - base);
    for (std::uint64_t j = 0; j < count; ++j) block[j] = evaluate_index<std::uint64_t, std::int64_t>(l, base + j);
    sink(block.data(), count);
  }
}

}  // namespace layoutx::device_detail::cpu
