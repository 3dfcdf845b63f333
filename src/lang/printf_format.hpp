// C's printf, as glibc formats it: a program's printf("%5d|%-8s\n", ...)
// and print("format", args...) write exactly what the compiled program writes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace layoutx::lang {

// One argument as C passes it through `...`: an integer (any width, the
// conversion says how many bits are read), a double, a string or a pointer.
struct FormatArgument {
  enum class Kind { Integer, Real, String, Pointer } kind = Kind::Integer;
  std::int64_t integer = 0;
  double real = 0;
  std::string text;
};

// The text of printf(format, args...). Throws Error naming the conversion
// when an argument is missing or a conversion is one layoutx does not write
// (%n); arguments past the format are ignored, as C ignores them.
std::string c_format(std::string_view format, const std::vector<FormatArgument>& args);

}  // namespace layoutx::lang
