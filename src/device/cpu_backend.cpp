// The independent evaluator on the CPU: the device's code, the indices split
// into contiguous parts, one per core; each part keeps its own failures and
// the parts are joined in index order, so the answer is the one-core answer.
#include <fmt/format.h>

#include "backend.hpp"

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

// The spec over indices [lo, hi) on this thread, its failures added to o;
// host[i - host_base] is the host's offset of index i (HostOffsets only).
void check_part(const CheckSpec& s, std::uint64_t lo, std::uint64_t hi, const std::int64_t* host,
                std::uint64_t host_base, std::uint64_t* bits, std::size_t first_limit, Outcome& o) {
  Failure f{};
  for (std::uint64_t i = lo; i < hi; ++i)
    if (!holds(s, i, host, host_base, bits, f)) note(o, f, first_limit);
}

// Outcomes of consecutive parts, joined in index order.
Outcome joined(const std::vector<Outcome>& parts, std::size_t first_limit) {
  Outcome all;
  for (const Outcome& o : parts) join(all, o, first_limit);
  return all;
}

// The spec over [0, spec.points) in parts on every core (or on `threads`).
Outcome check_all(const CheckSpec& s, std::uint64_t* bits, std::size_t first_limit, int threads) {
  const int parts = parts_within(s.points, threads);
  std::vector<Outcome> part(static_cast<std::size_t>(parts));
  for_each_part(s.points, parts, [&](int p, std::uint64_t lo, std::uint64_t hi) {
    check_part(s, lo, hi, nullptr, 0, bits, first_limit, part[static_cast<std::size_t>(p)]);
  });
  return joined(part, first_limit);
}

}  // namespace

std::vector<Outcome> run(const std::vector<CheckSpec>& specs, std::uint64_t bitmap_bits, std::size_t first_limit,
                         int threads) {
  std::vector<std::uint64_t> bits((bitmap_bits + 63) / 64, 0);
  std::vector<Outcome> out;
  for (const CheckSpec& s : specs) out.push_back(check_all(s, bits.data(), first_limit, threads));
  return out;
}

// Each part of the indices asks the host for its own offsets and checks each
// block as it comes, so that the host's walk runs on every core as well as
// the comparison.
Outcome compare_host(const CheckSpec& spec, const device::OffsetSource& host, std::size_t first_limit, int threads) {
  const int parts = parts_within(spec.points, threads);
  std::vector<Outcome> part(static_cast<std::size_t>(parts));
  for_each_part(spec.points, parts, [&](int p, std::uint64_t lo, std::uint64_t hi) {
    Outcome& o = part[static_cast<std::size_t>(p)];
    host_offsets(host, lo, hi, [&](std::uint64_t first, const std::int64_t* values, std::size_t n) {
      check_part(spec, first, first + n, values, first, nullptr, first_limit, o);
    });
  });
  return joined(part, first_limit);
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
