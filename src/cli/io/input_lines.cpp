#include "io/input_lines.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "io/output.hpp"
#include "layoutx/triton_encoding.hpp"

namespace layoutx::cli {

namespace {

// Standard input through one fixed buffer: a line is handed over in pieces,
// so a line longer than any limit costs no memory.
class StandardInput {
 public:
  enum class Status { Line, End, Failed, Endless };

  // Whether a whole line is at hand: in the buffer, or in what standard input
  // holds already (read now, as no read can wait then); read_line can hand
  // it over without waiting for input.
  bool holds_line() {
    if (has_newline()) return true;
    return top_up() && has_newline();
  }

  // The next line into `text` (without its newline), keeping at most `keep`
  // bytes of it; `length` is its full length. On Failed, `error` says why.
  // A line still going on past `give_up` bytes is Endless (/dev/zero has no
  // newline): standard input is not read further.
  Status read_line(std::string& text, std::size_t keep, std::size_t give_up, std::size_t& length, std::string& error) {
    text.clear();
    length = 0;
    bool any = false;
    for (;;) {
      if (pos_ == end_) {
        if (!fill(error)) return !error.empty() ? Status::Failed : any ? Status::Line : Status::End;
      }
      any = true;
      const char* start = buffer_ + pos_;
      const char* newline = next_newline();
      const std::size_t piece = newline ? static_cast<std::size_t>(newline - start) : end_ - pos_;
      if (text.size() < keep) text.append(start, std::min(piece, keep - text.size()));
      length += piece;
      pos_ += piece + (newline ? 1 : 0);
      if (newline) return Status::Line;
      if (length > give_up) {
        done_ = true;
        return Status::Endless;
      }
    }
  }

 private:
  // Answers already given are flushed before the read can block.
  bool fill(std::string& error) {
    if (done_) return false;
    flush_out();
    ssize_t n = 0;
    do n = ::read(STDIN_FILENO, buffer_, sizeof buffer_);
    while (n < 0 && errno == EINTR);
    if (n <= 0) {
      done_ = true;
      if (n < 0) error = fmt::format("cannot read standard input: {}", std::strerror(errno));
      return false;
    }
    pos_ = 0;
    end_ = static_cast<std::size_t>(n);
    found_ = kNone;
    return true;
  }

  bool has_newline() { return next_newline() != nullptr; }

  // The first newline at or after pos_, or null. The one found is kept:
  // holds_line and read_line ask for the same one, once each per line.
  const char* next_newline() {
    if (found_ < pos_ || found_ >= end_) {
      const auto* p = static_cast<const char*>(std::memchr(buffer_ + pos_, '\n', end_ - pos_));
      if (!p) return nullptr;
      found_ = static_cast<std::size_t>(p - buffer_);
    }
    return buffer_ + found_;
  }

  // Moves the start of a line to the front of the buffer and appends what
  // standard input holds, where a read cannot wait: without this every
  // buffer's worth of lines would end a batch of eval's threads. False when
  // nothing was added.
  bool top_up() {
    if (done_ || (pos_ == 0 && end_ == sizeof buffer_)) return false;
    pollfd in{STDIN_FILENO, POLLIN, 0};
    if (::poll(&in, 1, 0) != 1 || (in.revents & (POLLIN | POLLHUP)) == 0) return false;
    std::memmove(buffer_, buffer_ + pos_, end_ - pos_);
    end_ -= pos_;
    pos_ = 0;
    found_ = kNone;
    ssize_t n = 0;
    do n = ::read(STDIN_FILENO, buffer_ + end_, sizeof buffer_ - end_);
    while (n < 0 && errno == EINTR);
    if (n <= 0) return false;  // the end, or an error: read_line meets it again and reports it
    end_ += static_cast<std::size_t>(n);
    return true;
  }

  char buffer_[1 << 16];
  std::size_t pos_ = 0, end_ = 0;
  // Where next_newline found the first newline at or after pos_; kNone once
  // the buffer's bytes move.
  static constexpr std::size_t kNone = ~std::size_t{0};
  std::size_t found_ = kNone;
  bool done_ = false;
};

// The process has one standard input; every '-' reads on from where the last one stopped.
StandardInput& standard_input() {
  static StandardInput in;
  return in;
}

}  // namespace

bool holds_no_expression(std::string_view line) {
  std::size_t first = 0;  // a loop: find_first_not_of calls memchr per letter, on every line read
  while (first < line.size() && (line[first] == ' ' || line[first] == '\t')) ++first;
  return first == line.size() || (line[first] == '#' && !triton::is_triton_text(line.substr(first)));
}

ExpressionSource::ExpressionSource(std::vector<std::string> args, std::size_t max_length)
    : args_(std::move(args)), max_length_(max_length) {}

std::optional<InputExpression> ExpressionSource::next() {
  InputExpression e;
  if (!take(e, true)) return std::nullopt;
  return e;
}

std::optional<InputExpression> ExpressionSource::next_at_hand() {
  InputExpression e;
  if (!take(e, false)) return std::nullopt;
  return e;
}

bool ExpressionSource::next_into(InputExpression& e) { return take(e, true); }

bool ExpressionSource::next_at_hand_into(InputExpression& e) { return take(e, false); }

bool ExpressionSource::take(InputExpression& e, bool may_read) {
  e.problem.clear();
  e.line = 0;
  for (;;) {
    if (!reading_stdin_) {
      if (arg_ == args_.size()) return false;
      if (args_[arg_] != "-") {
        e.text = args_[arg_++];
        return true;
      }
      ++arg_;
      reading_stdin_ = true;
    }
    if (!may_read && !standard_input().holds_line()) return false;
    std::size_t length = 0;
    // One byte more than the limit: a trailing '\r' is not part of the expression.
    // Past the limit the rest of a line is skipped, but not forever.
    const std::size_t give_up = max_length_ + (std::size_t{1} << 24);
    const auto status = standard_input().read_line(e.text, max_length_ + 2, give_up, length, e.problem);
    if (status == StandardInput::Status::End) {
      reading_stdin_ = false;
      continue;
    }
    e.line = ++stdin_lines_;
    if (status == StandardInput::Status::Failed) {
      reading_stdin_ = false;
      return true;
    }
    if (status == StandardInput::Status::Endless) {
      e.problem = fmt::format(
          "a line of standard input goes on past {} bytes without a newline, over the limit of {} "
          "(raise it with --max-length); the rest of standard input is not read",
          give_up, max_length_);
      e.text.clear();
      reading_stdin_ = false;
      return true;
    }
    if (!e.text.empty() && e.text.back() == '\r' && e.text.size() == length) {
      e.text.pop_back();
      --length;
    }
    if (length > max_length_) {
      e.problem = fmt::format(
          "a line of standard input is {} bytes long, over the limit of {} (raise it with "
          "--max-length)",
          length, max_length_);
      e.text.clear();
      return true;
    }
    if (holds_no_expression(e.text)) continue;
    return true;
  }
}

std::string_view trimmed(std::string_view text) {
  const std::size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(" \t\r") - begin + 1);
}

}  // namespace layoutx::cli
