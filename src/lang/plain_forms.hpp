// The forms nearly every expression is made of, read by hand: integers (12,
// -4, _12), tuples, shape:stride layouts, calls f(args), names with integer
// template arguments (Sw<3,4,3>, take<0,2>(L)) and `o` chains. Reading them
// through the grammar costs more than evaluating a small expression. For
// anything else (a type as a template argument, a CuTe type, a scope, a
// scaled basis, an evaluation L(i), `{}`, a bare name, an integer of 19
// digits or more, a syntax error) the reader gives up and the grammar reads
// the whole text, so every tree is the one the grammar builds and every
// message is the grammar's.
#pragma once

#include <optional>
#include <string_view>

#include "ast.hpp"

namespace layoutx::lang {

// The tree of `text` when it is made of the plain forms alone, nested at most
// `max_depth` levels deep; nullopt otherwise. The reader takes no byte the
// parser's pre-scan refuses, so a text it reads needs no pre-scan.
std::optional<Tree> read_plain_forms(std::string_view text, std::size_t max_depth);

}  // namespace layoutx::lang
