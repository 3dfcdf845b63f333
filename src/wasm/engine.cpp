// The explorer page's API in WebAssembly: the static page's script calls
// layoutx_answer(call, form) where the server would take a request, and gets
// the same answer (serve::answer, with the server's default limits).
#include <string>

#include "layoutx/serve.hpp"

// "STATUS\nBODY": the HTTP status the server would give and its JSON body,
// valid until the next call.
extern "C" const char* layoutx_answer(const char* call, const char* form) {
  static std::string reply;
  const layoutx::serve::Answer a =
      layoutx::serve::answer(call, layoutx::serve::form_params(form), layoutx::serve::Engine{});
  reply = std::to_string(a.status) + "\n" + a.body;
  return reply.c_str();
}
