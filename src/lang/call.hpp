// A function call being evaluated: its arguments, template arguments and the
// positions to blame when an argument is wrong.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ast.hpp"
#include "layoutx/language.hpp"
#include "layoutx/tensor_partition.hpp"

namespace layoutx::lang {

struct Call {
  const Node& node;
  std::vector<Value> args;
  const LanguageOptions& options;
  // Where the function's warnings go; its notation names values in messages.
  Diagnostics& diag;
  // Set when the function looks at its template arguments; the evaluator
  // refuses template arguments a function never read (coalesce<2>(L)).
  mutable bool template_args_read = false;

  std::string_view name() const { return node.name; }
  // A value in the notation of this evaluation's messages.
  template <class T>
  std::string text(const T& x) const {
    return to_text(x, diag.notation());
  }
  std::size_t arg_offset(std::size_t i) const;
  [[noreturn]] void fail(const std::string& message) const;
  [[noreturn]] void fail_arg(std::size_t i, const std::string& message) const;
  // The engine's error `cause`, blamed on the call or on argument i, of the cause's kind.
  [[noreturn]] void fail(const Error& cause) const;
  [[noreturn]] void fail_arg(std::size_t i, const Error& cause) const;

  void expect_args(std::size_t lo, std::size_t hi) const;
  void expect_template_args(std::size_t lo, std::size_t hi) const;
  // An integer template argument (a type name there is refused).
  std::int64_t targ(std::size_t i) const;
  // A template argument that may be a type: its width in bits (recast_layout<half_t,float>).
  std::int64_t targ_bits(std::size_t i) const {
    template_args_read = true;
    return node.template_args().at(i);
  }
  std::vector<int> targ_indices() const;

  // Argument coercions, failing with the argument's position.
  IntTuple int_tuple(std::size_t i) const;
  Int integer(std::size_t i) const;
  Layout layout(std::size_t i) const;         // a layout, or a shape made compact column-major
  AnyLayout any_layout(std::size_t i) const;  // a layout, a composed layout, or a shape
  Tiler tiler(std::size_t i) const;
};

// The engine's error `cause` located at `offset` of the expression, worded
// `message`: a StaticRequiredSourceError when the cause is a StaticRequiredError
// (or one already located), else a SourceError.
[[noreturn]] void throw_at(const Error& cause, const std::string& message, std::size_t offset);

using Builtin = std::function<Value(const Call&)>;

// A function of the table: its implementation and the property its results have.
struct Function {
  template <class F>
  Function(F f, Property p = Property::None) : impl(std::move(f)), property(p) {}
  Builtin impl;
  Property property;
};

// The function table: name -> function.
const Function* find_builtin(std::string_view name);

}  // namespace layoutx::lang
