// repl: the interactive explorer. Each line is an expression (its value
// shown, a layout drawn as its grid), `let NAME = EXPR`, or a :command.
#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <utility>

#include "definitions.hpp"
#include "driver.hpp"
#include "io/input_lines.hpp"
#include "layoutx/atoms.hpp"
#include "io/line_editor.hpp"
#include "io/output.hpp"
#include "io/program_host.hpp"
#include "suggest.hpp"

namespace layoutx::cli {

namespace {

constexpr const char* kPrompt = "layoutx> ";

const char* const kHelp =
    "Type an expression in CuTe's notation; its value is printed, a layout with its grid.\n"
    "  (4,3):(3,1)                      a layout\n"
    "  logical_divide((8,8):(8,1), (2,4))\n"
    "  let NAME = EXPR                  bind NAME for later lines: after let A = (4,3):(3,1),\n"
    "                                   A(1,2) is 5 and A o 2:2 a composition\n"
    "  auto L = make_layout(...);       CuTe C++ statements (ending in ; or }) run as `layoutx run`\n"
    "  print_layout(L);                 runs them: what they print is shown, their names stay\n"
    "Commands:\n"
    "  :help                            this text\n"
    "  :names                           the names bound so far\n"
    "  :atom NAME                       an MMA or copy atom's layouts (tab completes the name)\n"
    "  :quit                            leave (or Ctrl-D)\n"
    "Tab completes functions, names and atoms; the arrows recall earlier lines.\n";

const std::vector<std::string> kCommandWords = {":help", ":names", ":atom", ":quit"};

std::vector<std::string> completion_words(const Settings& s) {
  std::vector<std::string> words = function_names(s.language.extension);
  for (const char* w : {"LayoutLeft", "LayoutRight", "Swizzle", "let"}) words.emplace_back(w);
  for (const auto& [name, value] : s.language.names) words.push_back(name);
  for (const auto& w : kCommandWords) words.push_back(w);
  for (const AtomHeading& a : atom_headings("")) words.emplace_back(a.name);
  return words;
}

// The terminal's rows and columns (80x24 where it does not say).
std::pair<std::int64_t, std::int64_t> terminal_size() {
  winsize w{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_row > 0 && w.ws_col > 0) return {w.ws_row, w.ws_col};
  return {24, 80};
}

// The corner of a layout's grid that fits the terminal: each grid row takes
// two lines, each cell the width of the largest offset and its border.
GridOptions fitting_grid(const Settings& s, const Value& v, std::string& note) {
  GridOptions grid = s.grid;
  const auto l = v.as_layout();
  if (!l) return grid;
  const Layout& inner = inner_layout(*l);
  const std::int64_t count = size(inner).value;
  const std::int64_t rows = inner.shape.is_leaf() ? count : product(inner.shape[0]).value;
  const std::int64_t cols = rows > 0 ? count / rows : 0;
  const auto [term_rows, term_cols] = terminal_size();
  const std::int64_t cell = static_cast<std::int64_t>(std::to_string(std::max<std::int64_t>(count, 1)).size()) + 3;
  const std::int64_t fit_rows = std::max<std::int64_t>(4, (term_rows - 6) / 2),
                     fit_cols = std::max<std::int64_t>(2, (term_cols - 6) / cell);
  if (rows <= fit_rows && cols <= fit_cols) return grid;
  grid.rows = GridWindow{0, std::min(rows, fit_rows)};
  grid.cols = GridWindow{0, std::min(cols, fit_cols)};
  note = fmt::format(
      "(rows 0-{} and columns 0-{} of its {}x{} grid, what fits this terminal; `layoutx print --rows A:B "
      "--cols C:D EXPR` shows any part, `layoutx print EXPR` all of it)\n",
      grid.rows.end - 1, grid.cols.end - 1, rows, cols);
  return grid;
}

// A layout is shown with its grid, cut to the terminal; a grid past
// --max-cells, or a value of another kind, by its notation.
void show(const Settings& s, const Value& v) {
  if (v.is_layout_like()) {
    try {
      std::string note;
      const GridOptions grid = fitting_grid(s, v, note);
      out(render_grid(v, grid) + note);
      return;
    } catch (const Error&) {
    }
  }
  out(render_notation(v, notation(s)) + "\n");
}

void show_names(const Settings& s) {
  if (s.language.names.empty()) out("no names bound yet (let NAME = EXPR)\n");
  for (const auto& [name, value] : s.language.names)
    out(fmt::format("{} = {}\n", name, render_notation(value, notation(s))));
}

void show_atom(const std::string& name) {
  const Atom* atom = find_atom(name);
  if (!atom) {
    std::string message = fmt::format("no atom is called '{}'", excerpt(name));
    const auto similar = similar_atom_names(name, 1);
    if (!similar.empty()) message += fmt::format(" (did you mean '{}'?)", similar.front());
    report_error(message, "", 0, false);
    return;
  }
  if (atom->kind == Atom::Kind::Mma) {
    const MmaAtom& m = atom->mma;
    out(fmt::format(
        "{} (MMA atom)\n  ThrID:      {}\n  Shape_MNK:  {}\n  LayoutA_TV: {}\n  LayoutB_TV: {}\n  LayoutC_TV: {}\n",
        atom->name, to_text(Value::of(m.thr_id)), to_text(Value::of(m.shape_mnk)), to_text(Value::of(m.a)),
        to_text(Value::of(m.b)), to_text(Value::of(m.c))));
  } else {
    const CopyAtom& c = atom->copy;
    out(fmt::format("{} (copy atom, in bits)\n  ThrID:     {}\n  SrcLayout: {}\n  DstLayout: {}\n  RefLayout: {}\n",
                    atom->name, to_text(Value::of(c.thr_id)), to_text(Value::of(c.src)), to_text(Value::of(c.dst)),
                    to_text(Value::of(c.ref))));
  }
}

// A :command; false when it asks to leave.
bool run_command(const Settings& s, const std::string& line) {
  const auto space = line.find_first_of(" \t");
  const std::string word = line.substr(0, space);
  const std::string rest = space == std::string::npos ? "" : std::string(trimmed(line.substr(space)));
  if (word == ":quit" || word == ":q" || word == ":exit") return false;
  if (word == ":help" || word == ":h")
    out(kHelp);
  else if (word == ":names")
    show_names(s);
  else if (word == ":atom" && !rest.empty())
    show_atom(rest);
  else if (word == ":atom")
    report_error(":atom needs an atom's name, as in :atom SM80_16x8x16_F32F16F16F32_TN", "", 0, false);
  else
    report_error(fmt::format("unknown command '{}'{}; :help lists them", word, did_you_mean(word, kCommandWords)), "",
                 0, false);
  return true;
}

// CuTe C++ statements: run after the earlier ones; the values they name
// become names of later expressions too.
void run_statements(Settings& s, std::unique_ptr<ProgramSession>& session, const std::string& line) {
  if (!session) {
    ProgramOptions options;
    options.language = s.language;
    session = std::make_unique<ProgramSession>(options, program_host(s));
  }
  Diagnostics diag(false, Notation{true});
  const ProgramRun run = session->feed(line, diag);
  out(run.output);
  flush_out();
  if (run.error) report_error(run.error->message, line, run.error->offset, true);
  for (auto& [name, value] : session->values())
    if (bindable_name(name)) s.language.names[name] = std::move(value);
}

// `let NAME = EXPR`: bound, then shown as any value is.
void run_let(Settings& s, const std::string& definition) {
  if (!bind_definition(s, definition)) return;
  const std::string name(trimmed(definition.substr(0, definition.find('='))));
  out(name + " = ");
  show(s, s.language.names.at(name));
}

bool is_let(const std::string& line) {
  return line.rfind("let", 0) == 0 && line.size() > 3 && (line[3] == ' ' || line[3] == '\t');
}

}  // namespace

int run_explorer(Settings& s) {
  LineEditor editor(default_history_path(), [&s] { return completion_words(s); });
  out(fmt::format("layoutx explorer: CuTe layouts as you type them. :help for help, Ctrl-D to leave.{}\n",
                  editor.editing() ? "" : "\n(no libedit: no line editing, completion or recall)"));
  std::unique_ptr<ProgramSession> session;  // made by the first statement
  while (const auto input = editor.read(kPrompt)) {
    const std::string line(trimmed(*input));
    if (holds_no_expression(line)) continue;
    editor.remember(line);
    if (line.front() == ':') {
      if (!run_command(s, line)) break;
    } else if (looks_like_statements(line)) {
      run_statements(s, session, line);
    } else if (is_let(line)) {
      run_let(s, line.substr(4));
    } else if (line == "-") {
      report_error("'-' reads standard input in a command; here, type the expression itself", "", 0, false);
    } else {
      for_each_expression(s, {line}, [&s](const Value& v) { show(s, v); });
    }
    flush_out();
  }
  out("\n");
  return kOk;
}

Command register_repl(CLI::App* sub, Settings& s) {
  return {sub, [&s] { return run_explorer(s); }};
}

}  // namespace layoutx::cli
