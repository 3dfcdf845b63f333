#include "program_file.hpp"

#include <fmt/format.h>

#include <charconv>
#include <optional>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "driver.hpp"
#include "io/output.hpp"

namespace layoutx::cli {

namespace {

// Line, column and the line's text of a byte offset.
struct Place {
  std::size_t line = 1, column = 1;
  std::string_view text;
};

Place place_of(std::string_view program, std::size_t offset) {
  offset = std::min(offset, program.size());
  Place p;
  std::size_t start = 0;
  for (std::size_t i = 0; i < offset; ++i)
    if (program[i] == '\n') {
      ++p.line;
      start = i + 1;
    }
  p.column = offset - start + 1;
  const std::size_t end = program.find('\n', start);
  p.text = program.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  return p;
}

// "X[,Y[,Z]]" -> {X, Y, Z}, the missing ones `fill`.
std::optional<Dim3> dim3_option(const std::string& text, std::int64_t fill, std::string& problem) {
  Dim3 d{fill, fill, fill};
  std::size_t i = 0, at = 0;
  while (at <= text.size() && i < 3) {
    const std::size_t comma = text.find(',', at);
    const std::string part = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || ec != std::errc() || ptr != part.data() + part.size() || v < 0 || v > (1 << 30)) {
      problem = fmt::format("'{}' is not X[,Y[,Z]] of integers in [0, 2^30]", text);
      return std::nullopt;
    }
    d[i++] = v;
    if (comma == std::string::npos) return d;
    at = comma + 1;
  }
  problem = fmt::format("'{}' has more than three integers", text);
  return std::nullopt;
}

}  // namespace

bool set_dim3(const std::string& text, std::int64_t fill, Dim3& into, bool* given, std::string& problem) {
  if (text.empty()) return true;
  const auto d = dim3_option(text, fill, problem);
  if (!d) return false;
  into = *d;
  if (given) *given = true;
  return true;
}

std::string read_program(const std::string& file) {
  if (file == "-") return std::string(std::istreambuf_iterator<char>(std::cin), {});
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(fmt::format("cannot read {}", file));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::size_t line_of(std::string_view text, std::size_t offset) { return place_of(text, offset).line; }

void report_program_error(std::string_view name, std::string_view text, const ProgramError& error) {
  const Place p = place_of(text, error.offset);
  write_stderr(fmt::format("{}:{}:{}: error: {}\n{}\n{}^\n", name, p.line, p.column, error.message, p.text,
                           std::string(p.column - 1, ' ')));
}

}  // namespace layoutx::cli
