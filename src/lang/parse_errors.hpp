// The message for each place where the grammar insists (pegtl::must).
#pragma once

#include "grammar.hpp"

namespace layoutx::lang::grammar {

template <typename Rule>
inline constexpr const char* error_message = nullptr;

template <>
inline constexpr auto error_message<some_expression> =
    "expected an expression (a layout like (4,3):(3,1), an int tuple, a swizzle or a function call)";
template <>
inline constexpr auto error_message<close_paren> = "expected ',' or ')' (unbalanced parentheses?)";
template <>
inline constexpr auto error_message<close_angle> = "expected ',' or '>' to close the template arguments";
template <>
inline constexpr auto error_message<template_arg> = "expected an integer template argument";
template <>
inline constexpr auto error_message<cast_digits> = "expected an integer, as in C<int64_t(4294967296)>";
template <>
inline constexpr auto error_message<stride_head> = "expected a stride (an integer or a tuple) after ':'";
template <>
inline constexpr auto error_message<operand> = "expected an operand after the composition operator 'o'";
template <>
inline constexpr auto error_message<end_of_expression> =
    "unexpected text: expected the composition operator 'o', a call '(...)' or the end of the expression";

template <>
inline constexpr auto error_message<pointer_bits> = "expected a width in bits, as in smem_ptr[16b](unset)";
template <>
inline constexpr auto error_message<flag_tail> = "expected 'b](unset)', as in smem_ptr[16b](unset)";
template <>
inline constexpr auto error_message<sparse_middle> = "expected '>_ptr[', as in smem_sparse<2>_ptr[16b](unset)";

struct errors {
  template <typename Rule>
  static constexpr auto message = error_message<Rule>;
};

}  // namespace layoutx::lang::grammar
