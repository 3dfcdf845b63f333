#include "layoutx/error.hpp"

namespace layoutx {

Diagnostics& Diagnostics::current() {
  thread_local Diagnostics diagnostics;
  return diagnostics;
}

void Diagnostics::warn(std::string condition, std::string message) {
  if (strict) throw Error(message + " [--strict: " + condition + "]");
  warnings_.push_back(Warning{std::move(condition), std::move(message)});
}

}  // namespace layoutx
