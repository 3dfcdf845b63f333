// serve: the explorer page and its JSON API over HTTP, on the loopback
// interface unless --bind says otherwise.
#include <fmt/format.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver.hpp"
#include "io/output.hpp"

#if LAYOUTX_HAVE_SERVE
#include "layoutx/serve.hpp"
#endif

extern char** environ;

namespace layoutx::cli {

namespace {

struct ServeSettings {
  int port = 8080;
  std::string bind = "127.0.0.1";
  bool open = false;
  std::int64_t picture_cells = 65536;
  double seconds = 10;
  std::size_t request_bytes = std::size_t{1} << 20;
  int workers = 0;
  int queued = 32;
};

#if LAYOUTX_HAVE_SERVE
bool loopback(const std::string& address) {
  return address == "localhost" || address == "::1" || address.rfind("127.", 0) == 0;
}

// The desktop's browser on the page (xdg-open; open on macOS), left running.
void open_browser(const std::string& url) {
  for (const char* opener : {"xdg-open", "open"}) {
    pid_t pid = 0;
    const char* argv[] = {opener, url.c_str(), nullptr};
    if (posix_spawnp(&pid, opener, nullptr, nullptr, const_cast<char* const*>(argv), environ) == 0) {
      std::thread([pid] { waitpid(pid, nullptr, 0); }).detach();
      return;
    }
  }
  report_warning(fmt::format("--open: no xdg-open or open to start a browser; open {} yourself", url));
}

int run_serve(const Settings& s, const ServeSettings& o) {
  serve::Options options;
  options.bind = o.bind;
  options.port = o.port;
  options.engine.language = s.language;
  options.engine.strict = s.strict;
  serve::Limits& limits = options.engine.limits;
  limits.picture_cells = o.picture_cells;
  limits.grid_cells = s.grid.max_cells;
  limits.request_bytes = o.request_bytes;
  limits.seconds = o.seconds;
  limits.workers = o.workers > 0 ? o.workers : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  limits.queued = o.queued;
  if (!loopback(o.bind))
    report_warning(fmt::format("serving on {}: anyone who can reach this address can use the server", o.bind));
  // A browser that closes a connection early must not end the server.
  std::signal(SIGPIPE, SIG_IGN);
  options.listening = [&o](const std::string& url) {
    out(fmt::format("layoutx serve: {} (Ctrl-C stops it)\n", url));
    flush_out();
    if (o.open) open_browser(url);
  };
  return run_reporting_errors({}, notation(s), [&] {
    serve::run_server(options);
    return kOk;
  });
}
#elif LAYOUTX_SERVE_PROGRAM
// cpp-httplib, as Debian builds it, brings OpenSSL, zlib and brotli: loading
// them and OpenSSL's initialisation took every command five times a
// hello-world's start-up. The server is therefore a program of its own,
// layoutx-serve (this command line built with cpp-httplib), beside layoutx in
// the build folder and under libexec once installed; serve hands it the
// command line.
std::string serve_program() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  for (const auto& candidate : {self.parent_path() / "layoutx-serve", self.parent_path() / LAYOUTX_SERVE_INSTALLED})
    if (access(candidate.c_str(), X_OK) == 0) return candidate.lexically_normal().string();
  return "";
}

int run_serve(const Settings& s, const ServeSettings&) {
  const std::string program = serve_program();
  if (!program.empty()) {
    std::vector<char*> argv{const_cast<char*>(program.c_str())};
    for (std::size_t i = 1; i < s.command_line.size(); ++i)
      argv.push_back(const_cast<char*>(s.command_line[i].c_str()));
    argv.push_back(nullptr);
    flush_out();
    execv(program.c_str(), argv.data());
  }
  report_error(fmt::format("layoutx serve runs layoutx-serve, which was not found beside layoutx nor at {}",
                           LAYOUTX_SERVE_INSTALLED),
               "", 0, false);
  return kRejected;
}
#else
int run_serve(const Settings&, const ServeSettings&) {
  report_error(
      "this layoutx was built without cpp-httplib, so it cannot serve (Debian: apt-get install "
      "libcpp-httplib-dev, then build again)",
      "", 0, false);
  return kRejected;
}
#endif

}  // namespace

Command register_serve(CLI::App* sub, Settings& s) {
  auto o = std::make_shared<ServeSettings>();
  sub->footer(
      "The page answers as the commands do (--max-cells and --max-length apply to every request). From a remote\n"
      "machine, forward the port and open it locally:\n"
      "  ssh -L 8080:127.0.0.1:8080 gpu-box layoutx serve --port 8080\n"
      "  then open http://127.0.0.1:8080/ on your own machine");
  sub->add_option("--port", o->port, "TCP port (default 8080; 0: any free port, printed at start)")
      ->check(integer_range(0, 65535));
  sub->add_option("--bind", o->bind, "Address to listen on (default 127.0.0.1: this machine only)");
  sub->add_flag("--open", o->open, "Open the page in the desktop's browser");
  sub->add_option("--max-picture-cells", o->picture_cells, "Largest picture the page is sent, in cells (default 65536)")
      ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 24));
  sub->add_option("--time-limit", o->seconds, "Seconds a request may compute before it is answered 503 (default 10)")
      ->check(CLI::Range(0.01, 3600.0));
  sub->add_option("--max-request", o->request_bytes, "Largest request body accepted, in bytes (default 1048576)")
      ->check(integer_range(1024, std::int64_t{1} << 30));
  sub->add_option("--workers", o->workers, "Requests computed at a time (default 0: one per core)")
      ->check(integer_range(0, 256));
  sub->add_option("--queue", o->queued, "Requests waiting for a worker; more are answered 503 at once (default 32)")
      ->check(integer_range(0, 100000));
  return {sub, [&s, o] { return run_serve(s, *o); }};
}

}  // namespace layoutx::cli
