// A minimal JSON reader for the test data (JSON Lines golden cases): objects,
// arrays, strings with escapes, integers, null, true and false. No floats:
// the data has none, and a reader that guessed at them could hide a typo.
#pragma once

#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace layoutx::test {

struct Json {
  enum class Kind { Null, Bool, Integer, String, Array, Object };

  Kind kind = Kind::Null;
  bool boolean = false;
  std::int64_t integer = 0;
  std::string string;
  std::vector<Json> array;
  std::vector<std::pair<std::string, Json>> object;

  bool is_null() const { return kind == Kind::Null; }

  // The member named `key`, or a null value when the object has none.
  const Json& operator[](std::string_view key) const {
    static const Json null_value;
    for (const auto& [k, v] : object)
      if (k == key) return v;
    return null_value;
  }
};

class JsonReader {
 public:
  explicit JsonReader(std::string_view text) : text_(text) {}

  Json document() {
    Json v = value();
    skip_space();
    if (pos_ != text_.size()) fail("trailing characters after the value");
    return v;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("JSON: " + what + " at byte " + std::to_string(pos_));
  }

  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  char peek() {
    skip_space();
    if (pos_ == text_.size()) fail("unexpected end of input");
    return text_[pos_];
  }

  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }

  bool take_word(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  Json value() {
    const char c = peek();
    Json v;
    if (c == '{') return object();
    if (c == '[') return array();
    if (c == '"') {
      v.kind = Json::Kind::String;
      v.string = string();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      v.kind = Json::Kind::Integer;
      v.integer = integer();
    } else if (take_word("null")) {
      v.kind = Json::Kind::Null;
    } else if (take_word("true")) {
      v.kind = Json::Kind::Bool;
      v.boolean = true;
    } else if (take_word("false")) {
      v.kind = Json::Kind::Bool;
    } else {
      fail("unexpected character");
    }
    return v;
  }

  Json object() {
    Json v;
    v.kind = Json::Kind::Object;
    expect('{');
    if (peek() == '}') return ++pos_, v;
    for (;;) {
      if (peek() != '"') fail("expected a member name");
      std::string key = string();
      expect(':');
      v.object.emplace_back(std::move(key), value());
      if (peek() == '}') return ++pos_, v;
      expect(',');
    }
  }

  Json array() {
    Json v;
    v.kind = Json::Kind::Array;
    expect('[');
    if (peek() == ']') return ++pos_, v;
    for (;;) {
      v.array.push_back(value());
      if (peek() == ']') return ++pos_, v;
      expect(',');
    }
  }

  std::int64_t integer() {
    const bool negative = text_[pos_] == '-';
    if (negative) ++pos_;
    if (pos_ == text_.size() || text_[pos_] < '0' || text_[pos_] > '9') fail("expected a digit");
    // Accumulate negatively so that INT64_MIN is readable too.
    std::int64_t n = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      const int digit = text_[pos_++] - '0';
      if (n < (INT64_MIN + digit) / 10) fail("integer out of 64-bit range");
      n = n * 10 - digit;
    }
    if (pos_ < text_.size() && (text_[pos_] == '.' || text_[pos_] == 'e' || text_[pos_] == 'E'))
      fail("only integers are supported");
    if (!negative && n == INT64_MIN) fail("integer out of 64-bit range");
    return negative ? n : -n;
  }

  unsigned hex4() {
    if (text_.size() - pos_ < 4) fail("short \\u escape");
    unsigned u = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_++];
      u <<= 4;
      if (h >= '0' && h <= '9')
        u |= unsigned(h - '0');
      else if (h >= 'a' && h <= 'f')
        u |= unsigned(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        u |= unsigned(h - 'A' + 10);
      else
        fail("bad hex digit in \\u escape");
    }
    return u;
  }

  static void append_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }

  unsigned code_point() {
    unsigned cp = hex4();
    // A high surrogate must be followed by its low half: together one code point.
    if (cp >= 0xD800 && cp < 0xDC00) {
      if (!take_word("\\u")) fail("lone high surrogate");
      const unsigned low = hex4();
      if (low < 0xDC00 || low >= 0xE000) fail("bad low surrogate");
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    return cp;
  }

  std::string string() {
    expect('"');
    std::string out;
    for (;;) {
      if (pos_ == text_.size()) fail("unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ == text_.size()) fail("unterminated escape");
      switch (const char e = text_[pos_++]) {
        case '"':
        case '\\':
        case '/': out += e; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': append_utf8(out, code_point()); break;
        default: fail("unknown escape");
      }
    }
  }
};

inline Json parse_json(std::string_view text) { return JsonReader(text).document(); }

// One value per non-blank line; a bad line names the file and line number.
inline std::vector<Json> read_json_lines(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<Json> values;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      values.push_back(parse_json(line));
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(path + ":" + std::to_string(number) + ": " + e.what());
    }
  }
  return values;
}

}  // namespace layoutx::test
