// What every command shares: the global settings, reading the expressions
// (arguments, or '-' for standard input), evaluating each one and reporting
// errors and warnings.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

#include "layoutx/language.hpp"
#include "layoutx/render.hpp"

namespace layoutx::cli {

constexpr int kOk = 0, kRejected = 1, kUsage = 2;

struct Settings {
  bool dynamic = false;
  bool strict = false;
  std::string color = "auto";  // auto | always | never
  std::vector<std::string> definitions;  // --define NAME=EXPR, bound in language.names before any command runs
  LanguageOptions language;
  GridOptions grid;
};

// Whether to colour standard output: --color, NO_COLOR, and whether stdout is a terminal.
bool use_color(const Settings& s);

// The expressions, '-' expanded into the non-blank, non-# lines of standard
// input, for commands that take a fixed few: it stops after at_most + 1 (so
// that one too many can be told), or at a line that cannot be used, whose
// reason goes to `problem`.
std::vector<std::string> gather(const Settings& s, const std::vector<std::string>& args, std::size_t at_most,
                                std::string& problem);

// Evaluate each expression, run `command` on its value, report errors and
// warnings on stderr. Returns kOk or kRejected.
int for_each_expression(const Settings& s, const std::vector<std::string>& expressions,
                        const std::function<void(const Value&)>& command);
// The same, for commands that also need the expression's text.
int for_each_expression(const Settings& s, const std::vector<std::string>& expressions,
                        const std::function<void(const Value&, std::string_view)>& command);

// For commands that evaluate on their own: run `command` on each expression's
// text with the same error reporting; its status (kOk/kRejected) is combined.
int for_each_expression_text(const Settings& s, const std::vector<std::string>& expressions,
                             const std::function<int(std::string_view)>& command);

// eval --show-both (show_both.cpp).
int run_show_both(const Settings& s, const std::vector<std::string>& expressions);

// The argument as a layout-like value (a bare shape is the compact column-major layout).
AnyLayout require_layout(const Value& v, const char* command);

// An option's check: a decimal integer in [lo, hi]; a value that is no
// integer is told so (not "out of range").
CLI::Validator integer_range(std::int64_t lo, std::int64_t hi);

// A subcommand: registered with CLI11, run when chosen.
struct Command {
  CLI::App* app;
  std::function<int()> run;
};

// Adds the EXPR... positional to a subcommand.
void add_expressions(CLI::App* sub, std::vector<std::string>& expressions);

// Each command lives in its own file (cmd_*.cpp) and registers itself here.
Command register_eval(CLI::App& app, Settings& s);
Command register_emit(CLI::App& app, Settings& s);
Command register_print(CLI::App& app, Settings& s);
Command register_offsets(CLI::App& app, Settings& s);
Command register_info(CLI::App& app, Settings& s);
Command register_eq(CLI::App& app, Settings& s);
Command register_lookup(CLI::App& app, Settings& s);
Command register_coalescing(CLI::App& app, Settings& s);
Command register_explain(CLI::App& app, Settings& s);
Command register_check(CLI::App& app, Settings& s);
Command register_draw(CLI::App& app, Settings& s);
Command register_tv(CLI::App& app, Settings& s);
Command register_atom(CLI::App& app, Settings& s);
Command register_bank(CLI::App& app, Settings& s);
Command register_swizzle_search(CLI::App& app, Settings& s);
Command register_repl(CLI::App& app, Settings& s);
// The interactive explorer (cmd_repl.cpp): `layoutx repl`, or no command on a terminal.
int run_explorer(Settings& s);
// offsets --device: every offset computed on the GPU, written one per line (plain format only).
int run_device_offsets(const Settings& s, const std::vector<std::string>& expressions, OffsetFormat format);

}  // namespace layoutx::cli
