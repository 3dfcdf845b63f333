// The program fuzzing pipeline, shared by the libFuzzer target fuzz_programs
// and the regression test: bytes -> run_program under small limits (steps,
// output, nesting), print_layout through the grid renderer. An error reported
// in the run is the expected refusal; any exception escaping run_program, a
// crash or a sanitizer report is a finding, and so is output kept after a
// compile-time error (g++ would have printed nothing).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "layoutx/program.hpp"
#include "layoutx/render.hpp"

namespace layoutx::fuzz {

struct ProgramFinding : std::logic_error {
  using std::logic_error::logic_error;
};

inline ProgramOptions fuzz_program_options() {
  ProgramOptions o;
  o.language.max_depth = 32;
  o.language.max_length = 4096;
  o.max_steps = 20000;
  o.max_output = 1 << 16;
  return o;
}

inline void run_program_pipeline(std::string_view bytes) {
  ProgramHost host;
  host.printers["print_layout"] = [](const std::vector<Value>& args, Notation n) {
    if (args.size() != 1) throw Error("print_layout takes one layout");
    GridOptions g;
    g.max_cells = 4096;
    g.notation = n;
    return render_grid(args.front(), g);
  };
  Diagnostics diag(false, Notation{true});
  const ProgramRun run = run_program(std::string(bytes), "fuzz", fuzz_program_options(), host, diag);
  if (run.error && run.error->compile_time && !run.output.empty())
    throw ProgramFinding("output kept after a compile-time error: " + run.error->message);
  if (run.error && run.error->offset > bytes.size())
    throw ProgramFinding("an error placed past the end of the program: " + run.error->message);
}

}  // namespace layoutx::fuzz
