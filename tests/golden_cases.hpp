// The golden cases (tests/data/golden/cases.jsonl, CuTe's own answers) as
// test-friendly records, loaded once per test run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json_lines.hpp"

namespace layoutx::test {

struct GoldenCase {
  std::string id;
  std::string source;
  std::string expr;
  std::string kind;
  bool error = false;
  std::optional<std::string> print;         // CuTe's print, with static marks
  std::optional<std::string> print_layout;  // CuTe's print_layout, with static marks
  std::optional<std::vector<std::int64_t>> offsets;
  std::optional<std::string> shape, stride;
  std::optional<std::int64_t> size, cosize, rank, depth;
};

// CuTe's text as layoutx prints it by default: every static mark (a `_`
// before a digit or a minus sign) removed; names such as smem_ptr keep theirs.
inline std::string unmark(std::string text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool mark =
        text[i] == '_' && i + 1 < text.size() && (text[i + 1] == '-' || (text[i + 1] >= '0' && text[i + 1] <= '9'));
    if (!mark) out += text[i];
  }
  return out;
}

// A print with each register array's address (on the stack, unknowable) written
// ADDR, as the stored answers have it: ptr[16b](0x7ffd...) -> ptr[16b](ADDR).
// A plain scan: std::regex cost compile time and, under the sanitizers at -O1,
// a false -Wmaybe-uninitialized inside libstdc++'s <regex>.
inline std::string masked_addresses(const std::string& s) {
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  auto is_hex = [&](char c) { return is_digit(c) || (c >= 'a' && c <= 'f'); };
  std::string out;
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t at = s.find("ptr[", i);
    if (at == std::string::npos) break;
    std::size_t j = at + 4, digits = j;
    while (j < s.size() && is_digit(s[j])) ++j;
    const bool word_start = at == 0 || !((s[at - 1] >= 'a' && s[at - 1] <= 'z') || s[at - 1] == '_');
    const bool bits = j > digits && s.compare(j, 5, "b](0x") == 0;
    std::size_t k = j + 5, hex = k;
    while (bits && k < s.size() && is_hex(s[k])) ++k;
    if (!word_start || !bits || k == hex || k >= s.size() || s[k] != ')') {
      out.append(s, i, at + 4 - i);
      i = at + 4;
      continue;
    }
    out.append(s, i, j + 3 - i);  // up to and including "b]("
    out += "ADDR)";
    i = k + 1;
  }
  out.append(s, i, std::string::npos);
  return out;
}

namespace detail {

inline std::optional<std::string> text_field(const Json& j) {
  if (j.is_null()) return std::nullopt;
  if (j.kind != Json::Kind::String) throw std::runtime_error("golden case: expected a string field");
  return j.string;
}

inline std::optional<std::int64_t> int_field(const Json& j) {
  if (j.is_null()) return std::nullopt;
  if (j.kind != Json::Kind::Integer) throw std::runtime_error("golden case: expected an integer field");
  return j.integer;
}

inline GoldenCase to_case(const Json& j) {
  GoldenCase c;
  c.id = text_field(j["id"]).value_or("");
  c.source = text_field(j["source"]).value_or("");
  c.expr = text_field(j["expr"]).value_or("");
  c.kind = text_field(j["kind"]).value_or("");
  c.error = j["error"].kind == Json::Kind::Bool && j["error"].boolean;
  c.print = text_field(j["print"]);
  c.print_layout = text_field(j["print_layout"]);
  if (!j["offsets"].is_null()) {
    c.offsets.emplace();
    for (const Json& o : j["offsets"].array) c.offsets->push_back(o.integer);
  }
  c.shape = text_field(j["shape"]);
  c.stride = text_field(j["stride"]);
  c.size = int_field(j["size"]);
  c.cosize = int_field(j["cosize"]);
  c.rank = int_field(j["rank"]);
  c.depth = int_field(j["depth"]);
  return c;
}

}  // namespace detail

inline std::vector<GoldenCase> load_golden_cases(const std::string& file) {
  std::vector<GoldenCase> cases;
  for (const Json& j : read_json_lines(std::string(LAYOUTX_TEST_DATA) + "/golden/" + file))
    cases.push_back(detail::to_case(j));
  return cases;
}

// cases.jsonl, read on first use and shared by every test file.
inline const std::vector<GoldenCase>& golden_cases() {
  static const std::vector<GoldenCase> cases = load_golden_cases("cases.jsonl");
  return cases;
}

}  // namespace layoutx::test
