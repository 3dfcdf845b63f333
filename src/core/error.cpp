#include "layoutx/error.hpp"

namespace layoutx {

std::string excerpt(std::string_view text) {
  constexpr std::size_t kShown = 40;
  if (text.size() <= kShown + 24) return std::string(text);
  return std::string(text.substr(0, kShown)) + "... (" + std::to_string(text.size()) + " bytes)";
}

void Diagnostics::warn(std::string condition, std::string message) {
  if (strict_) throw Error(message + " [--strict: " + condition + "]");
  warnings_.push_back(Warning{std::move(condition), std::move(message)});
}

}  // namespace layoutx
