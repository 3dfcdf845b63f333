#include "layoutx/notation.hpp"

#include <fmt/format.h>

#include "layoutx/layout.hpp"

namespace layoutx {

namespace {

void append_text(std::string& out, const IntTuple& t, Notation n) {
  if (t.is_leaf()) {
    out += to_text(t.value(), n);
    return;
  }
  out += '(';
  for (size_t i = 0; i < t.elems().size(); ++i) {
    if (i) out += ',';
    append_text(out, t.elems()[i], n);
  }
  out += ')';
}
}  // namespace

std::string to_text(Int i, Notation n) {
  std::string out = (i.is_static && n.static_marks) ? fmt::format("_{}", i.value) : fmt::format("{}", i.value);
  // CuTe prints ScaledBasis<T, N0, N1, ...> as its value then @N in reverse order.
  for (int k = i.basis.rank; k-- > 0;) out += fmt::format("@{}", i.basis.modes[k]);
  return out;
}

std::string to_text(const IntTuple& t, Notation n) {
  std::string out;
  append_text(out, t, n);
  return out;
}

std::string to_text(const Layout& l, Notation n) { return to_text(l.shape, n) + ":" + to_text(l.stride, n); }

}  // namespace layoutx
