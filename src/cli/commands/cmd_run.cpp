// run: a CuTe C++ program, printing what the compiled program prints.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

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

// `// layoutx run FLAGS` on the first line: the flags a kernel file runs with.
void flags_from_first_line(const std::string& text, RunOptions& o) {
  const std::string_view first = std::string_view(text).substr(0, text.find('\n'));
  constexpr std::string_view kMark = "// layoutx run";
  if (!first.starts_with(kMark)) return;
  std::istringstream words{std::string(first.substr(kMark.size()))};
  std::string word;
  while (words >> word) {
    std::string value;
    if (const std::size_t eq = word.find('='); eq != std::string::npos) {
      value = word.substr(eq + 1);
      word = word.substr(0, eq);
    } else if (word != "--all-threads") {
      words >> value;
    }
    if (word == "--thread")
      o.thread = value;
    else if (word == "--cta")
      o.cta = value;
    else if (word == "--block")
      o.block = value;
    else if (word == "--grid")
      o.grid = value;
    else if (word == "--all-threads")
      o.all_threads = true;
    else if (word == "--max-steps")
      o.max_steps = std::strtoll(value.c_str(), nullptr, 10);
  }
}

int run_program_file(const Settings& s, RunOptions o) {
  std::string text;
  try {
    text = read_program(o.file);
  } catch (const Error& e) {
    report_error(e.what(), "", 0, false);
    return kRejected;
  }
  if (o.thread.empty() && o.cta.empty() && o.block.empty() && o.grid.empty() && !o.all_threads)
    flags_from_first_line(text, o);
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
  const std::string name = o.file == "-" ? "<stdin>" : o.file;
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
  sub->add_option("--max-steps", o->max_steps, "Statements and loop rounds run at most (default 10000000)")
      ->check(integer_range(1, std::int64_t{1} << 40));
  sub->add_option("--max-output", o->max_output, "Bytes of output at most (default 67108864)")
      ->check(integer_range(1, std::int64_t{1} << 40));
  return {sub, [&s, o] {
            try {
              return run_program_file(s, *o);
            } catch (const OutputFailure&) {
              return kUsage;
            }
          }};
}

}  // namespace layoutx::cli
