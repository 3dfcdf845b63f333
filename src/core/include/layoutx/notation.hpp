// CuTe's print notation for engine values: _N for static integers, N for
// dynamic ones, (a,b) tuples, shape:stride layouts, Sw<B,M,S> swizzles.
// Lives with the engine because error messages name values in it too.
#pragma once

#include <string>

namespace layoutx {

class IntTuple;
struct Layout;
struct Int;

// Whether to write static marks by default (CuTe-exact --dynamic mode turns them on;
// the default mode prints CuTe's text with every mark removed).
void set_static_marks(bool on);
bool static_marks();

std::string to_text(Int i);
std::string to_text(const IntTuple& t);
std::string to_text(const Layout& l);

}  // namespace layoutx
