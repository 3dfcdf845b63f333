// Small helpers the table-driven tests share.
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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
  d.reset();
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

// The rows of a tab-separated file in tests/data: blank and # lines skipped,
// the first other line taken as the column names.
inline std::vector<std::vector<std::string>> read_tsv(const std::string& name) {
  std::ifstream in(std::string(LAYOUTX_TEST_DATA) + "/" + name);
  REQUIRE_MESSAGE(in.good(), "cannot open tests/data/" << name);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {  // the column names
      header = false;
      continue;
    }
    std::vector<std::string> fields;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, '\t');) fields.push_back(f);
    rows.push_back(fields);
  }
  return rows;
}

}  // namespace layoutx::test
