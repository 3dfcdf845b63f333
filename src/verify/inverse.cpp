// right_inverse: A(R(i)) == i; left_inverse: R(A(i)) == i where A is injective.
#include "findings.hpp"

namespace layoutx::verify {

namespace {

// Whether A's offsets are distinct, counted over 0..cosize(A)-1 (a swizzle
// permutes offsets, so A's inner layout decides); unknown with negative
// strides or a codomain past the point limit.
std::optional<bool> injective(Findings& f, const AnyLayout& a, std::uint64_t max_points) {
  const Layout& l = inner_layout(a);
  for (Int d : leaves(l.stride))
    if (d.value < 0) return std::nullopt;
  const std::int64_t n = size(l).value, co = cosize(l).value;
  if (n <= 0 || co <= 0 || static_cast<std::uint64_t>(co) > max_points) return std::nullopt;
  const device::Bijection b = device::check_bijection(f.device_options(), AnyLayout{l}, co);
  return b.outside.failures == 0 &&
         static_cast<std::uint64_t>(co) - b.missing.failures == static_cast<std::uint64_t>(n);
}

}  // namespace

void check_inverse(Findings& f, const AnyLayout& result, const OuterCall& call, bool right) {
  const Value& av = call.operands[0];
  if (!av.is_layout_like() && !av.is_int_tuple())
    return f.skipped(fmt::format("{}: the operand is not a layout; property not checked", call.name));
  const AnyLayout a = *as_function(av);
  if (right)
    f.verdict("right_inverse: A(R(i)) == i", device::check_inverse(f.device_options(), a, result),
              [](const device::Mismatch& m) { return fmt::format("i = {}: A(R(i)) = {}", m.index, m.actual); });
  else if (injective(f, a, f.device_options().max_points) == false)
    f.note("left_inverse: A is not injective, so it has no left inverse; R(A(i)) == i not checked");
  else
    f.verdict("left_inverse: R(A(i)) == i", device::check_inverse(f.device_options(), result, a),
              [](const device::Mismatch& m) { return fmt::format("i = {}: R(A(i)) = {}", m.index, m.actual); });
}

}  // namespace layoutx::verify
