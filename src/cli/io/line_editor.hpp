// Reading the explorer's lines: with libedit when layoutx is built with it and
// the library opens (editing, history recalled with the arrows, tab
// completion), otherwise plain lines from standard input. Either way the history is kept in a file.
#pragma once

#include <signal.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace layoutx::cli {

// $XDG_DATA_HOME/layoutx/history, or ~/.local/share/layoutx/history; "" when
// neither variable is set.
std::string default_history_path();

class LineEditor {
 public:
  // `words` lists what tab completes (asked afresh at each completion).
  LineEditor(std::string history_path, std::function<std::vector<std::string>()> words);
  ~LineEditor();
  LineEditor(const LineEditor&) = delete;
  LineEditor& operator=(const LineEditor&) = delete;

  // The next line without its newline; nullopt at the end of input (Ctrl-D).
  // Ctrl-C drops the line being typed and reads another.
  std::optional<std::string> read(const std::string& prompt);
  // Adds a line to the history, in memory and in the file.
  void remember(const std::string& line);
  // Whether lines are edited (libedit) or read plainly.
  bool editing() const { return library_ != nullptr; }

 private:
  struct Library;  // libedit's entry points, opened by the constructor
  std::unique_ptr<Library> library_;
  std::string history_path_;
  struct sigaction previous_interrupt_ {};  // put back when the editor ends
};

}  // namespace layoutx::cli
