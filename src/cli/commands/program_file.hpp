// What the commands that read a CuTe program share: reading it, the
// launch-shape options, and its errors with the line, column and a caret.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "layoutx/program.hpp"

namespace layoutx::cli {

// The program's text: the file, or standard input for "-"; throws Error when it cannot be read.
std::string read_program(const std::string& file);

// `text` ("X[,Y[,Z]]", nothing when empty) into `into`, `*given` set when there
// is one; false with `problem` set for bad text.
bool set_dim3(const std::string& text, std::int64_t fill, Dim3& into, bool* given, std::string& problem);

// The line (from 1) a byte offset of the text is on.
std::size_t line_of(std::string_view text, std::size_t offset);

// `name:line:column: error: message`, the line and a caret under the column, on standard error.
void report_program_error(std::string_view name, std::string_view text, const ProgramError& error);

}  // namespace layoutx::cli
