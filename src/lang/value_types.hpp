// The value types CuTe takes as template arguments (recast_layout<half_t,float>),
// by their width in bits: CuTe's sizeof_bits (which makes bool 1 bit wide).
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <utility>

namespace layoutx::lang {

inline constexpr std::array<std::pair<std::string_view, int>, 29> kValueTypes{{
    {"bool", 1},          {"half_t", 16},        {"bfloat16_t", 16},    {"tfloat32_t", 32},   {"float", 32},
    {"double", 64},       {"float_e4m3_t", 8},   {"float_e5m2_t", 8},   {"float_ue8m0_t", 8}, {"float_ue4m3_t", 8},
    {"float_e2m3_t", 6},  {"float_e3m2_t", 6},   {"float_e2m1_t", 4},   {"int8_t", 8},        {"uint8_t", 8},
    {"int16_t", 16},      {"uint16_t", 16},      {"int32_t", 32},       {"uint32_t", 32},     {"int64_t", 64},
    {"uint64_t", 64},     {"uint128_t", 128},    {"int4_t", 4},         {"uint4_t", 4},       {"int2_t", 2},
    {"uint2_t", 2},       {"uint1_t", 1},        {"uint6_t", 6},        {"int6_t", 6},
}};

// sizeof_bits of the type called `name`; nullopt for a name that is no type.
inline std::optional<int> value_type_bits(std::string_view name) {
  for (const auto& [type, bits] : kValueTypes)
    if (type == name) return bits;
  return std::nullopt;
}

// The C++ integer types a CuTe type holds its run-time (dynamic) integers in.
inline bool is_run_time_integer(std::string_view name) {
  for (const char* t : {"int", "unsigned", "long", "int32_t", "uint32_t", "int64_t", "uint64_t", "size_t"})
    if (name == t) return true;
  return false;
}

}  // namespace layoutx::lang
