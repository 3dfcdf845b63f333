#include "io/line_editor.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "io/output.hpp"

#if LAYOUTX_HAVE_LIBEDIT
#include <dlfcn.h>
#include <editline/readline.h>
#endif

namespace layoutx::cli {

#if LAYOUTX_HAVE_LIBEDIT
// libedit is opened when an explorer starts, not linked: loading it and the
// four libraries it needs cost every command a third of a hello-world's
// start-up. Where it cannot be opened the explorer reads plain lines.
struct Libedit {
  decltype(&::readline) readline = nullptr;
  decltype(&::add_history) add_history = nullptr;
  decltype(&::read_history) read_history = nullptr;
  decltype(&::write_history) write_history = nullptr;
  decltype(&::using_history) using_history = nullptr;
  decltype(&::stifle_history) stifle_history = nullptr;
  decltype(&::rl_completion_matches) completion_matches = nullptr;
  decltype(&::rl_readline_name) readline_name = nullptr;
  decltype(&::rl_basic_word_break_characters) word_break_characters = nullptr;
  decltype(&::rl_attempted_completion_function) attempted_completion_function = nullptr;
  decltype(&::rl_attempted_completion_over) attempted_completion_over = nullptr;
};
#endif

namespace {

// Lines kept in the history file.
constexpr int kHistoryLines = 1000;

// Ctrl-C while a line is typed drops that line, as shells do: the handler
// only notes it (a signal handler can do no more), and the read it breaks
// off is then started again. A signal handler has no closure: the note is
// the one piece of state it can reach.
volatile std::sig_atomic_t interrupted = 0;

extern "C" void note_interrupt(int) { interrupted = 1; }

std::string data_directory() {
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) return std::string(xdg) + "/layoutx";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.local/share/layoutx";
  return "";
}

#if LAYOUTX_HAVE_LIBEDIT
template <class T>
bool find_symbol(void* library, const char* name, T& to) {
  to = reinterpret_cast<T>(dlsym(library, name));
  return to != nullptr;
}

// The library's entry points, or nothing when it (or one of them) is missing.
std::optional<Libedit> open_libedit() {
  void* library = dlopen(LAYOUTX_LIBEDIT_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (!library) return std::nullopt;
  Libedit e;
  const bool found =
      find_symbol(library, "readline", e.readline) && find_symbol(library, "add_history", e.add_history) &&
      find_symbol(library, "read_history", e.read_history) && find_symbol(library, "write_history", e.write_history) &&
      find_symbol(library, "using_history", e.using_history) &&
      find_symbol(library, "stifle_history", e.stifle_history) &&
      find_symbol(library, "rl_completion_matches", e.completion_matches) &&
      find_symbol(library, "rl_readline_name", e.readline_name) &&
      find_symbol(library, "rl_basic_word_break_characters", e.word_break_characters) &&
      find_symbol(library, "rl_attempted_completion_function", e.attempted_completion_function) &&
      find_symbol(library, "rl_attempted_completion_over", e.attempted_completion_over);
  if (found) return e;
  dlclose(library);
  return std::nullopt;
}

// libedit calls back through plain C functions, which cannot carry a closure:
// the word list and the library of the editor reading now live here while it reads.
const std::function<std::vector<std::string>()>* reading_words = nullptr;
const Libedit* reading_library = nullptr;

char* next_completion(const char* text, int state) {
  static std::vector<std::string> matches;
  static std::size_t next = 0;
  if (state == 0) {
    matches.clear();
    next = 0;
    const std::string prefix(text);
    if (reading_words)
      for (auto& w : (*reading_words)())
        if (w.compare(0, prefix.size(), prefix) == 0) matches.push_back(std::move(w));
  }
  if (next >= matches.size()) return nullptr;
  // libedit frees each match with free().
  const std::string& m = matches[next++];
  char* copy = static_cast<char*>(std::malloc(m.size() + 1));
  if (copy) std::memcpy(copy, m.c_str(), m.size() + 1);
  return copy;
}

char** complete(const char* text, int, int) {
  *reading_library->attempted_completion_over = 1;  // no file names when nothing matches
  return reading_library->completion_matches(text, next_completion);
}
#endif

}  // namespace

std::string default_history_path() {
  const std::string dir = data_directory();
  return dir.empty() ? "" : dir + "/history";
}

#if LAYOUTX_HAVE_LIBEDIT
struct LineEditor::Library : Libedit {};
#else
struct LineEditor::Library {};
#endif

LineEditor::LineEditor(std::string history_path, std::function<std::vector<std::string>()> words)
    : history_path_(std::move(history_path)) {
  if (!history_path_.empty()) {
    std::error_code ec;  // no history beats no explorer: a directory that cannot be made is let be
    std::filesystem::create_directories(std::filesystem::path(history_path_).parent_path(), ec);
  }
  struct sigaction on_interrupt {};
  on_interrupt.sa_handler = note_interrupt;
  sigemptyset(&on_interrupt.sa_mask);
  on_interrupt.sa_flags = 0;  // no SA_RESTART: the read waiting for a key returns
  sigaction(SIGINT, &on_interrupt, &previous_interrupt_);
#if LAYOUTX_HAVE_LIBEDIT
  if (auto e = open_libedit()) library_ = std::make_unique<Library>(Library{*e});
#endif
  if (!library_) return;
#if LAYOUTX_HAVE_LIBEDIT
  static std::function<std::vector<std::string>()> words_held;
  words_held = std::move(words);
  reading_words = &words_held;
  reading_library = library_.get();
  *library_->readline_name = "layoutx";
  // Words end where an expression's punctuation begins.
  static char breaks[] = " \t\n(),:<>=";
  *library_->word_break_characters = breaks;
  *library_->attempted_completion_function = complete;
  library_->using_history();
  library_->stifle_history(kHistoryLines);
  if (!history_path_.empty()) library_->read_history(history_path_.c_str());
#else
  (void)words;
#endif
}

LineEditor::~LineEditor() {
  sigaction(SIGINT, &previous_interrupt_, nullptr);
#if LAYOUTX_HAVE_LIBEDIT
  if (!library_) return;
  reading_words = nullptr;
  reading_library = nullptr;
  if (!history_path_.empty()) library_->write_history(history_path_.c_str());
#endif
}

std::optional<std::string> LineEditor::read(const std::string& prompt) {
  flush_out();
  for (;;) {
    interrupted = 0;
#if LAYOUTX_HAVE_LIBEDIT
    if (library_) {
      char* line = library_->readline(prompt.c_str());
      if (line) {
        std::string text(line);
        std::free(line);
        if (!interrupted) return text;
      }
    }
#endif
    if (!library_) {
      std::fputs(prompt.c_str(), stdout);
      std::fflush(stdout);
      std::string text;
      if (std::getline(std::cin, text) && !interrupted) return text;
      std::cin.clear();
    }
    if (!interrupted) return std::nullopt;  // the end of input (Ctrl-D)
    std::fputs("^C\n", stdout);
    std::fflush(stdout);
  }
}

void LineEditor::remember(const std::string& line) {
#if LAYOUTX_HAVE_LIBEDIT
  if (library_) {
    library_->add_history(line.c_str());
    if (!history_path_.empty()) library_->write_history(history_path_.c_str());
    return;
  }
#endif
  if (history_path_.empty()) return;
  std::ofstream file(history_path_, std::ios::app);
  file << line << '\n';
}

}  // namespace layoutx::cli
