#include "layoutx/notation.hpp"

#include <fmt/format.h>

#include "layoutx/layout.hpp"

namespace layoutx {

namespace {
bool g_static_marks = false;

void append_text(std::string& out, const IntTuple& t) {
  if (t.is_leaf()) {
    out += to_text(t.value());
    return;
  }
  out += '(';
  for (size_t i = 0; i < t.elems().size(); ++i) {
    if (i) out += ',';
    append_text(out, t.elems()[i]);
  }
  out += ')';
}
}  // namespace

void set_static_marks(bool on) { g_static_marks = on; }
bool static_marks() { return g_static_marks; }

std::string to_text(Int i) {
  std::string out = (i.is_static && g_static_marks) ? fmt::format("_{}", i.value) : fmt::format("{}", i.value);
  // CuTe prints ScaledBasis<T, N0, N1, ...> as its value then @N in reverse order.
  for (int k = i.basis.rank; k-- > 0;) out += fmt::format("@{}", i.basis.modes[k]);
  return out;
}

std::string to_text(const IntTuple& t) {
  std::string out;
  append_text(out, t);
  return out;
}

std::string to_text(const Layout& l) { return to_text(l.shape) + ":" + to_text(l.stride); }

}  // namespace layoutx
