// JSON pieces the renderers and the server share: escaped strings, int tuples as
// nested arrays, and objects and arrays written member by member.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

#include "layoutx/int_tuple.hpp"

namespace layoutx::json {

inline std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      out += fmt::format("\\u{:04x}", u);
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// (1,(0,2)) as [1,[0,2]]; plain numbers, whatever the static marks.
inline std::string tuple(const IntTuple& t) {
  if (t.is_leaf()) return std::to_string(t.value().value);
  std::string out = "[";
  for (int i = 0; i < t.rank(); ++i) {
    if (i) out += ',';
    out += tuple(t[i]);
  }
  return out + "]";
}

inline std::string boolean(bool b) { return b ? "true" : "false"; }

template <class T>
std::string optional(const std::optional<T>& v) {
  if (!v) return "null";
  if constexpr (std::is_same_v<T, bool>)
    return boolean(*v);
  else
    return std::to_string(*v);
}

// {"a": 1, "b": "x"}: members appended with their JSON text.
class Object {
 public:
  Object& raw(std::string_view key, std::string_view json_text) {
    text_ += text_.empty() ? "{" : ", ";
    text_ += quote(key);
    text_ += ": ";
    text_ += json_text;
    return *this;
  }
  Object& str(std::string_view key, std::string_view s) { return raw(key, quote(s)); }
  Object& num(std::string_view key, std::int64_t v) { return raw(key, std::to_string(v)); }
  // Several numeric fields, in order.
  Object& nums(std::initializer_list<std::pair<std::string_view, std::int64_t>> fields) {
    for (const auto& [key, v] : fields) num(key, v);
    return *this;
  }
  std::string done() const { return text_.empty() ? "{}" : text_ + "}"; }

 private:
  std::string text_;
};

// [1, 2]: elements appended with their JSON text.
class Array {
 public:
  Array& raw(std::string_view json_text) {
    text_ += text_.size() > 1 ? "," : "";
    text_ += json_text;
    return *this;
  }
  Array& num(std::int64_t v) { return raw(std::to_string(v)); }
  std::string done() const { return text_ + "]"; }

 private:
  std::string text_ = "[";
};

}  // namespace layoutx::json
