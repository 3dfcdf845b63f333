// Small helpers the table-driven tests share.
#pragma once

#include <doctest/doctest.h>

#include "layoutx/error.hpp"
#include "layoutx/notation.hpp"

namespace layoutx::test {

// Sets the static-mark printing mode for one scope and restores the previous one,
// so that a failing test cannot leak its setting into the next.
class StaticMarks {
 public:
  explicit StaticMarks(bool on) : saved_(static_marks()) { set_static_marks(on); }
  ~StaticMarks() { set_static_marks(saved_); }
  StaticMarks(const StaticMarks&) = delete;
  StaticMarks& operator=(const StaticMarks&) = delete;

 private:
  bool saved_;
};

// Warnings and --strict state start fresh for each case: nothing carries over.
inline Diagnostics& fresh_diagnostics() {
  Diagnostics& d = Diagnostics::current();
  d.clear();
  d.strict = false;
  return d;
}

// Loops over thousands of cases report the first few mismatches in full and
// only count the rest, so a regression does not bury the output.
class Mismatches {
 public:
  explicit Mismatches(int shown = 8) : shown_(shown) {}
  // Call on a mismatch; true while it should still be reported in detail.
  bool report() { return ++count_ <= shown_; }
  int count() const { return count_; }

 private:
  int shown_;
  int count_ = 0;
};

}  // namespace layoutx::test
