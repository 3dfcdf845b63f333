// run: a CuTe C++ program, printing what the compiled program prints.
#include <fmt/format.h>

#include <charconv>
#include <optional>
#include <vector>

#include <fstream>
#include <iostream>
#include <iterator>

#include "driver.hpp"
#include "layoutx/program.hpp"
#include "io/output.hpp"
#include "io/program_host.hpp"
#include "program_file.hpp"

namespace layoutx::cli {

namespace {

struct RunOptions {
  std::string file;
  std::string thread, cta, block, grid;
  bool all_threads = false;
  std::int64_t max_steps = ProgramOptions{}.max_steps;
  std::int64_t max_output = std::int64_t{1} << 26;
};

std::string_view first_line(std::string_view text) { return text.substr(0, text.find('\n')); }

// The words of a line with their offsets.
std::vector<std::pair<std::string, std::size_t>> words_of(std::string_view line) {
  std::vector<std::pair<std::string, std::size_t>> words;
  std::size_t at = 0;
  while ((at = line.find_first_not_of(" \t\r", at)) != std::string_view::npos) {
    const std::size_t stop = std::min(line.find_first_of(" \t\r", at), line.size());
    words.emplace_back(std::string(line.substr(at, stop - at)), at);
    at = stop;
  }
  return words;
}

// Statements and loop rounds: the range the command line's --max-steps accepts.
bool read_max_steps(const std::string& value, std::int64_t& into) {
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (value.empty() || ec != std::errc() || ptr != value.data() + value.size() || v < 1 || v > (std::int64_t{1} << 40))
    return false;
  into = v;
  return true;
}

// `// layoutx run FLAGS` on the first line: the flags a kernel file runs with.
// The command line's --max-steps, when given, stays: the file does not raise it.
// A value the command line would refuse is a mistake in the file, shown where
// it is (the first line's offsets are the file's).
std::optional<ProgramError> flags_from_first_line(std::string_view first, RunOptions& o, bool max_steps_given) {
  constexpr std::string_view kMark = "// layoutx run";
  if (!first.starts_with(kMark)) return std::nullopt;
  const auto words = words_of(first.substr(kMark.size()));
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string word = words[i].first;
    std::string value;
    std::size_t value_at = kMark.size() + words[i].second;
    if (const std::size_t eq = word.find('='); eq != std::string::npos) {
      value = word.substr(eq + 1);
      value_at += eq + 1;
      word = word.substr(0, eq);
    } else if (word != "--all-threads" && i + 1 < words.size()) {
      value = words[++i].first;
      value_at = kMark.size() + words[i].second;
    }
    std::string* dim3 = word == "--thread"  ? &o.thread
                        : word == "--cta"   ? &o.cta
                        : word == "--block" ? &o.block
                        : word == "--grid"  ? &o.grid
                                            : nullptr;
    std::string problem;
    Dim3 scratch{};
    if (dim3 && !set_dim3(value, 0, scratch, nullptr, problem))
      return ProgramError{fmt::format("the first line's {}: {}", word, problem), value_at};
    if (dim3) *dim3 = value;
    if (word == "--all-threads") o.all_threads = true;
    if (word == "--max-steps" && !max_steps_given && !read_max_steps(value, o.max_steps))
      return ProgramError{fmt::format("the first line's --max-steps: '{}' is not an integer in [1, 2^40]", value),
                          value_at};
  }
  return std::nullopt;
}

int run_program_file(const Settings& s, RunOptions o, bool max_steps_given) {
  std::string text;
  try {
    text = read_program(o.file);
  } catch (const Error& e) {
    report_error(e.what(), "", 0, false);
    return kRejected;
  }
  const std::string name = o.file == "-" ? "<stdin>" : o.file;
  if (o.thread.empty() && o.cta.empty() && o.block.empty() && o.grid.empty() && !o.all_threads) {
    if (const auto mistake = flags_from_first_line(first_line(text), o, max_steps_given)) {
      report_program_error(name, text, ProgramError{mistake->message, mistake->offset});
      return kRejected;
    }
  }
  ProgramOptions options;
  options.language = s.language;
  options.max_steps = o.max_steps;
  options.max_output = static_cast<std::size_t>(o.max_output);
  options.all_threads = o.all_threads;
  std::string problem;
  if (!set_dim3(o.thread, 0, options.thread, &options.thread_given, problem) ||
      !set_dim3(o.cta, 0, options.cta, &options.cta_given, problem) ||
      !set_dim3(o.block, 1, options.block, nullptr, problem) || !set_dim3(o.grid, 1, options.grid, nullptr, problem)) {
    report_error(problem, "", 0, false);
    return kUsage;
  }
  Diagnostics diag(false, Notation{true});
  const ProgramRun run = run_program(text, name, options, program_host(s), diag);
  out(run.output);
  flush_out();
  if (!run.error) return kOk;
  report_program_error(name, text, *run.error);
  return kRejected;
}

}  // namespace

Command register_run(CLI::App* sub, Settings& s) {
  auto o = std::make_shared<RunOptions>();
  sub->add_option("FILE", o->file, "The CuTe C++ program; '-' reads it from standard input")->required();
  sub->add_option("--thread", o->thread, "threadIdx of the kernel's thread: X[,Y[,Z]] (default 0)");
  sub->add_option("--cta", o->cta, "blockIdx of the kernel's block: X[,Y[,Z]] (default 0)");
  sub->add_option("--block", o->block, "blockDim, as a launch's <<<grid, block>>> sets it: X[,Y[,Z]]");
  sub->add_option("--grid", o->grid, "gridDim, as a launch's <<<grid, block>>> sets it: X[,Y[,Z]]");
  sub->add_flag("--all-threads", o->all_threads, "Run the kernel for every thread of the block, one after another");
  CLI::Option* max_steps =
      sub->add_option("--max-steps", o->max_steps, "Statements and loop rounds run at most (default 10000000)")
          ->check(integer_range(1, std::int64_t{1} << 40));
  sub->add_option("--max-output", o->max_output, "Bytes of output at most (default 67108864)")
      ->check(integer_range(1, std::int64_t{1} << 40));
  return {sub, [&s, o, max_steps] {
            try {
              return run_program_file(s, *o, max_steps->count() > 0);
            } catch (const OutputFailure&) {
              return kUsage;
            }
          }};
}

}  // namespace layoutx::cli
