// A direct recursive-descent reading of the grammar (grammar.hpp) for the
// expressions that parse: the same Node tree the PEGTL parse tree and its
// conversion give, without a tree node allocated for every rule tried (most of
// the time of a small expression, and of batch mode). Whatever it does not
// accept outright (every syntax error, an integer past 64 bits) it leaves to
// the PEGTL parser, which then gives the answer or the error message.
#pragma once

#include <optional>
#include <string_view>

#include "ast.hpp"

namespace layoutx::lang {

// The tree of `text` (already through the parser's pre-scan), or nothing.
std::optional<Node> parse_common(std::string_view text);

// The PEGTL parser alone (parser.cpp), for the tests that hold the two equal.
Node parse_with_pegtl(std::string_view text);

}  // namespace layoutx::lang
