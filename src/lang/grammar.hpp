// PEGTL grammar of layoutx expressions.
//
//   expression := atom ('o' atom | '(' args ')')*     read left to right: A o B(i) is (A o B)(i)
//   atom       := literal | pointer_flag | name_ref | '_'
//   pointer_flag := 'smem_ptr[' N 'b](unset)' | 'smem_sparse<' N '>_ptr[' N 'b](unset)'
//   literal    := head (':' head)?                    a shape:stride layout when ':' follows
//   head       := tuple | (_N ('{}')? | N) ('@' M)*   _N{}: a static integer object; v@M...: a scaled basis
//   name_ref   := identifier ('<' targ,... '>')? ('{}' | '(' args ')')?   identifier: GMMA::Layout_K_SW128_Atom too
//   targ       := N | _N | type ('<' targ,... '>')?   type: half_t, float, ..., or a CuTe type
//
// C++ as it is pasted: `cute::` (or `cutlass::`) may prefix a name or a
// static integer, a type followed by {} is its value (Int<4>{}, Shape<_4,_3>{},
// Layout<Shape<_8>,Stride<_1>>{}, LayoutRight{}), and so is a type written
// alone, as nvcc spells types in its messages.
#pragma once

#include <tao/pegtl.hpp>

namespace layoutx::lang::grammar {

namespace pegtl = tao::pegtl;

struct ws : pegtl::star<pegtl::space> {};
struct expression;

struct ident_other : pegtl::identifier_other {};
struct digits : pegtl::plus<pegtl::digit> {};
// The parser builds a leaf where its last part matches: a rule that fails
// after reading some characters then leaves the input where PEG leaves it,
// which is where a syntax error's caret points.
struct integer_digits : digits {};
struct static_digits : digits {};
struct cpp_scope : pegtl::seq<pegtl::sor<TAO_PEGTL_STRING("cute"), TAO_PEGTL_STRING("cutlass")>, pegtl::two<':'>> {};
struct braces : pegtl::seq<pegtl::one<'{'>, ws, pegtl::one<'}'>> {};
struct integer : pegtl::seq<pegtl::opt<pegtl::one<'-'>>, integer_digits> {};
struct static_integer : pegtl::seq<pegtl::opt<cpp_scope>, pegtl::one<'_'>, pegtl::opt<pegtl::one<'-'>>, static_digits,
                                   pegtl::opt<ws, braces>> {};
struct underscore_end : pegtl::not_at<ident_other> {};
struct underscore : pegtl::seq<pegtl::one<'_'>, underscore_end> {};
struct scope_part : pegtl::seq<pegtl::two<':'>, pegtl::alpha, pegtl::star<ident_other>> {};
struct identifier : pegtl::seq<pegtl::opt<cpp_scope>, pegtl::alpha, pegtl::star<ident_other>, pegtl::star<scope_part>> {
};

struct comma : pegtl::one<','> {};
struct close_paren : pegtl::one<')'> {};
struct close_angle : pegtl::one<'>'> {};
struct element : pegtl::seq<expression, ws> {};
struct element_list : pegtl::opt<pegtl::list<element, pegtl::seq<comma, ws>>> {};
struct close_list : pegtl::must<close_paren> {};

// One list rule per meaning of a parenthesised list, so that the parser
// knows what the elements make: a tuple, a call's arguments, an evaluation's.
struct tuple_elements : element_list {};
struct call_elements : element_list {};
struct apply_elements : element_list {};
struct tuple : pegtl::seq<pegtl::one<'('>, ws, tuple_elements, close_list> {};
struct call_arguments : pegtl::seq<pegtl::one<'('>, ws, call_elements, close_list> {};
struct apply_arguments : pegtl::seq<pegtl::one<'('>, ws, apply_elements, close_list> {};

struct template_args;
struct type_name : identifier {};
struct type : pegtl::seq<type_name, pegtl::opt<ws, template_args>> {};
struct template_integer
    : pegtl::seq<pegtl::opt<cpp_scope>, pegtl::opt<pegtl::one<'_'>>, pegtl::opt<pegtl::one<'-'>>, digits> {};
// C<int64_t(4294967296)>: an integer past int's range, as CuTe's C<> is written for it.
struct cast_digits : pegtl::seq<pegtl::opt<pegtl::one<'-'>>, digits> {};
struct cast_integer : pegtl::seq<pegtl::sor<TAO_PEGTL_STRING("int64_t"), TAO_PEGTL_STRING("int")>, ws, pegtl::one<'('>,
                                 ws, pegtl::must<cast_digits>, ws, pegtl::must<close_paren>> {};
struct template_arg : pegtl::sor<cast_integer, template_integer, type> {};
struct template_arg_list
    : pegtl::seq<pegtl::must<template_arg>, ws, pegtl::star<comma, ws, pegtl::must<template_arg>, ws>> {};
// tuple<>: a CuTe type with no arguments (the empty tuple).
struct no_template_args : pegtl::seq<pegtl::one<'<'>, ws, pegtl::one<'>'>> {};
struct template_args
    : pegtl::sor<no_template_args, pegtl::seq<pegtl::one<'<'>, ws, template_arg_list, pegtl::must<close_angle>>> {};

// v@N...: the suffix adds the modes to the integer already built (a rule that
// builds never fails afterwards, so the integer is not read twice).
struct basis_suffix : pegtl::plus<pegtl::one<'@'>, digits> {};
struct number : pegtl::seq<pegtl::sor<static_integer, integer>, pegtl::opt<basis_suffix>> {};
struct head : pegtl::sor<tuple, number> {};
struct stride_head : head {};
struct layout_tail : pegtl::seq<ws, pegtl::one<':'>, ws, pegtl::must<stride_head>> {};
struct literal : pegtl::seq<head, pegtl::opt<layout_tail>> {};

// CuTe's print of the offset of a canonical shared-memory layout atom.
struct pointer_bits : digits {};
struct flag_tail : TAO_PEGTL_STRING("b](unset)") {};
struct sparse_middle : TAO_PEGTL_STRING(">_ptr[") {};
struct smem_ptr_flag : pegtl::seq<TAO_PEGTL_STRING("smem_ptr["), pegtl::must<pointer_bits>, pegtl::must<flag_tail>> {};
struct smem_sparse_flag : pegtl::seq<TAO_PEGTL_STRING("smem_sparse<"), pegtl::must<pointer_bits>,
                                     pegtl::must<sparse_middle>, pegtl::must<pointer_bits>, pegtl::must<flag_tail>> {};
struct pointer_flag : pegtl::sor<smem_ptr_flag, smem_sparse_flag> {};

struct value_braces : braces {};  // Type<...>{}: the type's value-initialized object
struct name_ref
    : pegtl::seq<identifier, pegtl::opt<ws, template_args>, pegtl::opt<ws, pegtl::sor<value_braces, call_arguments>>> {
};
struct atom : pegtl::sor<literal, pointer_flag, name_ref, underscore> {};

struct compose_op : pegtl::seq<pegtl::one<'o'>, pegtl::not_at<ident_other>> {};
struct operand : atom {};
struct expression : pegtl::seq<atom, pegtl::star<pegtl::sor<pegtl::seq<ws, apply_arguments>,
                                                            pegtl::seq<ws, compose_op, ws, pegtl::must<operand>>>>> {};

struct end_of_expression : pegtl::eof {};
struct some_expression : expression {};
struct grammar : pegtl::seq<ws, pegtl::must<some_expression>, ws, pegtl::must<end_of_expression>> {};

}  // namespace layoutx::lang::grammar
