#include "layoutx/render.hpp"

namespace layoutx {

std::string render_notation(const Value& v) { return to_text(v); }

}  // namespace layoutx
