// The only place that writes to stdout and stderr.
#pragma once

#include <string>
#include <string_view>

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

}  // namespace layoutx::cli
