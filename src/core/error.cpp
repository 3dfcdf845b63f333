#include "layoutx/error.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace layoutx {

std::string excerpt(std::string_view text) {
  constexpr std::size_t kShown = 40;
  if (text.size() <= kShown + 24) return std::string(text);
  return std::string(text.substr(0, kShown)) + "... (" + std::to_string(text.size()) + " bytes)";
}

namespace {

// Control characters would garble the caret line; show them as '?'.
std::string printable(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  return out;
}

}  // namespace

std::string error_text(std::string_view message, std::string_view expression, std::size_t offset, bool with_caret) {
  std::string text = fmt::format("layoutx: error: {}\n", message);
  if (with_caret) {
    // Show at most ~100 columns around the offending position.
    std::size_t begin = offset > 60 ? offset - 60 : 0;
    std::size_t end = std::min(expression.size(), begin + 120);
    if (offset > expression.size()) offset = expression.size();
    std::string shown = printable(expression.substr(begin, end - begin));
    std::string prefix = begin ? "  ..." : "  ";
    text += fmt::format("{}{}{}\n", prefix, shown, end < expression.size() ? "..." : "");
    text += std::string(prefix.size() + (offset - begin), ' ') + "^\n";
  }
  return text;
}

std::string warning_text(std::string_view message) { return fmt::format("layoutx: warning: {}\n", message); }

void Diagnostics::warn(std::string condition, std::string message) {
  if (strict_) throw Error(message + " [--strict: " + condition + "]");
  warnings_.push_back(Warning{std::move(condition), std::move(message)});
}

}  // namespace layoutx
