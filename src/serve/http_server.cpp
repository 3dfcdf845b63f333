// The HTTP side of `layoutx serve`: the page's files from the binary (no file
// of the disk is ever read), the API's calls through the work pool, and the
// limits on requests.
#include <fmt/format.h>
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <future>

#include <sys/socket.h>

#include "layoutx/error.hpp"
#include "layoutx/json_text.hpp"
#include "layoutx/serve.hpp"
#include "page_files.hpp"
#include "work_pool.hpp"

namespace layoutx::serve {

namespace {

std::string_view content_type(std::string_view name) {
  auto ends = [&](std::string_view ext) {
    return name.size() >= ext.size() && name.substr(name.size() - ext.size()) == ext;
  };
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".js")) return "text/javascript; charset=utf-8";
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".svg")) return "image/svg+xml";
  if (ends(".png")) return "image/png";
  return "application/octet-stream";
}

const PageFile* page_file(std::string_view name) {
  for (const PageFile& f : page_files())
    if (f.name == name) return &f;
  return nullptr;
}

void send_json(httplib::Response& res, int status, const std::string& body) {
  res.status = status;
  res.set_header("Cache-Control", "no-store");
  res.set_content(body, "application/json; charset=utf-8");
}

void send_failure(httplib::Response& res, int status, const std::string& message) {
  send_json(res, status, json::Object().str("error", error_text(message, "", 0, false)).str("message", message).done());
}

// The query's parameters, then a form body's (which win).
Params params_of(const httplib::Request& req) {
  Params p;
  for (const auto& [k, v] : req.params) p[k] = v;
  if (req.method == "POST" && req.get_header_value("Content-Type").rfind("application/x-www-form-urlencoded", 0) == 0)
    for (auto& [k, v] : form_params(req.body)) p[k] = std::move(v);
  return p;
}

// One computation's answer, shared between the request that waits for it and
// the worker that computes it; `abandoned` once the request gave up waiting.
struct Pending {
  std::promise<Answer> answer;
  std::atomic<bool> abandoned{false};
};

}  // namespace

void run_server(const Options& options) {
  const Limits& limits = options.engine.limits;
  httplib::Server server;
  // Requests waiting for a computation hold a thread each: beyond those, enough
  // threads that the page, a refusal (503) and a light call are served at once.
  const int http_threads = std::max(options.http_threads, limits.workers + limits.queued + 16);
  server.new_task_queue = [http_threads] { return new httplib::ThreadPool(static_cast<std::size_t>(http_threads)); };
  server.set_payload_max_length(limits.request_bytes);
  server.set_read_timeout(5, 0);
  // An answer goes out as its headers, then its body: with Nagle's algorithm
  // the body waits for the browser to acknowledge the headers, which it
  // delays by 40 ms, and every other keystroke's redraw took that much longer.
  server.set_tcp_nodelay(true);
  server.set_write_timeout(5, 0);
  server.set_keep_alive_timeout(2);
  WorkPool pool(limits.workers, limits.queued);

  server.Get("/", [](const httplib::Request&, httplib::Response& res) {
    const PageFile* f = page_file("index.html");
    res.set_header("Content-Security-Policy",
                   "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'");
    res.set_content(std::string(f->bytes), std::string(content_type(f->name)));
  });
  server.Get(R"(/([A-Za-z0-9_.-]+))", [](const httplib::Request& req, httplib::Response& res) {
    const PageFile* f = page_file(req.matches[1].str());
    if (!f || req.matches[1].str() == "index.html") {
      send_failure(res, 404, fmt::format("no file '{}' here: the page is at /", excerpt(req.path)));
      return;
    }
    res.set_header("Cache-Control", "no-cache");
    res.set_content(std::string(f->bytes), std::string(content_type(f->name)));
  });

  const auto api = [&options, &pool, &limits](const httplib::Request& req, httplib::Response& res) {
    const std::string call = req.matches[1].str();
    auto pending = std::make_shared<Pending>();
    std::future<Answer> done = pending->answer.get_future();
    const Engine& engine = options.engine;
    const bool queued = pool.submit([pending, call, params = params_of(req), &engine] {
      if (pending->abandoned) return;
      pending->answer.set_value(answer(call, params, engine));
    });
    if (!queued) {
      res.set_header("Retry-After", "1");
      send_failure(res, 503, fmt::format("the server is busy ({} computations are waiting); try again", limits.queued));
      return;
    }
    const auto limit = std::chrono::duration<double>(limits.seconds);
    if (done.wait_for(limit) != std::future_status::ready) {
      pending->abandoned = true;
      send_failure(
          res, 503,
          fmt::format("the answer took longer than the server's limit of {} s (serve --time-limit)", limits.seconds));
      return;
    }
    const Answer a = done.get();
    send_json(res, a.status, a.body);
  };
  server.Get(R"(/api/([a-z]+))", api);
  server.Post(R"(/api/([a-z]+))", api);

  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    const std::string message =
        res.status == 413   ? "the request is larger than the server's limit (serve --max-request)"
        : res.status == 404 ? fmt::format("nothing at '{}': the page is at /", excerpt(req.path))
                            : fmt::format("the request was refused (HTTP {})", res.status);
    send_failure(res, res.status, message);
  });

  // cpp-httplib listens with a backlog of 5: a burst of connections would
  // overflow it and be reset. The socket is kept as it is made, and listened
  // on again with the system's backlog once bound (Linux takes the new one).
  int listening_socket = -1;
  server.set_socket_options([&listening_socket](int sock) {
    httplib::default_socket_options(sock);
    listening_socket = sock;
  });

  int port = options.port;
  const bool bound =
      port == 0 ? (port = server.bind_to_any_port(options.bind)) > 0 : server.bind_to_port(options.bind, port);
  if (!bound) throw Error(fmt::format("cannot listen on {} port {}", options.bind, options.port));
  if (listening_socket >= 0) ::listen(listening_socket, SOMAXCONN);
  const bool v6 = options.bind.find(':') != std::string::npos;
  const std::string url = fmt::format("http://{}{}{}:{}/", v6 ? "[" : "", options.bind, v6 ? "]" : "", port);
  if (options.listening) options.listening(url);
  server.listen_after_bind();
}

}  // namespace layoutx::serve
