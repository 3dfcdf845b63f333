// The independent evaluator on the CPU: the device's code, one index after another.
#include <fmt/format.h>

#include "backend.hpp"

namespace layoutx::device_detail::cpu {

namespace {

void note(Outcome& o, const Failure& f, std::size_t first_limit) {
  ++o.failures;
  if (o.first.size() < first_limit) o.first.push_back(f);
}

}  // namespace

std::vector<Outcome> run(const std::vector<CheckSpec>& specs, std::uint64_t bitmap_bits, std::size_t first_limit) {
  std::vector<std::uint64_t> bits((bitmap_bits + 63) / 64, 0);
  std::vector<Outcome> out;
  for (const CheckSpec& s : specs) {
    Outcome o;
    Failure f{};
    for (std::uint64_t i = 0; i < s.points; ++i)
      if (!holds(s, i, nullptr, 0, bits.data(), f)) note(o, f, first_limit);
    out.push_back(std::move(o));
  }
  return out;
}

Outcome compare_host(const CheckSpec& spec, const device::OffsetSource& host, std::size_t first_limit) {
  Outcome o;
  std::uint64_t base = 0;
  Failure f{};
  host([&](const std::int64_t* values, std::size_t n) {
    if (base + n > spec.points)
      throw Error(fmt::format("the host gave more than the {} offsets the layout has", spec.points));
    for (std::uint64_t i = base; i < base + n; ++i)
      if (!holds(spec, i, values, base, nullptr, f)) note(o, f, first_limit);
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
