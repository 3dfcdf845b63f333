// The only place that writes to stdout and stderr.
#pragma once

#include <string>
#include <string_view>

#include "layoutx/error.hpp"

namespace layoutx::cli {

// Thrown (after the message is on stderr) when stdout cannot be written;
// each command turns it into its exit status.
struct OutputFailure {};

// Buffered stdout; a closed pipe ends the program quietly, any other failure
// to write is reported and throws OutputFailure.
void out(std::string_view text);
void flush_out();

// "layoutx: error: message", the expression, and a caret under the offending column.
void report_error(std::string_view message, std::string_view expression, std::size_t offset, bool with_caret);
void report_warning(std::string_view message);

// The writing on stderr of an error_text or warning_text (layoutx/error.hpp).
void write_stderr(const std::string& text);

// Where an expression's answer and messages go: straight to stdout and
// stderr (standard_streams()), or into a Transcript that keeps them, in
// order, to be written later.
class Output {
 public:
  virtual ~Output() = default;
  virtual void out(std::string_view text) = 0;
  virtual void flush() = 0;  // stdout's text so far goes out before what comes on stderr next
  virtual void error(std::string_view message, std::string_view expression, std::size_t offset, bool with_caret) = 0;
  virtual void warning(std::string_view message) = 0;
};

Output& standard_streams();

}  // namespace layoutx::cli
