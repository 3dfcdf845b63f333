// layoutx: the command line. Wires argv to the language, the engine and the
// renderers; owns stdout, stderr and the exit status.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <csignal>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "layoutx/language.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/render.hpp"
#include "layoutx/version.hpp"
#include "output.hpp"

namespace layoutx::cli {
namespace {

constexpr int kOk = 0, kRejected = 1, kUsage = 2;

struct Settings {
  bool dynamic = false;
  bool strict = false;
  LanguageOptions language;
  GridOptions grid;
  std::string format = "plain";
  bool json = false;
  std::vector<std::string> expressions;
};

// Expand "-" into the lines of standard input (blank lines and # comments skipped).
std::vector<std::string> gather(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const auto& a : args) {
    if (a != "-") {
      out.push_back(a);
      continue;
    }
    std::string line;
    while (std::getline(std::cin, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      const auto first = line.find_first_not_of(" \t");
      if (first == std::string::npos || line[first] == '#') continue;
      out.push_back(line);
    }
  }
  return out;
}

using Command = std::function<void(const Value&)>;

// Evaluate each expression and run the command on it; report errors and
// warnings on stderr. Returns the exit status.
int for_each_expression(const Settings& s, const Command& command) {
  int status = kOk;
  Diagnostics& diag = Diagnostics::current();
  diag.strict = s.strict;
  for (const auto& expr : gather(s.expressions)) {
    diag.clear();
    try {
      const Value v = evaluate_expression(expr, s.language);
      for (const auto& w : diag.warnings()) report_warning(w.message);
      command(v);
    } catch (const SourceError& e) {
      flush_out();
      report_error(e.what(), expr, e.offset(), true);
      status = kRejected;
    } catch (const Error& e) {
      flush_out();
      report_error(e.what(), expr, 0, false);
      status = kRejected;
    } catch (const std::bad_alloc&) {
      flush_out();
      report_error("out of memory", expr, 0, false);
      status = kRejected;
    }
  }
  flush_out();
  return status;
}

OffsetFormat parse_format(const std::string& f) {
  if (f == "csv") return OffsetFormat::Csv;
  if (f == "tsv") return OffsetFormat::Tsv;
  if (f == "json") return OffsetFormat::Json;
  if (f == "jsonl") return OffsetFormat::Jsonl;
  return OffsetFormat::Plain;
}

int run_command(const std::string& name, const Settings& s) {
  if (name == "eval") return for_each_expression(s, [](const Value& v) { out(render_notation(v) + "\n"); });
  if (name == "print") return for_each_expression(s, [&](const Value& v) { out(render_grid(v, s.grid)); });
  if (name == "info") return for_each_expression(s, [&](const Value& v) { out(render_info(v, s.json)); });
  if (name == "offsets") {
    const OffsetFormat f = parse_format(s.format);
    return for_each_expression(s, [&](const Value& v) {
      if (!v.is_layout_like() && !v.is_int_tuple())
        throw Error(fmt::format("offsets needs a layout, got a {} {}", kind_name(v), to_text(v)));
      const AnyLayout l = v.is_int_tuple() ? AnyLayout{make_layout(v.as_int_tuple())} : v.as_any_layout();
      render_offsets(l, f, [](std::string_view chunk) { out(chunk); });
    });
  }
  return kUsage;
}

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
         "  A o B  f<targs>(args)  L(i)  L(i,j)  L((i,j),k)  LayoutLeft  LayoutRight  _\n"
         "Functions:\n" + list + "\n\nSee layoutx(1) for the full reference.\n";
}

void add_expressions(CLI::App* sub, Settings& s) {
  sub->add_option("EXPR", s.expressions, "Expressions to evaluate; '-' reads one per line from standard input")
      ->required();
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_DFL);
  static char buffer[1 << 16];
  std::setvbuf(stdout, buffer, _IOFBF, sizeof buffer);

  Settings s;
  CLI::App app{"layoutx: explore CuTe layouts: print, evaluate and transform them from the command line", "layoutx"};
  app.set_version_flag("-V,--version", std::string("layoutx ") + kVersion);
  app.require_subcommand(1);
  app.footer(functions_footer());
  app.add_flag("--dynamic", s.dynamic, "CuTe-exact mode: plain integers are dynamic, _N static; output keeps CuTe's _ marks");
  app.add_flag("--strict", s.strict, "Treat warnings about CuTe's dubious answers as errors");
  app.add_option("--max-depth", s.language.max_depth, "Deepest nesting of parentheses accepted (default 64)")
      ->check(CLI::Range(1, 100000));
  app.add_option("--max-length", s.language.max_length, "Longest expression accepted, in bytes (default 100000)")
      ->check(CLI::Range(1, 1 << 30));
  app.add_option("--max-cells", s.grid.max_cells, "Largest grid 'print' draws, in cells (default 1048576)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));

  auto* eval = app.add_subcommand("eval", "Print each value in CuTe's notation");
  add_expressions(eval, s);
  auto* print = app.add_subcommand("print", "Draw each layout as CuTe's print_layout does");
  add_expressions(print, s);
  auto* offsets = app.add_subcommand("offsets", "Stream the offset of every index, one per line");
  offsets->add_option("-f,--format", s.format, "Table format: plain, csv, tsv, json, jsonl")
      ->check(CLI::IsMember({"plain", "csv", "tsv", "json", "jsonl"}));
  add_expressions(offsets, s);
  auto* info = app.add_subcommand("info", "Show shape, stride, size, cosize, rank and depth");
  info->add_flag("--json", s.json, "One JSON object per expression");
  add_expressions(info, s);

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
  for (auto* sub : app.get_subcommands()) return run_command(sub->get_name(), s);
  return kUsage;
}

}  // namespace layoutx::cli

int main(int argc, char** argv) { return layoutx::cli::main(argc, argv); }
