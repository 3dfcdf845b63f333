// Errors and warnings raised by the engine. The engine never prints: it throws
// Error for inputs CuTe refuses, and records warnings for answers CuTe gives
// that are not what the operation means (the CLI prints them on stderr).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "layoutx/notation.hpp"

namespace layoutx {

namespace trace {
class Recorder;
}

// A refused input. A message that names values holds it in both notations
// (CuTe's `_` marks on static integers, as under --dynamic, or none): what()
// is the one without, and message(n) the one the caller reports in.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message), marked_(message) {}
  Error(const std::string& plain, std::string marked) : std::runtime_error(plain), marked_(std::move(marked)) {}

  std::string message(Notation n) const { return n.static_marks ? marked_ : std::string(what()); }

 private:
  std::string marked_;
};

// A refusal because CuTe needs at compile time a value the input holds at run
// time: a dynamic integer where only a static one compiles. Its own kind, so
// that a caller tells it from the other refusals without reading the message.
class StaticRequiredError : public Error {
 public:
  using Error::Error;
};

// What the compiled program would do when it runs rather than refuse to
// compile: a division by zero of run-time integers (a SIGFPE in CuTe's
// program). Static operands make the same division a compile-time error.
class RunTimeFault : public Error {
 public:
  using Error::Error;
};

// The error (an Error, or a kind of it) whose message `write(notation)` writes, in both notations.
template <class E = Error, class Write>
E naming_values(const Write& write) {
  return E(write(Notation{}), write(Notation{true}));
}

// A piece of the user's input quoted in a message: whole when short, else its
// start and its length, so that a huge literal never floods the terminal.
std::string excerpt(std::string_view text);

// How layoutx words a refused input: "layoutx: error: MESSAGE" and, where the
// error is located in the expression, the expression (about 120 columns of it
// around the place) with a caret under the offending column. The command line
// writes it on stderr, the explorer page's server answers it, word for word.
std::string error_text(std::string_view message, std::string_view expression, std::size_t offset, bool with_caret);
// "layoutx: warning: MESSAGE"
std::string warning_text(std::string_view message);

// A warning: the condition CuTe would have enforced with static integers (or
// that the result breaks), and a sentence saying what is wrong.
struct Warning {
  std::string condition;
  std::string message;
};

// What one evaluation reports besides its value: the warnings it raised, and
// the caller's choices of how to report. The caller owns it and hands it to
// every operation that may warn, so nothing about reporting is process state.
class Diagnostics {
 public:
  explicit Diagnostics(bool strict = false, Notation notation = {}, trace::Recorder* trace = nullptr)
      : strict_(strict), notation_(notation), trace_(trace) {}

  // Records a warning; under `strict` (--strict) it is an Error at the point it is raised.
  void warn(std::string condition, std::string message);
  const std::vector<Warning>& warnings() const { return warnings_; }
  void clear() { warnings_.clear(); }

  bool strict() const { return strict_; }
  // How messages write the values they name.
  Notation notation() const { return notation_; }
  // Where the algebra records its intermediate steps (`explain`); none when null.
  trace::Recorder* trace() const { return trace_; }

 private:
  bool strict_;
  Notation notation_;
  trace::Recorder* trace_;
  std::vector<Warning> warnings_;
};

}  // namespace layoutx
