#include "layoutx/render.hpp"

namespace layoutx {

// An object (TiledMMA, TiledCopy, an atom) as CuTe's print writes it, every line.
std::string render_notation(const Value& v, Notation n) {
  if (v.kind == Value::Kind::Object) return v.object->print(n);
  return to_text(v, n);
}

}  // namespace layoutx
