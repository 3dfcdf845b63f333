// The expression language: parse and evaluate `((2,3),4):((1,2),6)`,
// `logical_divide((8,8):(8,1), (2,4))`, `Sw<3,4,3> o (8,64):(64,1)`, ...
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "layoutx/value.hpp"

namespace layoutx {

// An error located in the expression text: the CLI prints the expression and a caret.
class SourceError : public Error {
 public:
  SourceError(const std::string& message, std::size_t offset) : Error(message), offset_(offset) {}
  std::size_t offset() const { return offset_; }  // byte offset into the expression

 private:
  std::size_t offset_;
};

struct LanguageOptions {
  bool dynamic = false;              // plain integers are dynamic, _N static (CuTe-exact mode)
  std::size_t max_depth = 64;        // nesting of parentheses and calls
  std::size_t max_length = 100000;   // bytes in one expression
};

// Parse and evaluate one expression. Throws SourceError for syntax and
// evaluation errors (with the offending position).
Value evaluate_expression(std::string_view text, const LanguageOptions& options);

// The outermost operation of an expression, for tools that re-evaluate its
// operands (layoutx check): a call `name<...>(a, b)` or an `a o b o c` chain,
// with the byte span [begin, end) of each argument or part in the text.
struct Outline {
  enum class Kind { Other, Call, Chain };
  struct Span {
    std::size_t begin = 0, end = 0;
  };
  Kind kind = Kind::Other;
  std::string name;  // Call: the function's name
  std::vector<Span> operands;
};

// Parses `text` (SourceError on a syntax error) and evaluates nothing.
Outline outline_expression(std::string_view text, const LanguageOptions& options);

// Every function name the language knows (for help text, completions and "did you mean").
const std::vector<std::string>& function_names();

}  // namespace layoutx
