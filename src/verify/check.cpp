// verify::check: the result's offsets from the host evaluator against the
// independent evaluator, then the defining property of the outermost
// operation, chosen by the property the function table gives it.
#include <fmt/format.h>

#include "findings.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/render.hpp"

namespace layoutx::verify {

namespace {

void compare_with_host(Findings& f, const AnyLayout& l, const std::string& name) {
  const device::Verdict v = device::compare_offsets(
      f.device_options(), l, [&](std::uint64_t lo, std::uint64_t hi, const device::OffsetBlocks& sink) {
        stream_offset_values(l, static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi), sink);
      });
  f.verdict(
      fmt::format("{}: host offsets == independent evaluation", name), v,
      [](const device::Mismatch& m) { return show_pair("host", "independent", m); }, Findings::Weight::Hard);
}

// Every layout in a result: the result itself, or each layout of a tile.
void collect_layouts(const Value& v, std::vector<AnyLayout>& out, Notation n) {
  if (v.kind == Value::Kind::Tuple && !v.is_int_tuple()) {
    for (const auto& e : v.elems) collect_layouts(e, out, n);
    return;
  }
  if (v.is_int_tuple()) {
    const Layout l = *v.as_plain_layout();  // a shape: its compact layout
    (void)size(l);                          // throws when the size leaves 64 bits
    out.push_back(l);
    return;
  }
  if (!v.is_layout_like()) throw Error(fmt::format("check needs a layout, got {} {}", a_kind_name(v), to_text(v, n)));
  out.push_back(v.as_any_layout());
}

void check_operation(Findings& f, const AnyLayout& result, const OuterCall& call) {
  const std::size_t n = call.operands.size();
  switch (call.property) {
    case Property::Composition:
      if (n == 2) check_composition(f, result, call);
      return;
    case Property::Complement:
      if (n >= 1) check_complement(f, result, call);
      return;
    case Property::RightInverse:
    case Property::LeftInverse:
      if (n == 1) check_inverse(f, result, call, call.property == Property::RightInverse);
      return;
    case Property::Divide:
      if (n == 2) check_divide(f, result, call);
      return;
    case Property::LogicalProduct:
    case Property::Product:
    case Property::BlockProduct:
      if (n == 2) check_product(f, result, call);
      return;
    case Property::SameFunction:
      if (n >= 1) check_same_function(f, result, call);
      return;
    case Property::None: return;
  }
}

// A property that cannot be evaluated (offsets past 64 bits, negative
// extents, more points than the limit) is reported as not checked; the host
// comparison still counts.
void check_property(Findings& f, const AnyLayout& result, const OuterCall& call) {
  try {
    check_operation(f, result, call);
  } catch (const Error& e) {
    f.skipped(fmt::format("property not checked: {}", e.message(f.diag().notation())));
  }
}

}  // namespace

std::string show_pair(const char* lhs, const char* rhs, const device::Mismatch& m) {
  return fmt::format("i = {}: {} = {}, {} = {}", m.index, lhs, m.expected, rhs, m.actual);
}

std::optional<AnyLayout> as_function(const Value& v) {
  if (v.kind == Value::Kind::Swizzle)
    return ComposedLayout{v.swizzle, static_int(0), Layout{static_int(1), static_int(1)}, {}};
  if (v.kind == Value::Kind::Integer) return AnyLayout{Layout{v.integer, static_int(1)}};
  return v.as_layout();
}

namespace {

IntTuple identity_strides(const IntTuple& shape, Int& current) {
  if (shape.is_leaf()) {
    const Int stride = current;
    current = current * shape.value();
    return IntTuple(stride);
  }
  std::vector<IntTuple> out;
  for (const auto& e : shape.elems()) out.push_back(identity_strides(e, current));
  return IntTuple(std::move(out));
}

}  // namespace

Layout identity_layout(const IntTuple& shape, Int start) {
  Int current = start;
  IntTuple stride = identity_strides(shape, current);
  return Layout{shape, std::move(stride)};
}

void size_must_match(Findings& f, const AnyLayout& result, Int expected, const std::string& of) {
  if (size(result).value != expected.value)
    f.broken(fmt::format("size(R) = {} but {} = {}", size(result).value, of, expected.value));
}

Report check(const Evaluation& e, bool warned, const Options& o, Diagnostics& diag) {
  Findings f(o, warned, diag);
  const Value& v = e.value;
  if (v.kind == Value::Kind::Swizzle) {
    f.skipped("a swizzle alone has no domain: nothing to evaluate");
    return f.report();
  }
  std::vector<AnyLayout> layouts;
  try {
    collect_layouts(v, layouts, diag.notation());
  } catch (const Error&) {
    // Only an int tuple fails here on its own (a stride, say): as a shape, its size leaves 64 bits.
    if (!v.is_int_tuple()) throw;
    f.skipped("R is an int tuple whose size as a shape leaves 64 bits: nothing to evaluate");
    return f.report();
  }
  for (std::size_t k = 0; k < layouts.size(); ++k)
    compare_with_host(f, layouts[k], layouts.size() == 1 ? std::string("R") : fmt::format("R[{}]", k));
  if (layouts.size() == 1 && v.kind != Value::Kind::Tuple && e.outer) check_property(f, layouts[0], *e.outer);
  return f.report();
}

}  // namespace layoutx::verify
