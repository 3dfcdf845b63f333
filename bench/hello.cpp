// The start-up baseline: a program built with layoutx's flags and linked
// against the same libraries (fmt, libstdc++, the layoutx libraries) that
// prints one line, so `layoutx print` is compared with the cost of merely
// starting a C++ program of this kind.
#include <fmt/format.h>

#include <string>

int main(int argc, char** argv) {
  const std::string word = argc > 1 ? argv[1] : "hello";
  fmt::print("{}\n", word);
  return 0;
}
