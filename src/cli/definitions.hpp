// Names bound for later expressions: --define NAME=EXPR and the explorer's
// `let NAME = EXPR`.
#pragma once

#include <string_view>

#include "driver.hpp"

namespace layoutx::cli {

// Evaluate EXPR (earlier names visible) and bind NAME to its value in
// s.language.names. `definition` is "NAME=EXPR" (spaces allowed around '=').
// On a bad name or expression: the error on stderr, with a caret under the
// offending column of `definition`, and false.
bool bind_definition(Settings& s, std::string_view definition);

}  // namespace layoutx::cli
