// The MLIR attribute text of a Triton encoding, read into a small tree:
// `#ttg.NAME<{key = value, ...}>` where a value is an integer, true/false, a
// bracketed list of values, or a nested attribute.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace layoutx::triton {

struct Attribute;

struct AttributeValue {
  enum class Kind { Integer, Boolean, List, Nested };
  Kind kind = Kind::Integer;
  std::int64_t integer = 0;
  bool boolean = false;
  std::vector<AttributeValue> list;
  std::vector<Attribute> nested;  // one element when Kind::Nested
  std::size_t at = 0;             // byte offset of the value in the text
};

struct Attribute {
  std::string name;  // after "#ttg."
  std::vector<std::pair<std::string, AttributeValue>> fields;
  std::vector<std::pair<std::string, AttributeValue>> trailing;  // after the braces: `, alignment = 16`
  std::size_t at = 0;
};

// Throws TextError (with the offending byte) on malformed text.
Attribute parse_attribute(std::string_view text);

// The length of the dialect prefix the text starts with: "#ttg.", or
// "#triton_gpu." as Triton's IR spelled it before; 0 for neither.
std::size_t dialect_prefix(std::string_view text);
// The length of an alias definition the text starts with, as a module's IR
// prints its attributes (`#blocked = #ttg.blocked<...>`): up to the attribute; 0 for none.
std::size_t alias_definition(std::string_view text);
// Whether the text starts with a Triton attribute, alone or defined as an alias.
bool starts_attribute(std::string_view text);

}  // namespace layoutx::triton
