// complement: R is ordered and shares no offset with A but 0.
#include "findings.hpp"

namespace layoutx::verify {

void check_complement(Findings& f, const AnyLayout& result, const OuterCall& call) {
  const auto a = as_function(call.operands[0]);
  if (!a || call.operands[0].kind == Value::Kind::Swizzle) return f.skipped("complement: property not checked");
  const AnyLayout inner{inner_layout(*a)};
  const device::Verdict ordered = device::check_ordered(f.device_options(), result);
  f.verdict("complement: R is ordered, R(i) < R(i+1)", ordered,
            [](const device::Mismatch& m) { return show_pair("R(i)", "R(i+1)", m); });
  if (ordered.failures) return f.skipped("complement: disjointness needs an ordered R; not checked");
  f.verdict("complement: A and R share no offset but 0", device::check_disjoint(f.device_options(), inner, result),
            [](const device::Mismatch& m) { return fmt::format("A({}) = {} = R({})", m.index, m.expected, m.actual); });
}

}  // namespace layoutx::verify
