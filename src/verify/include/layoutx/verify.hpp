// `layoutx check`'s oracle: an evaluated expression's result against an
// evaluator independent of the host's (layoutx/device.hpp), and against the
// defining property of its outermost operation at every point. A property
// CuTe's answer breaks where layoutx warned about it is reported, not failed:
// the user was told.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "layoutx/device.hpp"
#include "layoutx/language.hpp"

namespace layoutx::verify {

// Points one property evaluates by default: a few seconds on one CPU core.
inline constexpr std::uint64_t kDefaultMaxPoints = std::uint64_t{1} << 24;

struct Options {
  device::Where where = device::Where::Cpu;
  std::size_t first = 5;                         // failures listed per property
  std::uint64_t max_points = kDefaultMaxPoints;  // at most device::kMaxPoints
  int threads = 0;                               // the CPU's threads at most (0: one per core)
};

// The findings of one expression, one indented line each.
struct Report {
  std::string lines;
  bool failed = false;
};

// `warned`: layoutx warned about the expression's answer, so a property it
// breaks is a known weakness of CuTe's answer rather than a failure.
Report check(const Evaluation& e, bool warned, const Options& o, Diagnostics& diag);

}  // namespace layoutx::verify
