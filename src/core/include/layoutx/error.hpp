// Errors and warnings raised by the engine. The engine never prints: it throws
// Error for inputs CuTe refuses, and records warnings for answers CuTe gives
// that are not what the operation means (the CLI prints them on stderr).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

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

// Warnings collected while evaluating one expression. One collector per
// thread: evaluation is single-threaded and nested algebra calls all report here.
class Diagnostics {
 public:
  static Diagnostics& current();

  void warn(std::string condition, std::string message);
  const std::vector<Warning>& warnings() const { return warnings_; }
  void clear() { warnings_.clear(); }

  // A fresh start: no warnings, and warnings stay warnings.
  void reset() {
    warnings_.clear();
    strict = false;
  }

  // --strict: a warning becomes an Error at the point it is raised.
  bool strict = false;

 private:
  std::vector<Warning> warnings_;
};

// Evaluation on the side (an expression's static twin, the internal step of an
// analysis): the warnings it raises are dropped, and what was collected before
// is back when the scope ends; `strict` says whether --strict holds inside.
class DiagnosticsAside {
 public:
  explicit DiagnosticsAside(bool strict) : saved_(Diagnostics::current()) { Diagnostics::current().strict = strict; }
  ~DiagnosticsAside() { Diagnostics::current() = saved_; }
  DiagnosticsAside(const DiagnosticsAside&) = delete;
  DiagnosticsAside& operator=(const DiagnosticsAside&) = delete;

 private:
  Diagnostics saved_;
};

}  // namespace layoutx
