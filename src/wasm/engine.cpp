// The explorer page's API in WebAssembly: the static page's script calls
// layoutx_answer(call, form) where the server would take a request, and gets
// the same answer (serve::answer, with the server's default limits).
#include <string>
#include <string_view>

#include "layoutx/serve.hpp"

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A part of an application/x-www-form-urlencoded form: '+' is a space, %XX a byte.
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

layoutx::serve::Params form_params(std::string_view form) {
  layoutx::serve::Params params;
  while (!form.empty()) {
    const std::size_t amp = form.find('&');
    const std::string_view pair = form.substr(0, amp);
    const std::size_t eq = pair.find('=');
    if (!pair.empty())
      params[form_decoded(pair.substr(0, eq))] = eq == std::string_view::npos ? "" : form_decoded(pair.substr(eq + 1));
    form = amp == std::string_view::npos ? std::string_view() : form.substr(amp + 1);
  }
  return params;
}

}  // namespace

// "STATUS\nBODY": the HTTP status the server would give and its JSON body,
// valid until the next call.
extern "C" const char* layoutx_answer(const char* call, const char* form) {
  static std::string reply;
  const layoutx::serve::Answer a = layoutx::serve::answer(call, form_params(form), layoutx::serve::Engine{});
  reply = std::to_string(a.status) + "\n" + a.body;
  return reply.c_str();
}
