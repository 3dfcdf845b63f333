// coalesce, flatten: R(i) == A(i), the same function of the index.
#include "findings.hpp"

namespace layoutx::verify {

void check_same_function(Findings& f, const AnyLayout& result, const OuterCall& call) {
  if (!call.operands[0].is_layout_like()) return f.skipped(call.name + ": property not checked");
  const AnyLayout a = call.operands[0].as_any_layout();
  size_must_match(f, result, size(a), "size(A)");
  const AnyLayout identity{Layout{size(a), static_int(1)}};
  f.verdict(call.name + ": R(i) == A(i)", device::check_composition(f.device_options(), result, a, identity),
            [](const device::Mismatch& m) { return show_pair("R(i)", "A(i)", m); });
}

}  // namespace layoutx::verify
