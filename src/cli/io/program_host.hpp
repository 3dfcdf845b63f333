// The printers a program's print_layout and print_latex go through.
#pragma once

#include "driver.hpp"
#include "layoutx/program.hpp"

namespace layoutx::cli {

// print_layout (CuTe's grid, rank 2 only, as CuTe asserts) and print_latex,
// under the grid limits of `s`.
ProgramHost program_host(const Settings& s);

}  // namespace layoutx::cli
