#include "layoutx/postconditions.hpp"

#include <fmt/format.h>

#include <unordered_set>

#include "layoutx/notation.hpp"

namespace layoutx {

namespace {

std::string text(const AnyLayout& l) {
  if (const auto* p = std::get_if<Layout>(&l)) return to_text(*p);
  return to_text(std::get<ComposedLayout>(l));
}

std::int64_t at(const AnyLayout& l, std::int64_t i) { return evaluate(l, IntTuple(static_int(i))).value; }
std::int64_t at(const Layout& l, std::int64_t i) { return evaluate(l, IntTuple(static_int(i))).value; }

// Indices 0..n-1, or an even sample of the budget's size when n is larger.
template <class F>
void for_each_point(std::int64_t n, F f) {
  const std::int64_t step = n <= kPostconditionBudget ? 1 : n / kPostconditionBudget;
  for (std::int64_t i = 0; i < n; i += step)
    if (!f(i)) return;
}

bool has_warning(const char* condition) {
  for (const auto& w : Diagnostics::current().warnings())
    if (w.condition == condition) return true;
  return false;
}

}  // namespace

void check_composition(const AnyLayout& a, const Layout& b, const AnyLayout& r) {
  if (has_warning("Stride Divisibility Condition")) return;  // already explained where it went wrong
  const std::int64_t domain = size(a).value;
  for_each_point(size(b).value, [&](std::int64_t i) {
    const std::int64_t bi = at(b, i);
    if (bi < 0 || bi >= domain) return true;
    const std::int64_t want = at(a, bi), got = at(r, i);
    if (want == got) return true;
    Diagnostics::current().warn(
        "composition",
        fmt::format("composition({}, {}) = {} is CuTe's answer but not A o B: at index {}, A(B({})) = A({}) = {} "
                    "while the result gives {} (CuTe composes mode by mode, which is exact only when B's modes "
                    "divide A's modes evenly)",
                    text(a), to_text(b), text(r), i, i, bi, want, got));
    return false;
  });
}

void check_right_inverse(const AnyLayout& l, const AnyLayout& r) {
  for_each_point(size(r).value, [&](std::int64_t i) {
    const std::int64_t got = at(l, at(r, i));
    if (got == i) return true;
    Diagnostics::current().warn("right_inverse",
                                fmt::format("right_inverse({}) = {} is CuTe's answer but not a right inverse: "
                                            "L(R({})) = {}, not {}",
                                            text(l), text(r), i, got, i));
    return false;
  });
}

void check_left_inverse(const AnyLayout& l, const AnyLayout& r) {
  const std::int64_t n = size(l).value;
  if (n > kPostconditionBudget) return;
  std::unordered_set<std::int64_t> seen;
  for (std::int64_t i = 0; i < n; ++i)
    if (!seen.insert(at(l, i)).second) return;  // not injective: no left inverse is promised
  for_each_point(n, [&](std::int64_t i) {
    const std::int64_t got = at(r, at(l, i));
    if (got == i) return true;
    Diagnostics::current().warn("left_inverse",
                                fmt::format("left_inverse({}) = {} is CuTe's answer but not a left inverse: "
                                            "R(L({})) = {}, not {}",
                                            text(l), text(r), i, got, i));
    return false;
  });
}

}  // namespace layoutx
