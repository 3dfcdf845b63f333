// Errors and warnings raised by the engine. The engine never prints: it throws
// Error for inputs CuTe refuses, and records warnings for answers CuTe gives
// that are not what the operation means (the CLI prints them on stderr).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "layoutx/notation.hpp"

namespace layoutx {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// A piece of the user's input quoted in a message: whole when short, else its
// start and its length, so that a huge literal never floods the terminal.
std::string excerpt(std::string_view text);

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
  explicit Diagnostics(bool strict = false, Notation notation = {}) : strict_(strict), notation_(notation) {}

  // Records a warning; under `strict` (--strict) it is an Error at the point it is raised.
  void warn(std::string condition, std::string message);
  const std::vector<Warning>& warnings() const { return warnings_; }
  void clear() { warnings_.clear(); }

  bool strict() const { return strict_; }
  // How messages write the values they name.
  Notation notation() const { return notation_; }

 private:
  bool strict_;
  Notation notation_;
  std::vector<Warning> warnings_;
};

}  // namespace layoutx
