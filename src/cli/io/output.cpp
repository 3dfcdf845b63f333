#include "io/output.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace layoutx::cli {

namespace {

[[noreturn]] void write_failed() {
  if (errno == EPIPE) std::_Exit(0);  // the reader went away: nothing more to say
  std::fprintf(stderr, "layoutx: error: cannot write to standard output: %s\n", std::strerror(errno));
  std::clearerr(stdout);
  throw OutputFailure{};
}

}  // namespace

void out(std::string_view text) {
  if (text.empty()) return;
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) write_failed();
}

void flush_out() {
  // A write that failed earlier (help text written through iostreams) leaves the error flag.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) write_failed();
}

void write_stderr(const std::string& text) { std::fputs(text.c_str(), stderr); }

void report_error(std::string_view message, std::string_view expression, std::size_t offset, bool with_caret) {
  write_stderr(error_text(message, expression, offset, with_caret));
}

void report_warning(std::string_view message) { write_stderr(warning_text(message)); }

namespace {

class StandardStreams final : public Output {
 public:
  void out(std::string_view text) override { cli::out(text); }
  void flush() override { flush_out(); }
  void error(std::string_view message, std::string_view expression, std::size_t offset, bool with_caret) override {
    report_error(message, expression, offset, with_caret);
  }
  void warning(std::string_view message) override { report_warning(message); }
};

}  // namespace

Output& standard_streams() {
  static StandardStreams streams;
  return streams;
}

}  // namespace layoutx::cli
