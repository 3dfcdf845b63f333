#include "commands/window_options.hpp"

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace layoutx::cli {

namespace {

std::optional<std::int64_t> number(std::string_view text) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < 0) return std::nullopt;
  return v;
}

// "A:B" (A to B-1, as Python slices), "A:" (A to the last), ":B" (0 to B-1), or "A" (A alone).
std::optional<GridWindow> window(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    const auto a = number(text);
    if (!a || *a == INT64_MAX) return std::nullopt;
    return GridWindow{*a, *a + 1};
  }
  GridWindow w;
  const std::string_view a = text.substr(0, colon), b = text.substr(colon + 1);
  if (!a.empty()) {
    const auto v = number(a);
    if (!v) return std::nullopt;
    w.begin = *v;
  }
  if (!b.empty()) {
    const auto v = number(b);
    if (!v) return std::nullopt;
    w.end = *v;
  }
  return w;
}

void add_window(CLI::App* sub, const std::string& name, const char* what, GridWindow& target) {
  sub->add_option_function<std::string>(
         name, [&target](const std::string& text) { target = *window(text); },
         std::string("Show only ") + what + " A to B-1 (A:B, A:, :B or A), numbered as in the whole grid")
      ->type_name("A:B")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            return window(text) ? "" : "'" + text + "' is no window: write A:B, A:, :B or A with A, B >= 0";
          },
          "A:B"));
}

}  // namespace

void add_window_options(CLI::App* sub, GridOptions& grid) {
  add_window(sub, "--rows", "rows", grid.rows);
  add_window(sub, "--cols", "columns", grid.cols);
}

}  // namespace layoutx::cli
