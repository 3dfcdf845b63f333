// A layout written as an expression, for the tests that start from one.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "layoutx/language.hpp"

namespace layoutx::test {

// As the commands read it: a bare shape is its compact layout; any other
// value fails the test.
inline AnyLayout layout_of(const std::string& text, bool dynamic = false) {
  LanguageOptions options;
  options.dynamic = dynamic;
  Diagnostics diag;  // the tests that look at warnings evaluate with their own
  const Value v = evaluate_expression(text, options, diag);
  REQUIRE_MESSAGE(v.as_layout(), text << " is no layout");
  return *v.as_layout();
}

// A value as the offsets command reads it: a bare shape is its compact layout;
// any other value is refused with an Error, as the command refuses it.
inline AnyLayout as_layout(const Value& v) {
  if (const auto l = v.as_layout()) return *l;
  throw Error("not a layout: " + kind_name(v));
}

}  // namespace layoutx::test
