// CuTe's slice(c, t) and the offset of a slice, for L(_,j) and slice_and_offset.
#include <fmt/format.h>

#include <algorithm>

#include "call.hpp"
#include "layoutx/notation.hpp"

namespace layoutx::lang {

namespace {

// CuTe's slice(c, t): `_` keeps a mode, an integer drops it; results concatenate.
void slice_into(const Value& c, const IntTuple& t, std::vector<IntTuple>& out) {
  if (c.kind == Value::Kind::Underscore) {
    out.push_back(t);
    return;
  }
  if (c.kind != Value::Kind::Tuple) return;
  if (t.is_leaf() || t.rank() != static_cast<int>(c.elems.size()))
    throw Error(fmt::format("Mismatched Ranks: slice coordinate {} against {}", to_text(c), to_text(t)));
  for (int i = 0; i < t.rank(); ++i) slice_into(c.elems[i], t[i], out);
}

}  // namespace

bool has_underscore(const Value& v) {
  if (v.kind == Value::Kind::Underscore) return true;
  if (v.kind != Value::Kind::Tuple) return false;
  return std::any_of(v.elems.begin(), v.elems.end(), has_underscore);
}

IntTuple slice(const Value& c, const IntTuple& t) {
  if (c.kind == Value::Kind::Underscore) return t;
  std::vector<IntTuple> out;
  if (c.kind == Value::Kind::Tuple) {
    if (t.is_leaf() || t.rank() != static_cast<int>(c.elems.size()))
      throw Error(fmt::format("Mismatched Ranks: slice coordinate {} against {}", to_text(c), to_text(t)));
    for (int i = 0; i < t.rank(); ++i) slice_into(c.elems[i], t[i], out);
  }
  return IntTuple(std::move(out));
}

IntTuple underscores_as_zero(const Value& c) {
  if (c.kind == Value::Kind::Underscore) return IntTuple(static_int(0));
  if (c.kind == Value::Kind::Integer) return IntTuple(c.integer);
  if (c.kind != Value::Kind::Tuple) throw Error(fmt::format("a coordinate holds integers and `_`, not a {}", kind_name(c)));
  std::vector<IntTuple> out;
  for (const Value& e : c.elems) out.push_back(underscores_as_zero(e));
  return IntTuple(std::move(out));
}

}  // namespace layoutx::lang
