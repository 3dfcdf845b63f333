// The expressions of a command line, where '-' stands for the lines of
// standard input. Standard input is read one line at a time and never keeps
// more than the longest accepted expression, so memory stays flat however
// much is piped in; before waiting for more input the answers so far are
// flushed, so each one appears before the next line is read.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace layoutx::cli {

struct InputExpression {
  std::string text;
  std::string problem;   // why it cannot be evaluated (over the length limit, unreadable input); empty when fine
  std::size_t line = 0;  // its line of standard input, from 1; 0 for an argument
};

// A line that holds no expression: blank, or a '#' comment. A Triton
// attribute ('#ttg.blocked<{...}>', '#blocked = #ttg.blocked<{...}>') is an
// expression, not a comment.
bool holds_no_expression(std::string_view line);

// The text without its leading and trailing blanks (spaces, tabs, carriage returns).
std::string_view trimmed(std::string_view text);

class ExpressionSource {
 public:
  ExpressionSource(std::vector<std::string> args, std::size_t max_length);
  // The next expression in order, skipping the lines of standard input that
  // hold none; nothing once every argument is used.
  std::optional<InputExpression> next();
  // The same, but only an expression that is at hand without reading: an
  // argument, or a whole line already in standard input's buffer; nothing
  // where the next one would have to be read (or there is none).
  std::optional<InputExpression> next_at_hand();
  // The same two into `e` (its strings' room is used again); false for nothing.
  bool next_into(InputExpression& e);
  bool next_at_hand_into(InputExpression& e);

 private:
  bool take(InputExpression& e, bool may_read);

  std::vector<std::string> args_;
  std::size_t max_length_;
  std::size_t arg_ = 0;
  bool reading_stdin_ = false;
  std::size_t stdin_lines_ = 0;  // lines of standard input read so far
};

}  // namespace layoutx::cli
