// Calls on values a program evaluated itself: `f<targs>(a, b)`, `x.f(a)` (as
// f(x, a)) and `L(i, j)` go through the expression language's function table
// and evaluation, with its messages placed in the program's text.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "ast.hpp"
#include "layoutx/language.hpp"

namespace layoutx::lang {

// The function `name` of the table (or the extension's) on `args`; `offset`
// and `arg_offsets` place its errors.
Value call_function(std::string_view name, const TemplateArgs* targs, std::vector<Value> args, std::size_t offset,
                    const std::vector<std::size_t>& arg_offsets, const LanguageOptions& options, Diagnostics& diag);

// callee(args): evaluation or slicing of a layout, as L(i, j) and L(_, j) do.
Value apply_value(const Value& callee, const std::vector<Value>& args, std::size_t offset,
                  const std::vector<std::size_t>& arg_offsets, const LanguageOptions& options, Diagnostics& diag);

// Whether the table or the extension has a function of that name.
bool has_function(std::string_view name, const LanguageOptions& options);

}  // namespace layoutx::lang
