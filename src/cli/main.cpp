// layoutx: the command line. Wires argv to the language, the engine and the
// renderers; owns stdout, stderr and the exit status.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <new>
#include <optional>
#include <string_view>

#include <unistd.h>

#include "definitions.hpp"
#include "driver.hpp"
#include "layoutx/atom_language.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/version.hpp"
#include "io/output.hpp"
#include "suggest.hpp"

namespace layoutx::cli {
namespace {

std::string functions_footer() {
  std::string list;
  std::size_t col = 2;
  for (const auto& f : function_names(&atom_language())) {
    if (col + f.size() + 1 > 78) {
      list += "\n ";
      col = 1;
    }
    list += " " + f;
    col += f.size() + 1;
  }
  return "\nExpressions: (4,3):(3,1)  ((2,3),4):((1,2),6)  (4,3)  Sw<3,4,3> o (8,64):(64,1)\n"
         "  A o B  f<targs>(args)  L(i)  L(i,j)  L((i,j),k)  L(_,0)  LayoutLeft  LayoutRight  _\n"
         "Functions:\n" +
         list +
         "\n\nExit status: 0 success, 1 a rejected expression, 2 a usage error.\n"
         "See layoutx(1) for the full reference.\n";
}

std::vector<std::string> command_names(CLI::App& app) {
  std::vector<std::string> names;
  for (const auto* sub : app.get_subcommands([](CLI::App*) { return true; })) names.push_back(sub->get_name());
  return names;
}

int unknown_command(CLI::App& app, std::string word) {
  const std::vector<std::string> names = command_names(app);
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  for (char& c : word)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  const std::string what =
      word.empty() ? "no command given" : "unknown command '" + word + "'" + did_you_mean(word, names);
  std::fprintf(stderr, "layoutx: error: %s (the commands are %s; see layoutx --help)\n", what.c_str(), list.c_str());
  return kUsage;
}

// Every long option of the command chosen and of layoutx itself, those of
// their option groups (bank's --elem-bytes, --elem-bits) included, for "did you mean".
std::vector<std::string> option_names(CLI::App& app) {
  std::vector<std::string> names;
  auto add = [&](CLI::App& a, auto& self) -> void {
    for (const CLI::Option* o : a.get_options())
      for (const auto& l : o->get_lnames()) names.push_back("--" + l);
    for (CLI::App* group : a.get_subcommands([](CLI::App* g) { return g->get_name().empty(); })) self(*group, self);
  };
  add(app, add);
  for (CLI::App* sub : app.get_subcommands()) add(*sub, add);
  return names;
}

// The first word of the command line written as an option (-x, --word) that
// neither layoutx nor the command chosen knows; "" when there is none.
std::string unknown_option(CLI::App& app, int argc, char** argv) {
  std::vector<const CLI::App*> apps{&app};
  for (const CLI::App* sub : app.get_subcommands()) apps.push_back(sub);
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--") break;
    const bool long_form = a.size() > 2 && a.starts_with("--") && letter(a[2]);
    const bool short_form = a.size() == 2 && a[0] == '-' && letter(a[1]);
    if (!long_form && !short_form) continue;
    const std::string name(a.substr(0, a.find('=')));
    if (std::none_of(apps.begin(), apps.end(),
                     [&](const CLI::App* x) { return x->get_option_no_throw(name) != nullptr; }))
      return name;
  }
  return "";
}

// CLI11's own messages in layoutx's format: the prefix, a guess for a
// mistyped option, and where to read more. An unknown option is named even
// where CLI11 stops at another problem first (a required option missing).
int usage_error(CLI::App& app, const CLI::ParseError& e, int argc, char** argv) {
  std::string message = e.what();
  std::string hint;
  if (!dynamic_cast<const CLI::ExtrasError*>(&e))
    if (const std::string unknown = unknown_option(app, argc, argv); !unknown.empty())
      return usage_error(app, CLI::ExtrasError({unknown}), argc, argv);
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    const std::string mark = ": ";
    const auto at = message.rfind(mark);
    if (at != std::string::npos) {
      std::string word = message.substr(at + mark.size());
      if (const auto eq = word.find('='); eq != std::string::npos) word.resize(eq);
      if (word.rfind("--", 0) == 0) hint = did_you_mean(word, option_names(app));
    }
  }
  const auto chosen = app.get_subcommands();
  const std::string help = chosen.empty() ? "layoutx --help" : "layoutx " + chosen.front()->get_name() + " --help";
  std::fprintf(stderr, "layoutx: error: %s%s (see %s)\n", message.c_str(), hint.c_str(), help.c_str());
  return kUsage;
}

// Every command: its name, what it does (its line in --help), and the function
// that adds its options and says what to run (in its commands/cmd_NAME.cpp);
// for some, the one that adds its arguments alone, for a command line that
// names no option.
struct Registration {
  std::string_view name;
  Command (*add)(CLI::App*, Settings&);
  const char* help;
  Command (*add_arguments)(CLI::App*, Settings&) = nullptr;
};
constexpr Registration kCommands[] = {
    {"eval", register_eval, "Print each value in CuTe's notation", register_eval_arguments},
    {"emit", register_emit,
     "Print each value as code: its CuTe C++ type, a C++ expression, a CuTe Python DSL call; or (--triton) "
     "Triton's linear layout attribute of a Triton encoding over --shape or of a CuTe TV layout (--smem: smem; no "
     "--shape: the layout itself over F2)"},
    {"print", register_print, "Draw each layout as CuTe's print_layout does", register_print_arguments},
    {"run", register_run,
     "Run a CuTe C++ program (FILE, '-' for standard input) and print what the compiled program prints: "
     "print, print_layout, printf, std::cout; kernels for a --thread and --cta"},
    {"report", register_report,
     "Run a CuTe kernel (FILE) for every thread of one CTA and report each copy, TMA copy and gemm call site: "
     "the instructions CuTe issues, global sectors and shared-memory wavefronts against the least, the elements "
     "copy_if masks on a --problem's residue tile, findings with fixes; --counters as Nsight Compute names them "
     "(exit 0 clean, 1 findings or bad input)"},
    {"offsets", register_offsets, "Stream the offset of every index, one per line"},
    {"info", register_info, "Show shape, stride, size, cosize, rank, depth and the offset function's properties"},
    {"eq", register_eq,
     "Compare two layouts as functions of the index (exit 0 equal, 1 different, 2 usage or bad expression)"},
    {"lookup", register_lookup,
     "Offset -> every index reaching it; index or coordinate -> offset. Lines of index, flat (per-mode) "
     "coordinate, natural coordinate, offset, tab-separated (exit 0 all answered, 1 some not, 2 usage)"},
    {"coalescing", register_coalescing,
     "Global-memory sectors and lines per warp instruction of a (thread, value) -> offset layout, against the "
     "minimum (exit 0 ok, 1 rejected, 2 usage)"},
    {"explain", register_explain,
     "The steps CuTe's algorithms take in composition, complement, the inverses, divides and products (exit 0 "
     "ok, 1 rejected: the steps up to the failure, 2 usage)"},
    {"check", register_check,
     "Cross-check each result: the host's offsets against an independent evaluator, and the defining property "
     "of the outermost operation (composition, inverses, complement, divides, products) at every point; up to "
     "2^32 points"},
    {"draw", register_draw, "Draw a layout as a picture: SVG, TikZ (like print_latex) or an HTML page"},
    {"tv", register_tv, "Show which thread and value own each cell of a tile (print_latex_tv)"},
    {"atom", register_atom, "Show an MMA or copy atom of CuTe (shape, ThrID, TV layouts) or draw it"},
    {"partition", register_partition,
     "What each thread of a TiledMMA or TiledCopy touches of a CTA tile: fragment, coordinates, offsets, access "
     "width, the residue predicate's masked elements; or who owns a coordinate"},
    {"bank", register_bank,
     "Shared-memory bank conflicts: the wavefronts one warp's access takes, as an H200 counts them"},
    {"swizzle-search", register_swizzle_search,
     "Rank Swizzle<B,M,S> and paddings of a shared-memory tile by the wavefronts of its accesses"},
    {"repl", register_repl,
     "The interactive explorer: expressions, let bindings, grids, :help (also layoutx alone on a terminal)"},
    {"serve", register_serve,
     "Serve the explorer page (type an expression, see its grid, TV layouts, atoms, explain's steps) and its JSON "
     "API over HTTP, on 127.0.0.1 unless --bind says otherwise"},
};

// The command word: the first argument that is neither a global option nor
// its value. Empty when help is asked for anywhere or an option is unknown.
// Both ends on a terminal: a person is typing.
bool explorer_wanted() { return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO); }

std::string_view command_word(CLI::App& app, int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "-h" || a == "--help" || a == "--help-all") return {};
  }
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a.size() < 2 || a.front() != '-') return a;
    if (a == "--") return {};
    if (a.find('=') != std::string_view::npos) continue;
    const CLI::Option* opt = app.get_option_no_throw(std::string(a));
    if (!opt) return {};
    if (opt->get_items_expected_min() > 0) ++i;  // skip its value
  }
  return {};
}

int run_all_commands(int argc, char** argv) {
  Settings s;
  s.command_line.assign(argv, argv + argc);
  s.language.extension = &atom_language();
  CLI::App app{"layoutx: explore CuTe layouts: print, evaluate and transform them from the command line", "layoutx"};
  app.set_version_flag(
      "-V,--version", fmt::format("layoutx {}\nreproduces the answers of CuTe (include/cute) at CUTLASS commit {} ({})",
                                  kVersion, kCutlassCommit, kCutlassCommitDate));
  app.require_subcommand(1);
  app.add_flag("--dynamic", s.dynamic,
               "CuTe-exact mode: plain integers are dynamic, _N static; output keeps CuTe's _ marks");
  app.add_flag("--strict", s.strict, "Treat warnings about CuTe's dubious answers as errors");
  app.add_option("--color", s.color, "Colour output: auto (a terminal without NO_COLOR), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  // The parser recurses once per level: 256 levels stay far inside an 8 MiB stack, even under ASan.
  app.add_option("--max-depth", s.language.max_depth, "Deepest nesting of parentheses accepted (default 64)")
      ->check(integer_range(1, 256));
  app.add_option("--max-length", s.language.max_length, "Longest expression accepted, in bytes (default 100000)")
      ->check(integer_range(1, 1 << 30));
  // A grid is built in memory at about 24 bytes a cell: 2^26 cells stay near 1.5 GiB.
  app.add_option("--max-cells", s.grid.max_cells, "Largest grid or picture drawn, in cells (default 1048576)")
      ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 26));

  add_shape_option(&app, s.shape, "Tensor shape a Triton encoding is laid over, e.g. 16,32");

  app.add_option("-D,--define", s.definitions,
                 "Bind NAME to the value of EXPR for the expressions that follow (repeatable), as in -D M=1000")
      ->type_name("NAME=EXPR")
      ->allow_extra_args(false);  // each -D takes one definition: the expressions that follow are not definitions
  // Global options are accepted after the command too (layoutx eval --strict ...).
  app.fallthrough();

  // A word where the command should be lands here (hidden), so that the error can name it.
  std::vector<std::string> stray;
  app.add_option("stray", stray)->group("");

  // Only the command on the command line is registered in full: CLI11 builds
  // every option up front, and all of them took longer than most commands.
  // Help, an unknown word or anything unusual registers them all.
  const std::string_view word = command_word(app, argc, argv);
  const bool known =
      std::any_of(std::begin(kCommands), std::end(kCommands), [&](const Registration& r) { return word == r.name; });
  if (!known) app.footer(functions_footer());
  std::vector<Command> commands;
  for (const Registration& r : kCommands)
    if (!known || word == r.name) commands.push_back(r.add(app.add_subcommand(std::string(r.name), r.help), s));

  bool explore = false;  // no command, on a terminal: the interactive explorer
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // A word where the command should be is a mistyped command.
    if (!stray.empty() && (app.get_subcommands().empty() || stray.front() == word))
      return unknown_command(app, stray.front());
    if (app.get_subcommands().empty() && dynamic_cast<const CLI::RequiredError*>(&e)) {
      if (!explorer_wanted()) return unknown_command(app, "");
      explore = true;
    } else {
      return usage_error(app, e, argc, argv);
    }
  }
  // The word before the command was meant as one; later words fell through from the command.
  if (!stray.empty() && (app.get_subcommands().empty() || stray.front() == word))
    return unknown_command(app, stray.front());
  if (!stray.empty()) {
    // Words past what the command takes fall through to layoutx itself.
    CLI::ExtrasError extra(stray);
    return usage_error(app, extra, argc, argv);
  }

  s.language.dynamic = s.dynamic;
  s.grid.notation = notation(s);
  for (const auto& d : s.definitions)
    if (!bind_definition(s, d)) return kUsage;
  if (explore) return run_explorer(s);
  for (const auto& c : commands)
    if (c.app->parsed()) return c.run();
  return kUsage;
}

// CLI11 splits an argument written "[a,b]" into a list before any command sees it; such an
// expression would be answered as two others, so it is refused.
bool bracketed_argument(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a.size() >= 2 && a.front() == '[' && a.back() == ']') {
      std::fprintf(stderr,
                   "layoutx: error: '%.*s': square brackets are not part of the expression language; "
                   "tuples are written with parentheses, as in (4,3)\n",
                   static_cast<int>(std::min<std::size_t>(a.size(), 200)), a.data());
      return true;
    }
  }
  return false;
}

// A command line that starts with a command and names no option (no word
// but '-', standard input, starts with a dash) is read with the command
// alone: without layoutx's options and the help flags, none of which can
// match, and where the command has register_NAME_arguments without its own
// (CLI11 builds every option up front: that was most of `layoutx print`'s own
// start-up). What this reading does not accept (extra words, a missing
// argument) is left to the full reading, which says what is wrong: nothing is
// written then (std::nullopt).
std::optional<int> run_without_options(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (argv[i][0] == '-' && argv[i][1] != '\0') return std::nullopt;
  if (argc < 2) return std::nullopt;
  const std::string_view word = argv[1];
  const Registration* r =
      std::find_if(std::begin(kCommands), std::end(kCommands), [&](const Registration& c) { return word == c.name; });
  if (r == std::end(kCommands)) return std::nullopt;
  Settings s;
  s.command_line.assign(argv, argv + argc);
  s.language.extension = &atom_language();
  CLI::App app{"layoutx", "layoutx"};
  app.set_help_flag();
  const Command command =
      (r->add_arguments ? r->add_arguments : r->add)(app.add_subcommand(std::string(r->name), r->help), s);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError&) {
    return std::nullopt;
  }
  s.grid.notation = notation(s);
  return command.run();
}

int run(int argc, char** argv) {
  if (bracketed_argument(argc, argv)) return kRejected;
  if (const std::optional<int> status = run_without_options(argc, argv)) return *status;
  return run_all_commands(argc, argv);
}

}  // namespace
}  // namespace layoutx::cli

// Whatever a command leaves unwritten (help and version text included) is
// flushed here, so that a full disk or a closed descriptor is an error too.
int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_DFL);
  static char buffer[1 << 16];
  std::setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
  try {
    const int status = layoutx::cli::run(argc, argv);
    std::cout.flush();
    layoutx::cli::flush_out();
    return status;
  } catch (const layoutx::cli::OutputFailure&) {
    return layoutx::cli::kRejected;
  } catch (const std::bad_alloc&) {
    std::fputs("layoutx: error: out of memory\n", stderr);
    return layoutx::cli::kRejected;
  }
}
