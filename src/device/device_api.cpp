// layoutx/device.hpp: the checks as specifications for either backend, with
// the bounds that keep the device's arithmetic exact checked first.
#include "layoutx/device.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "backend.hpp"
#include "flat_layout_build.hpp"

namespace layoutx::device {

using namespace device_detail;

namespace {

// Throws Error when n is more points than one check evaluates.
void within_limit(const CheckOptions& o, std::uint64_t n, const char* what) {
  if (n > kMaxPoints)
    throw Error(fmt::format("the {} has {} points; a check evaluates at most 2^32 = {}", what, n, kMaxPoints));
  if (n > o.max_points)
    throw Error(
        fmt::format("the {} has {} points, more than the limit of {} (raise it with --limit)", what, n, o.max_points));
}

std::uint64_t points_of(const CheckOptions& o, const AnyLayout& l) {
  const std::int64_t n = size(l).value;
  if (n <= 0) return 0;  // CuTe evaluates no index of an empty (or negative-size) layout
  within_limit(o, static_cast<std::uint64_t>(n), "layout");
  return static_cast<std::uint64_t>(n);
}

// The offsets of l over its own indices stay within 64 bits.
void bound_offsets(const FlatLayout& l, std::uint64_t n) {
  if (n > 0) (void)reach(l, static_cast<std::int64_t>(n - 1));
}

std::size_t limit_of(const CheckOptions& o) { return std::min(o.first_limit, kMaxFirst); }

std::vector<Outcome> run(const CheckOptions& o, const std::vector<CheckSpec>& specs, std::uint64_t bitmap_bits) {
  if (o.where == Where::Gpu) return gpu::run(specs, bitmap_bits, limit_of(o));
  return cpu::run(specs, bitmap_bits, limit_of(o), o.threads);
}

Verdict verdict_of(const Outcome& out, std::uint64_t points) {
  Verdict v;
  v.points = points;
  v.failures = out.failures;
  for (const Failure& f : out.first) v.first.push_back(Mismatch{f.index, f.expected, f.actual});
  return v;
}

Verdict run_one(const CheckOptions& o, const CheckSpec& spec) {
  return verdict_of(run(o, {spec}, 0).front(), spec.points);
}

}  // namespace

std::string gpu_unavailable_reason() { return gpu::unavailable_reason(); }

std::string gpu_description() { return gpu::description(); }

void generate_offsets(Where where, const AnyLayout& l, const OffsetBlocks& sink) {
  const std::int64_t n = size(l).value;
  if (n <= 0) return;
  const FlatLayout f = flat_of(l);
  bound_offsets(f, static_cast<std::uint64_t>(n));
  if (where == Where::Gpu)
    gpu::generate(f, static_cast<std::uint64_t>(n), sink);
  else
    cpu::generate(f, static_cast<std::uint64_t>(n), sink);
}

void generate_offset_lines(const AnyLayout& l, const TextSink& sink) {
  const std::int64_t n = size(l).value;
  if (n <= 0) return;
  const FlatLayout f = flat_of(l);
  bound_offsets(f, static_cast<std::uint64_t>(n));
  gpu::generate_lines(f, static_cast<std::uint64_t>(n), sink);
}

Verdict compare_offsets(const CheckOptions& o, const AnyLayout& r, const OffsetSource& host) {
  auto spec = std::make_unique<CheckSpec>();
  spec->kind = CheckKind::HostOffsets;
  spec->points = points_of(o, r);
  if (spec->points == 0) return Verdict{};
  spec->r = flat_of(r);
  bound_offsets(spec->r, spec->points);
  const std::size_t limit = limit_of(o);
  const Outcome out = o.where == Where::Gpu ? gpu::compare_host(*spec, host, limit, o.threads)
                                            : cpu::compare_host(*spec, host, limit, o.threads);
  return verdict_of(out, spec->points);
}

Verdict check_composition(const CheckOptions& o, const AnyLayout& r, const AnyLayout& a, const AnyLayout& b) {
  auto spec = std::make_unique<CheckSpec>();
  spec->kind = CheckKind::Composition;
  spec->points = points_of(o, r);
  if (spec->points == 0) return Verdict{};
  spec->r = flat_of(r);
  spec->a = flat_of(a);
  spec->b = flat_of(b);
  bound_offsets(spec->r, spec->points);
  if (spec->points > 0) (void)reach(spec->a, reach(spec->b, static_cast<std::int64_t>(spec->points - 1)));
  return run_one(o, *spec);
}

Verdict check_composition(const CheckOptions& o, const AnyLayout& r, const AnyLayout& a,
                          const std::vector<Layout>& tile) {
  auto spec = std::make_unique<CheckSpec>();
  spec->kind = CheckKind::Composition;
  spec->points = points_of(o, r);
  if (spec->points == 0) return Verdict{};
  spec->r = flat_of(r);
  spec->a = flat_by_mode(a);
  spec->b = flat_of_tile(tile);
  if (spec->b.groups > spec->a.groups)
    throw Error(fmt::format("a by-mode composition takes at most one tile mode per mode of the layout: {} against {}",
                            spec->b.groups, spec->a.groups));
  bound_offsets(spec->r, spec->points);
  std::int64_t sum = 0;
  for (int g = 0; g < spec->b.groups; ++g) {
    const std::int64_t extent = std::max<std::int64_t>(spec->b.group_size[g].d, 1);
    sum += reach_in_group(spec->a, g, reach_in_group(spec->b, g, extent - 1));
    if (sum >= (std::int64_t{1} << 62)) throw Error("the offsets reach beyond 2^62; the device evaluator refuses them");
  }
  (void)reach_of_stages(spec->a, sum);
  return run_one(o, *spec);
}

Verdict check_inverse(const CheckOptions& o, const AnyLayout& outer, const AnyLayout& inner) {
  auto spec = std::make_unique<CheckSpec>();
  spec->kind = CheckKind::Inverse;
  spec->points = points_of(o, inner);
  if (spec->points == 0) return Verdict{};
  spec->a = flat_of(outer);
  spec->b = flat_of(inner);
  if (spec->points > 0) (void)reach(spec->a, reach(spec->b, static_cast<std::int64_t>(spec->points - 1)));
  return run_one(o, *spec);
}

Verdict check_ordered(const CheckOptions& o, const AnyLayout& r) {
  auto spec = std::make_unique<CheckSpec>();
  spec->kind = CheckKind::Ordered;
  const std::uint64_t n = points_of(o, r);
  spec->points = n > 0 ? n - 1 : 0;
  if (spec->points == 0) return Verdict{};
  spec->r = flat_of(r);
  bound_offsets(spec->r, n);
  return run_one(o, *spec);
}

Verdict check_disjoint(const CheckOptions& o, const AnyLayout& a, const AnyLayout& r) {
  auto spec = std::make_unique<CheckSpec>();
  spec->kind = CheckKind::Disjoint;
  spec->points = points_of(o, a);
  spec->range = points_of(o, r);
  if (spec->points == 0) return Verdict{};
  spec->a = flat_of(a);
  spec->r = flat_of(r);
  bound_offsets(spec->a, spec->points);
  bound_offsets(spec->r, spec->range);
  return run_one(o, *spec);
}

Bijection check_bijection(const CheckOptions& o, const AnyLayout& d, std::int64_t n) {
  if (n < 0 || static_cast<std::uint64_t>(n) > kMaxPoints)
    throw Error(fmt::format("a bijection onto [0, {}) is checked only up to 2^32 values", n));
  within_limit(o, static_cast<std::uint64_t>(n), "range");
  std::vector<CheckSpec> specs(2);
  specs[0].kind = CheckKind::InRange;
  specs[0].points = points_of(o, d);
  specs[0].range = static_cast<std::uint64_t>(n);
  if (specs[0].points > 0) specs[0].r = flat_of(d);
  bound_offsets(specs[0].r, specs[0].points);
  specs[1].kind = CheckKind::Covered;
  specs[1].points = static_cast<std::uint64_t>(n);
  const std::vector<Outcome> out = run(o, specs, static_cast<std::uint64_t>(n));
  return Bijection{verdict_of(out[0], specs[0].points), verdict_of(out[1], specs[1].points)};
}

}  // namespace layoutx::device
