// PEGTL grammar of the CuTe C++ programs `layoutx run` reads: a strict
// subset of C++ (statements, declarations, functions and kernels, C
// expressions) whose names, template arguments and integers are read by the
// expression grammar's rules (grammar.hpp), so that a CuTe name or type is
// spelled the same way in both.
//
//   program    := (statement)* eof
//   statement  := ';' | block | '#' line | if | for | while | do | break | continue | return
//               | using | namespace | template? function | kernel launch | declaration | expression ';'
//   expression := C++'s precedence levels, assignment down to postfix (calls, x.f(...), x[i], x.y, ++, --)
//   primary    := literal | string | char | '(' expression ')' | '{' list '}' | decltype(...) | sizeof(...)
//               | name ('<' template arguments '>')? ('{' list '}')?
//
// A name takes template arguments only where a '(' or '{' follows them (the
// only places a template-id stands in an expression): `i < n` is a comparison.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <tao/pegtl.hpp>

#include "grammar.hpp"

namespace layoutx::lang::program_grammar {

namespace pegtl = tao::pegtl;
using pegtl::at;
using pegtl::eof;
using pegtl::eolf;
using pegtl::list;
using pegtl::must;
using pegtl::not_at;
using pegtl::one;
using pegtl::opt;
using pegtl::plus;
using pegtl::seq;
using pegtl::sor;
using pegtl::star;
using pegtl::until;

// Space, comments and line continuations.
struct line_comment : seq<pegtl::two<'/'>, until<eolf>> {};
struct block_comment_end : TAO_PEGTL_STRING("*/") {};
struct block_comment_rest : until<block_comment_end> {};
struct block_comment : seq<TAO_PEGTL_STRING("/*"), must<block_comment_rest>> {};
struct separator : sor<pegtl::space, line_comment, block_comment, seq<one<'\\'>, pegtl::eol>> {};
struct _ : star<separator> {};

template <typename Key>
struct keyword : seq<Key, not_at<pegtl::identifier_other>> {};
#define LAYOUTX_KEYWORD(name, text) \
  struct name : keyword<TAO_PEGTL_STRING(text)> {}
LAYOUTX_KEYWORD(kw_if, "if");
LAYOUTX_KEYWORD(kw_else, "else");
LAYOUTX_KEYWORD(kw_for, "for");
LAYOUTX_KEYWORD(kw_while, "while");
LAYOUTX_KEYWORD(kw_do, "do");
LAYOUTX_KEYWORD(kw_break, "break");
LAYOUTX_KEYWORD(kw_continue, "continue");
LAYOUTX_KEYWORD(kw_return, "return");
LAYOUTX_KEYWORD(kw_using, "using");
LAYOUTX_KEYWORD(kw_namespace, "namespace");
LAYOUTX_KEYWORD(kw_template, "template");
LAYOUTX_KEYWORD(kw_typename, "typename");
LAYOUTX_KEYWORD(kw_class, "class");
LAYOUTX_KEYWORD(kw_decltype, "decltype");
LAYOUTX_KEYWORD(kw_sizeof, "sizeof");
LAYOUTX_KEYWORD(kw_typedef, "typedef");
#undef LAYOUTX_KEYWORD

// Words of C++ outside the subset: named as such wherever they stand.
struct unsupported_word
    : keyword<
          sor<TAO_PEGTL_STRING("new"), TAO_PEGTL_STRING("delete"), TAO_PEGTL_STRING("goto"), TAO_PEGTL_STRING("switch"),
              TAO_PEGTL_STRING("case"), TAO_PEGTL_STRING("try"), TAO_PEGTL_STRING("catch"), TAO_PEGTL_STRING("throw"),
              TAO_PEGTL_STRING("operator"), TAO_PEGTL_STRING("this"), TAO_PEGTL_STRING("struct"),
              TAO_PEGTL_STRING("class"), TAO_PEGTL_STRING("union"), TAO_PEGTL_STRING("enum"), TAO_PEGTL_STRING("asm"),
              TAO_PEGTL_STRING("co_await"), TAO_PEGTL_STRING("co_return"), TAO_PEGTL_STRING("co_yield"),
              TAO_PEGTL_STRING("typeid"), TAO_PEGTL_STRING("friend"), TAO_PEGTL_STRING("virtual"),
              TAO_PEGTL_STRING("concept"), TAO_PEGTL_STRING("requires")>> {};
struct unsupported : unsupported_word {};
struct lambda_start : seq<one<'['>, star<pegtl::not_one<']'>>, one<']'>, _, one<'(', '{'>> {};

struct reserved : keyword<sor<TAO_PEGTL_STRING("if"), TAO_PEGTL_STRING("else"), TAO_PEGTL_STRING("for"),
                              TAO_PEGTL_STRING("while"), TAO_PEGTL_STRING("do"), TAO_PEGTL_STRING("break"),
                              TAO_PEGTL_STRING("continue"), TAO_PEGTL_STRING("return"), TAO_PEGTL_STRING("using"),
                              TAO_PEGTL_STRING("namespace"), TAO_PEGTL_STRING("template"), TAO_PEGTL_STRING("typename"),
                              TAO_PEGTL_STRING("decltype"), TAO_PEGTL_STRING("sizeof"), TAO_PEGTL_STRING("typedef"),
                              TAO_PEGTL_STRING("const"), TAO_PEGTL_STRING("constexpr"), TAO_PEGTL_STRING("static"),
                              TAO_PEGTL_STRING("true"), TAO_PEGTL_STRING("false"), TAO_PEGTL_STRING("nullptr")>> {};

// A name as C++ writes it: `x`, `cute::print`, `std::cout`, `GMMA::Layout_K_SW128_Atom`, `::printf`.
struct identifier_word : seq<not_at<reserved>, not_at<unsupported_word>, pegtl::identifier> {};
struct name : seq<opt<pegtl::two<':'>>, identifier_word, star<pegtl::two<':'>, identifier_word>> {};

struct expression;
struct assignment;
struct type;

// Template arguments: types, or constant expressions of the additive level
// (no unparenthesised '>' or '>>' inside, as C++ requires).
struct additive;
struct template_type : seq<type, _, at<one<',', '>'>>> {};
struct template_value : seq<additive> {};
struct template_argument : sor<template_type, template_value> {};
struct template_arguments : seq<one<'<'>, _, opt<list<template_argument, seq<_, one<','>, _>>>, _, one<'>'>> {};

// A tentative read of a rule that an alternative may read again at the same place.
// PEG backtracking reads an unclosed `<` as template arguments to the end, then
// again as a comparison, and each nested `<` doubles that: 2^n. A failure depends
// only on where the rule starts, so the input (program_input below) remembers it
// and a second attempt fails at once. A success is read again (the tree keeps what
// it read), so `f<g<1>()+1>()` (a type first, then a value) or `decltype(x)+1` in
// sizeof(...) still doubles per level: past max_tentative_reads at one place the
// program is refused rather than read for minutes.
inline constexpr unsigned max_tentative_reads = 256;

template <typename Rule>
struct tentative {
  using rule_t = tentative;
  using subs_t = pegtl::type_list<Rule>;

  template <pegtl::apply_mode A, pegtl::rewind_mode M, template <typename...> class Action,
            template <typename...> class Control, typename ParseInput, typename... States>
  [[nodiscard]] static bool match(ParseInput& in, States&&... st) {
    const std::size_t at = in.byte();
    if (in.failed_at(at)) return false;
    if (in.count_read_at(at) > max_tentative_reads)
      throw pegtl::parse_error(
          "nested template arguments or decltype(...) read too many ways here: name a part with `using`", in);
    if (Control<Rule>::template match<A, M, Action, Control>(in, st...)) return true;
    in.remember_failure_at(at);
    return false;
  }
};

// Literals.
struct hex_digits : plus<pegtl::xdigit> {};
struct integer_suffix : star<one<'u', 'U', 'l', 'L', 'z', 'Z'>> {};
struct integer_literal : seq<sor<seq<one<'0'>, one<'x', 'X'>, hex_digits>,
                                 seq<one<'0'>, one<'b', 'B'>, plus<one<'0', '1'>>>, plus<pegtl::digit>>,
                             integer_suffix, not_at<pegtl::identifier_other>> {};
struct exponent : seq<one<'e', 'E'>, opt<one<'+', '-'>>, plus<pegtl::digit>> {};
struct float_literal : seq<sor<seq<plus<pegtl::digit>, one<'.'>, star<pegtl::digit>, opt<exponent>>,
                               seq<one<'.'>, plus<pegtl::digit>, opt<exponent>>, seq<plus<pegtl::digit>, exponent>>,
                           opt<one<'f', 'F', 'l', 'L'>>> {};
struct escape : seq<one<'\\'>, pegtl::any> {};
struct string_end : one<'"'> {};
struct string_piece : seq<one<'"'>, star<sor<escape, pegtl::not_one<'"', '\\', '\n'>>>, must<string_end>> {};
struct string_literal : list<string_piece, _> {};
struct char_end : one<'\''> {};
struct char_literal : seq<one<'\''>, sor<escape, pegtl::not_one<'\'', '\\', '\n'>>, must<char_end>> {};
struct bool_literal : keyword<sor<TAO_PEGTL_STRING("true"), TAO_PEGTL_STRING("false")>> {};
struct null_literal : keyword<TAO_PEGTL_STRING("nullptr")> {};

// Primary expressions.
struct close_paren : one<')'> {};
struct close_brace : one<'}'> {};
struct close_bracket : one<']'> {};
struct arguments : seq<one<'('>, _, opt<list<assignment, seq<_, one<','>, _>>>, _, must<close_paren>> {};
struct brace_list
    : seq<one<'{'>, _, opt<list<assignment, seq<_, one<','>, _>>, _, opt<one<','>>>, _, must<close_brace>> {};
struct parenthesised : seq<one<'('>, _, expression, _, must<close_paren>> {};
// T::value of a type trait, decltype(x)::value, Int<4>::value.
struct scope_value : seq<pegtl::two<':'>, identifier_word> {};
struct decltype_of : seq<kw_decltype, _, must<one<'('>>, _, must<expression>, _, must<close_paren>, opt<scope_value>> {
};
struct sizeof_of
    : seq<kw_sizeof, _, must<one<'('>>, _, must<sor<seq<type, _, at<one<')'>>>, expression>>, _, must<close_paren>> {};
// A variable template (sizeof_bits_v<T>, cosize_v<L>) ends where an expression ends.
struct name_template
    : seq<tentative<template_arguments>, at<_, sor<one<'(', '{', ')', ',', ';', ']'>, pegtl::two<':'>>>> {};
struct name_expression : seq<name, opt<_, name_template>, opt<scope_value>, opt<_, brace_list>> {};
struct primary
    : sor<float_literal, integer_literal, string_literal, char_literal, bool_literal, null_literal, parenthesised,
          brace_list, tentative<decltype_of>, sizeof_of, unsupported, lambda_start, name_expression> {};

// Postfix: calls, method calls, members, subscripts, ++ and --.
struct member_name : identifier_word {};
struct member : seq<one<'.'>, not_at<one<'.'>>, _, must<member_name>, opt<_, name_template>> {};
struct arrow_member : seq<TAO_PEGTL_STRING("->"), _, must<member_name>, opt<_, name_template>> {};
struct subscript : seq<one<'['>, _, must<expression>, _, must<close_bracket>> {};
struct post_increment : TAO_PEGTL_STRING("++") {};
struct post_decrement : TAO_PEGTL_STRING("--") {};
struct postfix_op : sor<arguments, member, arrow_member, subscript, post_increment, post_decrement> {};
struct postfix : seq<primary, star<_, postfix_op>> {};

// Unary: prefix operators and C casts to built-in types.
struct builtin_type_word
    : keyword<sor<TAO_PEGTL_STRING("unsigned"), TAO_PEGTL_STRING("signed"), TAO_PEGTL_STRING("long"),
                  TAO_PEGTL_STRING("short"), TAO_PEGTL_STRING("int"), TAO_PEGTL_STRING("char"),
                  TAO_PEGTL_STRING("bool"), TAO_PEGTL_STRING("float"), TAO_PEGTL_STRING("double"),
                  TAO_PEGTL_STRING("void"), TAO_PEGTL_STRING("size_t"), TAO_PEGTL_STRING("int64_t"),
                  TAO_PEGTL_STRING("int32_t"), TAO_PEGTL_STRING("uint32_t"), TAO_PEGTL_STRING("uint64_t")>> {};
struct unary;
struct prefix_op : sor<TAO_PEGTL_STRING("++"), TAO_PEGTL_STRING("--"), seq<one<'&'>, not_at<one<'&'>>>,
                       seq<one<'-'>, not_at<one<'>'>>>, one<'+', '!', '~', '*'>> {};
struct prefixed : seq<prefix_op, _, must<unary>> {};
struct named_type;
// (int)x, (float*)p, (half_t*)nullptr: a named type is a cast only as a pointer ((x)*y multiplies).
struct cast_type : sor<seq<plus<builtin_type_word, _>, star<one<'*'>, _>>, seq<named_type, _, plus<one<'*'>, _>>> {};
struct c_cast : seq<one<'('>, _, cast_type, one<')'>, _, unary> {};
struct unary : sor<prefixed, c_cast, postfix> {};

// Binary levels, each a chain read left to right.
template <typename Operand, typename Op>
struct chain : seq<Operand, star<_, Op, _, must<Operand>>> {};
struct mul_op : seq<one<'*', '/', '%'>, not_at<one<'='>>> {};
struct add_op : sor<seq<one<'+'>, not_at<one<'+', '='>>>, seq<one<'-'>, not_at<one<'-', '=', '>'>>>> {};
struct shift_op
    : sor<seq<TAO_PEGTL_STRING("<<"), not_at<one<'=', '<'>>>, seq<TAO_PEGTL_STRING(">>"), not_at<one<'=', '>'>>>> {};
struct rel_op : sor<TAO_PEGTL_STRING("<="), TAO_PEGTL_STRING(">="), seq<one<'<'>, not_at<one<'<', '='>>>,
                    seq<one<'>'>, not_at<one<'>', '='>>>> {};
struct eq_op : sor<TAO_PEGTL_STRING("=="), TAO_PEGTL_STRING("!=")> {};
struct bitand_op : seq<one<'&'>, not_at<one<'&', '='>>> {};
struct xor_op : seq<one<'^'>, not_at<one<'='>>> {};
struct bitor_op : seq<one<'|'>, not_at<one<'|', '='>>> {};
struct and_op : TAO_PEGTL_STRING("&&") {};
struct or_op : TAO_PEGTL_STRING("||") {};
struct multiplicative : chain<unary, mul_op> {};
struct additive : chain<multiplicative, add_op> {};
// Shifts and comparisons may be a launch's '>>>' or a template's '>', so their operands are not forced.
template <typename Operand, typename Op>
struct soft_chain : seq<Operand, star<_, Op, _, Operand>> {};
struct shift : soft_chain<additive, shift_op> {};
struct relational : soft_chain<shift, rel_op> {};
struct equality : chain<relational, eq_op> {};
struct bit_and : chain<equality, bitand_op> {};
struct bit_xor : chain<bit_and, xor_op> {};
struct bit_or : chain<bit_xor, bitor_op> {};
struct logical_and : chain<bit_or, and_op> {};
struct logical_or : chain<logical_and, or_op> {};
struct colon : seq<one<':'>, not_at<one<':'>>> {};
struct conditional : seq<logical_or, opt<_, one<'?'>, _, must<assignment>, _, must<colon>, _, must<assignment>>> {};
struct assign_op : sor<TAO_PEGTL_STRING("<<="), TAO_PEGTL_STRING(">>="), TAO_PEGTL_STRING("+="), TAO_PEGTL_STRING("-="),
                       TAO_PEGTL_STRING("*="), TAO_PEGTL_STRING("/="), TAO_PEGTL_STRING("%="), TAO_PEGTL_STRING("&="),
                       TAO_PEGTL_STRING("|="), TAO_PEGTL_STRING("^="), seq<one<'='>, not_at<one<'='>>>> {};
struct assignment : seq<conditional, opt<_, assign_op, _, must<assignment>>> {};
// A comma expression (for-steps: ++i, ++j).
struct expression : list<assignment, seq<_, one<','>, _>> {};

// Types, as declarations, aliases, casts and template arguments write them.
struct cv_word : keyword<sor<TAO_PEGTL_STRING("const"), TAO_PEGTL_STRING("volatile")>> {};
struct named_type : seq<name, opt<_, tentative<template_arguments>>,
                        star<pegtl::two<':'>, identifier_word, opt<_, tentative<template_arguments>>>> {};
struct auto_type : keyword<TAO_PEGTL_STRING("auto")> {};
struct pointer_op : sor<TAO_PEGTL_STRING("&&"), one<'*', '&'>> {};
struct type_core : sor<plus<builtin_type_word, _>, seq<auto_type, _>, seq<tentative<decltype_of>, _>,
                       seq<opt<kw_typename, _>, named_type, _>> {};
struct type : seq<star<cv_word, _>, type_core, star<sor<cv_word, pointer_op>, _>> {};

// Declarations.
struct decl_specifier
    : keyword<
          sor<TAO_PEGTL_STRING("constexpr"), TAO_PEGTL_STRING("static"), TAO_PEGTL_STRING("inline"),
              TAO_PEGTL_STRING("extern"), TAO_PEGTL_STRING("register"), TAO_PEGTL_STRING("__shared__"),
              TAO_PEGTL_STRING("__device__"), TAO_PEGTL_STRING("__constant__"), TAO_PEGTL_STRING("__host__"),
              TAO_PEGTL_STRING("__global__"), TAO_PEGTL_STRING("__forceinline__"), TAO_PEGTL_STRING("CUTE_HOST_DEVICE"),
              TAO_PEGTL_STRING("CUTE_DEVICE"), TAO_PEGTL_STRING("CUTE_HOST"), TAO_PEGTL_STRING("alignas"),
              TAO_PEGTL_STRING("__launch_bounds__"), TAO_PEGTL_STRING("CUTE_GRID_CONSTANT")>> {};
// A specifier's arguments (__launch_bounds__(...), alignas(16)) are read past, parentheses balanced.
struct specifier_arguments : seq<one<'('>, star<sor<specifier_arguments, pegtl::not_one<'(', ')'>>>, one<')'>> {};
struct specifiers : star<decl_specifier, _, opt<specifier_arguments, _>> {};
struct declared_name : identifier_word {};
struct binding_names : seq<one<'['>, _, list<declared_name, seq<_, one<','>, _>>, _, one<']'>> {};
struct array_extent : seq<one<'['>, _, opt<expression>, _, must<close_bracket>> {};
struct equals_init : seq<one<'='>, not_at<one<'='>>, _, must<assignment>> {};
struct paren_init : arguments {};
struct brace_init : brace_list {};
// `*B` in `float *A, *B;`: each later declarator says for itself that it is a pointer.
struct declarator_pointer : one<'*'> {};
struct declarator : seq<sor<binding_names, seq<star<declarator_pointer, _>, declared_name, star<_, array_extent>>>,
                        opt<_, sor<equals_init, brace_init, paren_init>>> {};
struct declaration_body : seq<specifiers, type, list<declarator, seq<_, one<','>, _>>> {};
struct semicolon : one<';'> {};
struct declaration : seq<declaration_body, _, must<semicolon>> {};

struct statement;
struct statements;
struct block : seq<one<'{'>, _, statements, _, must<close_brace>> {};

struct preprocessor : seq<one<'#'>, until<eolf>> {};
struct empty_statement : semicolon {};
struct condition : seq<one<'('>, _, must<expression>, _, must<close_paren>> {};
struct else_part : seq<kw_else, _, must<statement>> {};
struct if_statement
    : seq<kw_if, _, opt<TAO_PEGTL_STRING("constexpr"), _>, must<condition>, _, must<statement>, opt<_, else_part>> {};
struct while_statement : seq<kw_while, _, must<condition>, _, must<statement>> {};
struct do_statement : seq<kw_do, _, must<statement>, _, must<kw_while>, _, must<condition>, _, must<semicolon>> {};
struct for_init : sor<declaration_body, expression> {};
struct for_condition : expression {};
struct for_step : expression {};
struct for_classic : seq<opt<for_init>, _, semicolon, _, opt<for_condition>, _, must<semicolon>, _, opt<for_step>> {};
struct range_declaration : seq<specifiers, type, sor<binding_names, declared_name>> {};
struct for_range : seq<range_declaration, _, colon, _, must<expression>> {};
struct for_statement
    : seq<kw_for, _, must<one<'('>>, _, sor<for_range, for_classic>, _, must<close_paren>, _, must<statement>> {};
struct break_statement : seq<kw_break, _, must<semicolon>> {};
struct continue_statement : seq<kw_continue, _, must<semicolon>> {};
struct return_statement : seq<kw_return, _, opt<expression>, _, must<semicolon>> {};

// using namespace cute;  using T = ...;  using cute::Int;  namespace ct = cute;  namespace x { ... }
struct alias_name : identifier_word {};
struct using_namespace : seq<kw_namespace, _, must<name>> {};
struct using_alias : seq<alias_name, _, one<'='>, _, must<type>> {};
struct using_declaration : seq<opt<kw_typename, _>, name> {};
struct using_statement : seq<kw_using, _, sor<using_namespace, using_alias, using_declaration>, _, must<semicolon>> {};
struct typedef_statement : seq<kw_typedef, _, must<type>, _, must<alias_name>, _, must<semicolon>> {};
struct namespace_alias : seq<alias_name, _, one<'='>, _, must<name>, _, must<semicolon>> {};
struct namespace_block : seq<opt<alias_name, _>, one<'{'>, _, statements, _, must<close_brace>> {};
struct namespace_statement : seq<kw_namespace, _, must<sor<namespace_alias, namespace_block>>> {};

// Functions (templates read as untyped functions) and kernels.
struct template_parameter_text
    : sor<seq<one<'<'>, star<sor<template_parameter_text, pegtl::not_one<'<', '>'>>>, one<'>'>>> {};
struct template_header : seq<kw_template, _, template_parameter_text> {};
struct parameter_name : identifier_word {};
struct parameter : seq<specifiers, type, opt<parameter_name, _, star<array_extent, _>>, opt<one<'='>, _, assignment>> {
};
struct parameters : seq<one<'('>, _, opt<list<parameter, seq<_, one<','>, _>>>, _, one<')'>> {};
struct function_name : name {};
struct function_tail
    : star<sor<cv_word, keyword<TAO_PEGTL_STRING("noexcept")>, keyword<TAO_PEGTL_STRING("override")>>, _> {};
struct function_body : block {};
struct function : seq<opt<template_header, _>, specifiers, type, _, specifiers, function_name, _, parameters, _,
                      function_tail, function_body> {};

struct launch_config
    : seq<TAO_PEGTL_STRING("<<<"), _, list<assignment, seq<_, one<','>, _>>, _, TAO_PEGTL_STRING(">>>")> {};
struct launch_target : name {};
struct launch : seq<launch_target, _, opt<tentative<template_arguments>, _>, launch_config, _, must<arguments>, _,
                    must<semicolon>> {};

// Macros CuTe code puts before a loop.
struct loop_macro : keyword<sor<TAO_PEGTL_STRING("CUTE_UNROLL"), TAO_PEGTL_STRING("CUTE_NO_UNROLL")>> {};
struct macro_statement : seq<loop_macro, _, must<statement>> {};

struct expression_statement : seq<expression, _, must<semicolon>> {};
struct statement : sor<empty_statement, block, preprocessor, if_statement, for_statement, while_statement, do_statement,
                       break_statement, continue_statement, return_statement, using_statement, typedef_statement,
                       namespace_statement, macro_statement, function, launch, declaration, expression_statement> {};
struct statements : star<statement, _> {};

struct program_end : eof {};
struct program : seq<_, statements, _, must<program_end>> {};

// The program's text as the grammar reads it, with what the tentative reads
// (tentative above) met at each position: a failure, and how many attempts.
class program_input : public pegtl::memory_input<pegtl::tracking_mode::eager> {
 public:
  program_input(std::string_view text, const std::string& source)
      : memory_input(text.data(), text.size(), source), failed_(text.size() + 1), reads_(text.size() + 1) {}

  [[nodiscard]] bool failed_at(std::size_t byte) const { return failed_[byte]; }
  void remember_failure_at(std::size_t byte) { failed_[byte] = true; }
  // Stops counting past the limit, so the count cannot wrap.
  unsigned count_read_at(std::size_t byte) {
    if (reads_[byte] <= max_tentative_reads) ++reads_[byte];
    return reads_[byte];
  }

 private:
  std::vector<bool> failed_;
  std::vector<std::uint16_t> reads_;
};

}  // namespace layoutx::lang::program_grammar
