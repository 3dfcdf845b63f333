// The report of one expression, written line by line as the properties are
// checked, and the helpers every property shares.
#pragma once

#include <fmt/format.h>

#include <optional>
#include <string>

#include "layoutx/verify.hpp"

namespace layoutx::verify {

class Findings {
 public:
  Findings(const Options& o, bool warned, Diagnostics& diag) : options_(o), warned_(warned), diag_(diag) {}

  void line(const std::string& s) { report_.lines += "  " + s + "\n"; }

  // How a failed property counts: always; not where layoutx warned about
  // CuTe's answer; or never (a fact worth knowing, not an error).
  enum class Weight { Hard, UnlessWarned, Note };

  // A property's verdict; `what` names it, `show` writes one failure.
  template <class Show>
  void verdict(const std::string& what, const device::Verdict& v, Show show, Weight weight = Weight::UnlessWarned) {
    if (v.failures == 0) {
      line(fmt::format("ok    {} ({} points)", what, v.points));
      return;
    }
    const bool counts = weight == Weight::Hard || (weight == Weight::UnlessWarned && !warned_);
    const char* tag = counts ? "FAIL " : weight == Weight::Note ? "note " : "WARN ";
    line(fmt::format("{} {}: fails at {} of {} points", tag, what, v.failures, v.points));
    for (const auto& m : v.first) line("        " + show(m));
    if (counts) report_.failed = true;
  }

  void skipped(const std::string& why) { line("--    " + why); }
  void note(const std::string& what) { line("note  " + what); }
  // A broken structural expectation (a size), weighed like a property.
  void broken(const std::string& why) {
    line(std::string(warned_ ? "WARN  " : "FAIL  ") + why);
    if (!warned_) report_.failed = true;
  }

  device::CheckOptions device_options() const {
    return device::CheckOptions{options_.where, options_.first, options_.max_points, options_.threads};
  }
  Report report() const { return report_; }

  // Where the operations the checks evaluate on the side report.
  Diagnostics& diag() const { return diag_; }
  // A value in the notation of the report.
  template <class T>
  std::string text(const T& x) const {
    return to_text(x, diag_.notation());
  }

 private:
  const Options& options_;
  bool warned_;
  Diagnostics& diag_;
  Report report_;
};

std::string show_pair(const char* lhs, const char* rhs, const device::Mismatch& m);

// An operand as a function of the index: a layout, a shape (its compact
// layout), an integer n (n:1), a swizzle (Sw o 0 o 1:1); nullopt otherwise.
std::optional<AnyLayout> as_function(const Value& v);

// The identity over a shape: every leaf strided by the size of the leaves
// before it, size-1 leaves included (a compact layout gives those stride 0,
// and the identity must extend past them as A does).
Layout identity_layout(const IntTuple& shape, Int start = static_int(1));

void size_must_match(Findings& f, const AnyLayout& result, Int expected, const std::string& of);

// The defining property of each operation; the operands are the outermost call's.
void check_composition(Findings& f, const AnyLayout& result, const OuterCall& call);
void check_complement(Findings& f, const AnyLayout& result, const OuterCall& call);
void check_inverse(Findings& f, const AnyLayout& result, const OuterCall& call, bool right);
void check_divide(Findings& f, const AnyLayout& result, const OuterCall& call);
void check_product(Findings& f, const AnyLayout& result, const OuterCall& call);
void check_same_function(Findings& f, const AnyLayout& result, const OuterCall& call);

}  // namespace layoutx::verify
