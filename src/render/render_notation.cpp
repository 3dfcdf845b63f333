#include "layoutx/render.hpp"

namespace layoutx {

// An object (TiledMMA, TiledCopy, an atom) as CuTe's print writes it, every line.
std::string render_notation(const Value& v, Notation n) {
  if (v.kind == Value::Kind::Object) return v.object->print(n);
  return to_text(v, n);
}

void append_notation(std::string& out, const Value& v, Notation n) {
  // A layout, the common answer, is written in place; the rest through its text.
  if (v.kind == Value::Kind::Layout)
    append_text(out, v.layout, n);
  else
    out += render_notation(v, n);
}

}  // namespace layoutx
