// The only place that writes to stdout and stderr.
#pragma once

#include <string>
#include <string_view>

namespace layoutx::cli {

// Buffered stdout; a closed pipe ends the program quietly.
void out(std::string_view text);
void flush_out();

// "layoutx: error: message", the expression, and a caret under the offending column.
void report_error(std::string_view message, std::string_view expression, std::size_t offset, bool with_caret);
void report_warning(std::string_view message);

}  // namespace layoutx::cli
