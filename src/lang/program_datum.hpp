// What a program's expressions evaluate to: the expression language's values
// (integers, tuples, layouts, the libraries' objects), and what C++ adds
// around them: floating-point numbers, strings, std::cout, dim3, pointers,
// and the types that aliases name.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "layoutx/program.hpp"
#include "layoutx/value.hpp"

namespace layoutx::lang {

struct TypeRef;
struct UserFunction;

// The C type of a run-time integer: what printf and print read, and how
// std::cout writes it.
enum class CType : std::uint8_t { Int, Unsigned, Long, UnsignedLong, Bool, Char };

struct Datum {
  enum class Kind : std::uint8_t {
    Void,
    Value,    // value (an integer: ctype says which C type it is when dynamic)
    Real,     // float or double
    String,   // text
    Stream,   // std::cout
    Endl,     // std::endl
    Dim3,     // dim
    Pointer,  // text: the element type ("float"); integer: the address (0: nullptr)
    Type,     // an alias naming a type: type (or value, when it names decltype(e))
  };

  Kind kind = Kind::Void;
  CType ctype = CType::Int;
  Value value;
  double real = 0;
  std::string text;
  Dim3 dim{1, 1, 1};
  std::int64_t address = 0;
  const TypeRef* type = nullptr;
  bool type_has_value = false;  // an alias of decltype(e): value holds e's value

  static Datum of(Value v) {
    Datum d;
    d.kind = Kind::Value;
    d.value = std::move(v);
    return d;
  }
  static Datum integer(std::int64_t v, CType c = CType::Int) {
    Datum d = of(Value::of(dynamic_int(v)));
    d.ctype = c;
    return d;
  }
  static Datum real_number(double v) {
    Datum d;
    d.kind = Kind::Real;
    d.real = v;
    return d;
  }
  static Datum string(std::string s) {
    Datum d;
    d.kind = Kind::String;
    d.text = std::move(s);
    return d;
  }

  bool is_integer() const {
    return kind == Kind::Value && value.kind == Value::Kind::Integer && !value.integer.is_scaled_basis();
  }
  bool is_static_integer() const { return is_integer() && value.integer.is_static; }
};

}  // namespace layoutx::lang
