// The value types CuTe takes as template arguments (recast_layout<half_t,float>),
// by their width in bits: CuTe's sizeof_bits (which makes bool 1 bit wide).
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <utility>

namespace layoutx::lang {

inline constexpr std::array<std::pair<std::string_view, int>, 29> kValueTypes{{
    {"bool", 1},         {"half_t", 16},      {"bfloat16_t", 16},  {"tfloat32_t", 32},   {"float", 32},
    {"double", 64},      {"float_e4m3_t", 8}, {"float_e5m2_t", 8}, {"float_ue8m0_t", 8}, {"float_ue4m3_t", 8},
    {"float_e2m3_t", 6}, {"float_e3m2_t", 6}, {"float_e2m1_t", 4}, {"int8_t", 8},        {"uint8_t", 8},
    {"int16_t", 16},     {"uint16_t", 16},    {"int32_t", 32},     {"uint32_t", 32},     {"int64_t", 64},
    {"uint64_t", 64},    {"uint128_t", 128},  {"int4_t", 4},       {"uint4_t", 4},       {"int2_t", 2},
    {"uint2_t", 2},      {"uint1_t", 1},      {"uint6_t", 6},      {"int6_t", 6},
}};

// sizeof_bits of the type called `name`; nullopt for a name that is no type.
inline std::optional<int> value_type_bits(std::string_view name) {
  for (const auto& [type, bits] : kValueTypes)
    if (type == name) return bits;
  return std::nullopt;
}

// sizeof_bits of a C++ built-in arithmetic type as the program spells it
// ("int", "unsigned long long"), on the LP64 host and device CuTe runs on.
inline std::optional<int> builtin_type_bits(std::string_view words) {
  static constexpr std::array<std::pair<std::string_view, int>, 18> kBuiltins{{
      {"char", 8},
      {"signed char", 8},
      {"unsigned char", 8},
      {"short", 16},
      {"unsigned short", 16},
      {"int", 32},
      {"signed", 32},
      {"signed int", 32},
      {"unsigned", 32},
      {"unsigned int", 32},
      {"long", 64},
      {"unsigned long", 64},
      {"long long", 64},
      {"unsigned long long", 64},
      {"long int", 64},
      {"size_t", 64},
      {"float", 32},
      {"double", 64},
  }};
  for (const auto& [type, bits] : kBuiltins)
    if (type == words) return bits;
  return std::nullopt;
}

// The C++ integer types a CuTe type holds its run-time (dynamic) integers in.
inline bool is_run_time_integer(std::string_view name) {
  for (const char* t : {"int", "unsigned", "long", "int32_t", "uint32_t", "int64_t", "uint64_t", "size_t"})
    if (name == t) return true;
  return false;
}

}  // namespace layoutx::lang
