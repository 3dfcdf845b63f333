// application/x-www-form-urlencoded bodies, as the page sends its requests
// (to the server, or to the WebAssembly engine).
#include "layoutx/serve.hpp"

namespace layoutx::serve {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// '+' is a space, %XX a byte.
std::string form_decoded(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() && hex_digit(s[i + 1]) >= 0 && hex_digit(s[i + 2]) >= 0) {
      out += static_cast<char>(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace

Params form_params(std::string_view form) {
  Params p;
  while (!form.empty()) {
    const auto amp = form.find('&');
    const std::string_view pair = form.substr(0, amp);
    const auto eq = pair.find('=');
    if (!pair.empty())
      p[form_decoded(pair.substr(0, eq))] = eq == std::string_view::npos ? "" : form_decoded(pair.substr(eq + 1));
    if (amp == std::string_view::npos) break;
    form.remove_prefix(amp + 1);
  }
  return p;
}

}  // namespace layoutx::serve
