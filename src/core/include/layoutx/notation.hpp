// CuTe's print notation for engine values: _N for static integers, N for
// dynamic ones, (a,b) tuples, shape:stride layouts, Sw<B,M,S> swizzles.
// Lives with the engine because error messages name values in it too.
#pragma once

#include <string>

namespace layoutx {

class IntTuple;
struct Layout;
struct Int;

// How values are written. CuTe's print marks static integers (_4); the
// default mode prints CuTe's text with every mark removed, the CuTe-exact
// --dynamic mode keeps them.
struct Notation {
  bool static_marks = false;
};

std::string to_text(Int i, Notation n = {});
std::string to_text(const IntTuple& t, Notation n = {});
std::string to_text(const Layout& l, Notation n = {});
// The layout's text appended to `out` (eval writes its answers so, into one reused line).
void append_text(std::string& out, const Layout& l, Notation n = {});

}  // namespace layoutx
