// layoutx: the command line. Wires argv to the language, the engine and the
// renderers; owns stdout, stderr and the exit status.
#include <CLI/CLI.hpp>

#include <csignal>
#include <cstdio>

#include "driver.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/version.hpp"

namespace layoutx::cli {
namespace {

std::string functions_footer() {
  std::string list;
  std::size_t col = 2;
  for (const auto& f : function_names()) {
    if (col + f.size() + 1 > 78) {
      list += "\n ";
      col = 1;
    }
    list += " " + f;
    col += f.size() + 1;
  }
  return "\nExpressions: (4,3):(3,1)  ((2,3),4):((1,2),6)  (4,3)  Sw<3,4,3> o (8,64):(64,1)\n"
         "  A o B  f<targs>(args)  L(i)  L(i,j)  L((i,j),k)  L(_,0)  LayoutLeft  LayoutRight  _\n"
         "Functions:\n" + list + "\n\nExit status: 0 success, 1 a rejected expression, 2 a usage error.\n"
         "See layoutx(1) for the full reference.\n";
}

int run(int argc, char** argv) {
  Settings s;
  CLI::App app{"layoutx: explore CuTe layouts: print, evaluate and transform them from the command line", "layoutx"};
  app.set_version_flag("-V,--version", std::string("layoutx ") + kVersion);
  app.require_subcommand(1);
  app.footer(functions_footer());
  app.add_flag("--dynamic", s.dynamic,
               "CuTe-exact mode: plain integers are dynamic, _N static; output keeps CuTe's _ marks");
  app.add_flag("--strict", s.strict, "Treat warnings about CuTe's dubious answers as errors");
  app.add_option("--color", s.color, "Colour output: auto (a terminal without NO_COLOR), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_option("--max-depth", s.language.max_depth, "Deepest nesting of parentheses accepted (default 64)")
      ->check(CLI::Range(1, 100000));
  app.add_option("--max-length", s.language.max_length, "Longest expression accepted, in bytes (default 100000)")
      ->check(CLI::Range(1, 1 << 30));
  app.add_option("--max-cells", s.grid.max_cells, "Largest grid or picture drawn, in cells (default 1048576)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));

  const std::vector<Command> commands = {
      register_eval(app, s),
      register_print(app, s),
      register_offsets(app, s),
      register_info(app, s),
  };

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kUsage;
  }

  s.language.dynamic = s.dynamic;
  set_static_marks(s.dynamic);
  for (const auto& c : commands)
    if (c.app->parsed()) return c.run();
  return kUsage;
}

}  // namespace
}  // namespace layoutx::cli

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_DFL);
  static char buffer[1 << 16];
  std::setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
  return layoutx::cli::run(argc, argv);
}
