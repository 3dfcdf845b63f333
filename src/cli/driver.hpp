// What every command shares: the global settings, reading the expressions
// (arguments, or '-' for standard input), evaluating each one and reporting
// errors and warnings.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "layoutx/language.hpp"
#include "layoutx/linear_layout.hpp"
#include "layoutx/render.hpp"

namespace layoutx::cli {

constexpr int kOk = 0, kRejected = 1, kUsage = 2;

class Output;

struct Settings {
  bool dynamic = false;
  bool strict = false;
  std::string color = "auto";            // auto | always | never
  std::vector<std::string> definitions;  // --define NAME=EXPR, bound in language.names before any command runs
  LanguageOptions language;
  GridOptions grid;
  // The tensor shape a Triton encoding is laid over (--shape 16,32).
  std::vector<std::int64_t> shape;
  // The command line as given, which serve hands on to layoutx-serve.
  std::vector<std::string> command_line;
};

// Whether to colour standard output: --color, NO_COLOR, and whether stdout is a terminal.
bool use_color(const Settings& s);

// How values are written: with CuTe's static marks under --dynamic.
Notation notation(const Settings& s);
// A fresh collector for one evaluation's warnings: errors under --strict,
// values in messages written in notation(s).
Diagnostics diagnostics(const Settings& s);

// The expressions, '-' expanded into the non-blank, non-# lines of standard
// input, for commands that take a fixed few: it stops after at_most + 1 (so
// that one too many can be told), or at a line that cannot be used, whose
// reason goes to `problem`.
std::vector<std::string> read_expressions(const Settings& s, const std::vector<std::string>& args, std::size_t at_most,
                                          std::string& problem);

// How a failure is shown on stderr: the text a caret goes under, the column
// where the evaluated text starts inside it (an option's value after "KIND:"),
// and words put before the message of an error located in the text. An empty
// text: the message alone.
struct ErrorContext {
  ErrorContext() = default;
  ErrorContext(std::string_view shown, std::size_t start = 0, std::string_view prefix = {})
      : text(shown), from(start), located_prefix(prefix) {}
  std::string_view text;
  std::size_t from = 0;
  std::string_view located_prefix;
  std::size_t line = 0;  // a line of standard input (from 1), named before every message; 0 for none
};

// The one evaluate-and-report step: runs `step`; whatever it throws (an error
// located in the text, a refused input, running out of memory) is written on
// stderr after what the step wrote on stdout, naming values in `notation`.
// Returns the step's status, or kRejected when it threw.
int run_reporting_errors(const ErrorContext& shown, Notation notation, const std::function<int()>& step);
// The same, the messages going to `to`.
int run_reporting_errors(Output& to, const ErrorContext& shown, Notation notation, const std::function<int()>& step);

// An expression's value: a Triton layout (an encoding or a linear layout,
// laid over Settings::shape) becomes its CuTe form, anything else is
// evaluated as an expression.
Value evaluate_input(const Settings& s, std::string_view expr, Diagnostics& diag);

// The linear layout of a Triton layout text over Settings::shape (errors
// located in the text, for the caret).
triton::LinearLayout read_triton(const Settings& s, std::string_view text);

// One expression evaluated under --strict's choice, its warnings written on stderr.
Value evaluate_reporting_warnings(const Settings& s, std::string_view expr);

// Writes the warnings collected in `diag` on stderr and empties it; whether there were any.
bool report_warnings(Diagnostics& diag);
bool report_warnings(Diagnostics& diag, Output& to);

// An expression given as an option's value: evaluated, errors reported as
// `shown` says; nothing when it fails. Its warnings are left in `diag`.
std::optional<Value> evaluate_option(const Settings& s, std::string_view text, const ErrorContext& shown,
                                     Diagnostics& diag);

// The loop of every command that takes EXPR...: each expression (standard
// input's lines for '-') goes through `command` inside `run_reporting_errors`; the
// statuses combine into kOk or kRejected.
int for_each_expression_text(const Settings& s, const std::vector<std::string>& expressions,
                             const std::function<int(std::string_view)>& command);
// The same, `command` given the value (warnings written before and after it).
int for_each_expression(const Settings& s, const std::vector<std::string>& expressions,
                        const std::function<void(const Value&)>& command);
// The same, for commands that also need the expression's text.
int for_each_expression(const Settings& s, const std::vector<std::string>& expressions,
                        const std::function<void(const Value&, std::string_view)>& command);
// The same, for commands whose own analyses may warn: they warn into `diag`.
int for_each_expression(const Settings& s, const std::vector<std::string>& expressions,
                        const std::function<void(const Value&, std::string_view, Diagnostics& diag)>& command);

// The loop of a command whose answer to an expression is one short text
// (eval): when many lines of standard input are at hand they are evaluated on
// up to `jobs` threads (0: every core; 1: one line at a time), and answers,
// warnings and errors are written in input order, as one at a time would
// write them. Only the lines already read are shared out; the next read waits
// until every answer before it is written. `answer` appends the text of a
// value's answer to a line that each thread reuses.
int for_each_answer(const Settings& s, const std::vector<std::string>& expressions, int jobs,
                    const std::function<void(const Value&, std::string& line)>& answer);

// require_layout for a command that reads offsets: a coordinate layout
// (scaled-basis strides) maps to coordinates, which it refuses.
AnyLayout require_offset_layout(const Value& v, const char* command, Notation n);

// An option's check: a decimal integer in [lo, hi]; a value that is no
// integer is told so (not "out of range").
CLI::Validator integer_range(std::int64_t lo, std::int64_t hi);

// --shape E0,E1,...: positive extents below 2^24, no one left empty (CLI11's
// list option would drop an empty one: 4,,4 is not 4,4).
CLI::Option* add_shape_option(CLI::App* app, std::vector<std::int64_t>& shape, const std::string& description);

// A subcommand: registered with CLI11, run when chosen.
struct Command {
  CLI::App* app;
  std::function<int()> run;
};

// Adds the EXPR... positional to a subcommand.
void add_expressions(CLI::App* sub, std::vector<std::string>& expressions);

// Each command lives in its own file (commands/cmd_NAME.cpp): given its subcommand (named in
// main.cpp's table), it adds its options and returns what to run. Some also
// have register_NAME_arguments, for a command line that names no option: the
// arguments alone, run as the options' defaults say.
Command register_eval(CLI::App* sub, Settings& s);
Command register_eval_arguments(CLI::App* sub, Settings& s);
Command register_emit(CLI::App* sub, Settings& s);
Command register_print(CLI::App* sub, Settings& s);
Command register_print_arguments(CLI::App* sub, Settings& s);
Command register_offsets(CLI::App* sub, Settings& s);
Command register_info(CLI::App* sub, Settings& s);
Command register_eq(CLI::App* sub, Settings& s);
Command register_lookup(CLI::App* sub, Settings& s);
Command register_coalescing(CLI::App* sub, Settings& s);
Command register_explain(CLI::App* sub, Settings& s);
Command register_check(CLI::App* sub, Settings& s);
Command register_draw(CLI::App* sub, Settings& s);
Command register_tv(CLI::App* sub, Settings& s);
Command register_atom(CLI::App* sub, Settings& s);
Command register_partition(CLI::App* sub, Settings& s);
Command register_bank(CLI::App* sub, Settings& s);
Command register_swizzle_search(CLI::App* sub, Settings& s);
Command register_repl(CLI::App* sub, Settings& s);
Command register_run(CLI::App* sub, Settings& s);
Command register_report(CLI::App* sub, Settings& s);
Command register_serve(CLI::App* sub, Settings& s);
// The interactive explorer (commands/cmd_repl.cpp): `layoutx repl`, or no command on a terminal.
int run_explorer(Settings& s);

}  // namespace layoutx::cli
