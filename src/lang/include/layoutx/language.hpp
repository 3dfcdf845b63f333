// The expression language: parse and evaluate `((2,3),4):((1,2),6)`,
// `logical_divide((8,8):(8,1), (2,4))`, `Sw<3,4,3> o (8,64):(64,1)`, ...
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "layoutx/value.hpp"

namespace layoutx {

// An error located in the expression text: the CLI prints the expression and a caret.
class SourceError : public Error {
 public:
  SourceError(const std::string& message, std::size_t offset) : Error(message), offset_(offset) {}
  // The error `cause` reported at `offset` as `message`: a run-time fault stays one.
  SourceError(const Error& cause, const std::string& message, std::size_t offset)
      : Error(message), offset_(offset), run_time_(is_run_time(cause)) {}
  std::size_t offset() const { return offset_; }  // byte offset into the expression
  // Whether a compiled program would fail here when it runs (a division by a
  // run-time zero), not refuse to compile.
  bool run_time() const { return run_time_; }

 private:
  static bool is_run_time(const Error& e) {
    if (dynamic_cast<const RunTimeFault*>(&e)) return true;
    const auto* located = dynamic_cast<const SourceError*>(&e);
    return located && located->run_time();
  }

  std::size_t offset_;
  bool run_time_ = false;
};

// A StaticRequiredError located in the expression: the operation there needs
// static integers and was given dynamic ones (--dynamic).
class StaticRequiredSourceError : public SourceError {
 public:
  using SourceError::SourceError;
};

// A fault of layoutx itself met in reading or evaluating the text (a syntax
// tree it does not expect): never the input's fault.
class InternalError : public SourceError {
 public:
  InternalError(const std::string& what, std::size_t offset) : SourceError("internal error: " + what, offset) {}
};

// An error an extension function blames on one of its arguments: the caret
// goes under that argument.
class ArgumentError : public Error {
 public:
  ArgumentError(std::size_t index, const std::string& message) : Error(message), index_(index) {}
  std::size_t index() const { return index_; }

 private:
  std::size_t index_;
};

// A call of an extension function: its arguments and its template arguments
// (a type written there, such as half_t, stands for its width in bits).
struct ExtensionCall {
  std::string_view name;
  const std::vector<Value>& args;
  const std::vector<std::int64_t>& template_args;
  const std::vector<std::string>& template_types;  // per template argument: the type written, "" for an integer
  Diagnostics& diag;
};

// What libraries above the language add to it (the atoms: CuTe's MMA and copy
// atoms by name, make_tiled_mma, partition_A, ...): names the language does
// not know, and functions it looks up after its own table.
struct LanguageExtension {
  // The value `name<template_text>` stands for (template_text is the text
  // between < and >, "" without one); nothing when the name is not the extension's.
  std::function<std::optional<Value>(std::string_view name, std::string_view template_text)> name;
  std::map<std::string, std::function<Value(const ExtensionCall&)>, std::less<>> functions;
  // A program's statement that moves data (copy(...), gemm(...)) given the
  // extension's values: throws Error for a call CuTe does not compile (a TMA
  // load copied through before .with(barrier)). Not set: every call passes.
  std::function<void(std::string_view name, const std::vector<Value>& args)> check_data_movement;
};

struct LanguageOptions {
  bool dynamic = false;             // plain integers are dynamic, _N static (CuTe-exact mode)
  std::size_t max_depth = 64;       // nesting of parentheses and calls
  std::size_t max_length = 100000;  // bytes in one expression
  // Names the user bound (--define M=1000, the explorer's `let`): a name
  // evaluates to its value, and `L(i)` of a bound layout evaluates it.
  std::map<std::string, Value, std::less<>> names;
  // Names and functions from the libraries above the language (none when null).
  const LanguageExtension* extension = nullptr;
  // make_tensor of a global-memory pointer makes the identity tensor of its
  // shape instead, bounded by that shape (Iterator::bound): a run in which
  // every copy of a global tensor shows the coordinates it touches (the
  // report's bounds check).
  bool global_as_coordinates = false;
};

// Whether `name` can be bound: an identifier that is no function, atom tag or
// keyword of the language (`o`, `_`, Sw, Swizzle, LayoutLeft, ...).
bool bindable_name(std::string_view name);

// Parse and evaluate one expression. Throws SourceError for syntax and
// evaluation errors (with the offending position); warnings go to `diag`
// (under its `strict`, the first one is the error).
Value evaluate_expression(std::string_view text, const LanguageOptions& options, Diagnostics& diag);

// The defining property of an operation, as the function table records it:
// what `layoutx check` verifies of its result at every point.
enum class Property {
  None,
  Composition,     // R(i) == A(B(i))
  Complement,      // R ordered, disjoint from A
  RightInverse,    // A(R(i)) == i
  LeftInverse,     // R(A(i)) == i
  Divide,          // R(i) == A(D(i)), D the divide of A's identity
  LogicalProduct,  // by a layout, or by a tile mode by mode
  Product,         // by a layout only (zipped, tiled, flat)
  BlockProduct,    // by any tile taken as a layout (blocked, raked)
  SameFunction,    // R(i) == A(i) (coalesce, flatten)
};

// The outermost operation of an expression: a call `name<...>(a, b)`, or the
// last composition of an `a o b o c` chain, with the operand values it was
// given during the evaluation.
struct OuterCall {
  Property property = Property::None;
  std::string name;
  std::vector<Value> operands;
  // The same operation (template arguments included) on other operands.
  std::function<Value(std::vector<Value>, Diagnostics&)> again;
};

struct Evaluation {
  Value value;
  std::optional<OuterCall> outer;  // none for literals, L(i), and calls of no known property
};

// evaluate_expression, keeping the outermost operation's operands.
Evaluation evaluate_with_operands(std::string_view text, const LanguageOptions& options, Diagnostics& diag);

// Every function name the language knows (for help text, completions and "did you mean").
const std::vector<std::string>& function_names();
// The same with the extension's functions, sorted.
std::vector<std::string> function_names(const LanguageExtension* extension);

}  // namespace layoutx
