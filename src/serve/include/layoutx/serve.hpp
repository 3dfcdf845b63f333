// The explorer page and its JSON API over HTTP (`layoutx serve`): one page
// built into the binary, and answers that are the command line's texts and
// numbers, computed by the same library functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "layoutx/language.hpp"

namespace layoutx::serve {

// What one request may cost.
struct Limits {
  std::int64_t picture_cells = 65536;                // cells of a picture the page draws (--max-picture-cells)
  std::int64_t grid_cells = std::int64_t{1} << 20;   // cells of a text grid or offset table (--max-cells)
  std::size_t request_bytes = std::size_t{1} << 20;  // a request's body; longer ones are refused (413)
  double seconds = 10;                               // a computation's time; later answers are given up (503)
  int workers = 2;                                   // computations at a time
  int queued = 32;  // computations waiting for a worker; more are refused at once (503)
};

// What the API's evaluations share: the language's options (--max-length,
// --max-depth, --dynamic, definitions) and --strict.
struct Engine {
  LanguageOptions language;
  bool strict = false;
  Limits limits;
};

// An API call's parameters, by name.
using Params = std::map<std::string, std::string, std::less<>>;

// The parameters of an application/x-www-form-urlencoded body ("a=1&b=x+y").
Params form_params(std::string_view form);

// The answer to one API call: an HTTP status (200, or 400 with the command
// line's message for a refused input, 404 for an unknown call) and a JSON body.
struct Answer {
  int status = 200;
  std::string body;
};

// The API: `call` is the path after /api/ (evaluate, grid, offsets, info,
// explain, eq, tv, atom, bank, partition, export); see api.cpp for each one's parameters.
Answer answer(std::string_view call, const Params& params, const Engine& engine);

struct Options {
  std::string bind = "127.0.0.1";
  int port = 8080;        // 0: any free port
  int http_threads = 16;  // connections served at a time, besides those waiting for a computation
  Engine engine;
  // Called once the socket listens, with the page's address; the server then
  // runs until the process ends.
  std::function<void(const std::string& url)> listening;
};

// Serves until the process ends. Throws Error when the address cannot be bound.
void run_server(const Options& options);

}  // namespace layoutx::serve
