#include "layoutx/notation.hpp"

#include <charconv>

#include "layoutx/layout.hpp"

namespace layoutx {

namespace {

void append_decimal(std::string& out, std::int64_t v) {
  if (v >= 0 && v < 10) {  // most integers of most layouts
    out += static_cast<char>('0' + v);
    return;
  }
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
  out.append(digits, end);
}

// Written in place: printing is a large part of a small expression's cost.
void append_text(std::string& out, Int i, Notation n) {
  if (i.is_static && n.static_marks) out += '_';
  append_decimal(out, i.value);
  // CuTe prints ScaledBasis<T, N0, N1, ...> as its value then @N in reverse order.
  for (int k = i.basis.rank; k-- > 0;) {
    out += '@';
    append_decimal(out, i.basis.modes[k]);
  }
}

void append_text(std::string& out, const IntTuple& t, Notation n) {
  if (t.is_leaf()) {
    append_text(out, t.value(), n);
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
  std::string out;
  append_text(out, i, n);
  return out;
}

std::string to_text(const IntTuple& t, Notation n) {
  std::string out;
  append_text(out, t, n);
  return out;
}

std::string to_text(const Layout& l, Notation n) {
  std::string out;
  out.reserve(48);  // one block for the text of a small layout
  append_text(out, l.shape, n);
  out += ':';
  append_text(out, l.stride, n);
  return out;
}

}  // namespace layoutx
