// CuTe C++ programs: read one and run it, printing what the compiled program
// prints (`layoutx run`), or feed statements one at a time (the explorer).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "layoutx/language.hpp"

namespace layoutx {

// threadIdx, blockIdx, blockDim, gridDim: x, y, z.
using Dim3 = std::array<std::int64_t, 3>;

// A call that moves data (copy, copy_if, gemm, cp_async_wait, ...), as the
// running program meets it: the interpreter does nothing with it, a host
// that follows the data (the report) sees each one.
struct DataMovement {
  std::string_view name;    // without its namespace: "copy", "gemm"
  std::string_view call;    // the call as written
  std::size_t offset = 0;   // byte offset of the call in the program's text
  std::vector<Value> args;  // the arguments; one that is no CuTe value (a pointer, a number) is a default Value
  bool on_device = false;   // inside a launched kernel, run by `thread` of block `cta`
  Dim3 thread{0, 0, 0}, cta{0, 0, 0}, block{1, 1, 1};
};

// The output functions whose text lives above the language (print_layout's
// grid, print_latex's picture, print_tensor of the libraries' values): each
// gets the call's arguments and returns the text the program prints. The
// interpreter writes print, printf and std::cout itself. A data movement
// goes to on_data_movement when one is set; an Error it throws is the
// program's error at the call.
struct ProgramHost {
  using Printer = std::function<std::string(const std::vector<Value>& args, Notation notation)>;
  std::map<std::string, Printer, std::less<>> printers;
  std::function<void(const DataMovement&)> on_data_movement;
};

struct ProgramOptions {
  LanguageOptions language;                       // the function table's extension and the expression limits
  std::int64_t max_steps = 10'000'000;            // statements and loop tests, all threads together
  std::size_t max_output = std::size_t{1} << 26;  // bytes of standard output
  // A kernel's thread and block (--thread, --cta) and the launch's shape
  // (--block, --grid); a launch in the program sets the shape.
  Dim3 thread{0, 0, 0}, cta{0, 0, 0}, block{1, 1, 1}, grid{1, 1, 1};
  bool thread_given = false, cta_given = false;
  bool all_threads = false;  // a kernel runs for every thread of its block, each thread's output grouped
  // A problem size given from outside (the report's --problem): the launched
  // kernel's integer parameters of these names take these values in place of
  // the launch's arguments; a kernel without one of them is refused.
  std::map<std::string, std::int64_t, std::less<>> kernel_arguments;
};

// A failure while the program runs, where it was.
struct ProgramError {
  std::string message;
  std::size_t offset = 0;    // byte offset into the program's text
  bool compile_time = true;  // g++ would have refused the program: nothing was printed
};

struct ProgramRun {
  std::string output;  // standard output (empty after a compile-time error)
  std::optional<ProgramError> error;
};

// Parse and run `text` (named `name` in messages). A syntax error, or one
// that g++ would report (a false static assertion, a layout CuTe refuses to
// build, an unknown name), leaves the output empty; a run-time failure (a
// division by zero, a failed assert, the step limit) keeps what was printed before it.
ProgramRun run_program(std::string text, std::string name, const ProgramOptions& options, const ProgramHost& host,
                       Diagnostics& diag);

// Statements fed one piece at a time (the explorer): names declared by one
// piece stay for the next.
class ProgramSession {
 public:
  ProgramSession(ProgramOptions options, ProgramHost host);
  ~ProgramSession();
  ProgramSession(const ProgramSession&) = delete;
  ProgramSession& operator=(const ProgramSession&) = delete;
  // Run `text` as statements after the earlier ones.
  ProgramRun feed(std::string text, Diagnostics& diag);
  // The CuTe values the statements so far declared, by name.
  std::map<std::string, Value, std::less<>> values() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Whether `text` looks like C++ statements rather than one expression of the
// expression language (it ends with ';' or '}', or starts with a declaration).
bool looks_like_statements(std::string_view text);

}  // namespace layoutx
