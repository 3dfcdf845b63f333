// Splitting a walk over [0, n) into contiguous parts that run on every core.
// Each part gets its own range and keeps its own results; the caller combines
// them in part order, so answers do not depend on how many parts there are.
#pragma once

#include <cstdint>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

#include "layoutx/wide_integer.hpp"

namespace layoutx {

// How many parts a walk of n steps is worth: one per core this process may
// run on, but no part shorter than min_part steps (a thread costs tens of
// microseconds).
int parts_for(std::uint64_t n, std::uint64_t min_part = std::uint64_t{1} << 16);
// The same with a count of threads asked for: up to `threads` parts, whatever
// the cores (tests compare answers across counts), or one per core when 0.
int parts_for(std::uint64_t n, std::uint64_t min_part, int threads);

// The range [lo, hi) of part p of `parts` over [0, n).
inline std::uint64_t part_begin(std::uint64_t n, int parts, int p) {
  return static_cast<std::uint64_t>((static_cast<UInt128>(n) * static_cast<unsigned>(p)) /
                                    static_cast<unsigned>(parts));
}

// Runs f(p, lo, hi) for every part p, part 0 on the calling thread, the others
// on threads of their own; an exception in any part is rethrown here (the
// first by part order) once all have finished. Where no thread can be started
// the part runs on the calling thread.
template <class F>
void for_each_part(std::uint64_t n, int parts, F&& f) {
  std::vector<std::exception_ptr> failed(static_cast<std::size_t>(parts));
  const auto run = [&](int p) {
    try {
      f(p, part_begin(n, parts, p), part_begin(n, parts, p + 1));
    } catch (...) {
      failed[static_cast<std::size_t>(p)] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  std::vector<int> inline_parts;
  for (int p = 1; p < parts; ++p) {
    try {
      threads.emplace_back(run, p);
    } catch (const std::system_error&) {
      inline_parts.push_back(p);
    }
  }
  run(0);
  for (int p : inline_parts) run(p);
  for (auto& t : threads) t.join();
  for (const auto& e : failed)
    if (e) std::rethrow_exception(e);
}

}  // namespace layoutx
