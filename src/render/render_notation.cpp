#include "layoutx/render.hpp"

namespace layoutx {

std::string render_notation(const Value& v, Notation n) { return to_text(v, n); }

}  // namespace layoutx
