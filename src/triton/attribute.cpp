#include "attribute.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>

#include "layoutx/triton_encoding.hpp"

namespace layoutx::triton {

namespace {

// Nesting deeper than this is no layout Triton prints (dot_op of slice of ...).
constexpr int kMaxDepth = 16;

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  Attribute document() {
    skip_space();
    pos_ += alias_definition(text_.substr(pos_));
    Attribute a = attribute(0);
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the attribute");
    return a;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;

  [[noreturn]] void fail(const std::string& what) const { throw TextError(what, pos_); }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool accept(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  void expect(char c) {
    if (!accept(c)) fail(fmt::format("expected '{}'", c));
  }

  std::string identifier() {
    skip_space();
    const std::size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    if (start == pos_) fail("expected a name");
    return std::string(text_.substr(start, pos_ - start));
  }

  Attribute attribute(int depth) {
    if (depth > kMaxDepth) fail("attributes nested too deeply");
    skip_space();
    Attribute a;
    a.at = pos_;
    const std::size_t dialect = dialect_prefix(text_.substr(pos_));
    if (dialect == 0) {
      if (pos_ < text_.size() && text_[pos_] == '#')
        fail("an attribute alias cannot be resolved here: write the attribute itself (#ttg.NAME<{...}>)");
      fail("expected a Triton attribute '#ttg.NAME<{...}>'");
    }
    pos_ += dialect;
    a.name = identifier();
    expect('<');
    expect('{');
    if (!accept('}')) {
      do a.fields.push_back(field(depth));
      while (accept(','));
      expect('}');
    }
    while (accept(',')) a.trailing.push_back(field(depth));
    expect('>');
    return a;
  }

  std::pair<std::string, AttributeValue> field(int depth) {
    std::string key = identifier();
    expect('=');
    return {std::move(key), value(depth)};
  }

  AttributeValue value(int depth) {
    if (depth > kMaxDepth) fail("values nested too deeply");
    skip_space();
    AttributeValue v;
    v.at = pos_;
    if (pos_ >= text_.size()) fail("expected a value");
    const char c = text_[pos_];
    if (c == '[') {
      ++pos_;
      v.kind = AttributeValue::Kind::List;
      if (!accept(']')) {
        do v.list.push_back(value(depth + 1));
        while (accept(','));
        expect(']');
      }
      return v;
    }
    if (c == '#') {
      v.kind = AttributeValue::Kind::Nested;
      v.nested.push_back(attribute(depth + 1));
      return v;
    }
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      v.kind = AttributeValue::Kind::Integer;
      const auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), v.integer);
      if (ec != std::errc()) fail("integer out of range");
      pos_ = static_cast<std::size_t>(end - text_.data());
      return v;
    }
    const std::string word = identifier();
    if (word == "true" || word == "false") {
      v.kind = AttributeValue::Kind::Boolean;
      v.boolean = word == "true";
      return v;
    }
    pos_ = v.at;
    fail(fmt::format("expected an integer, true, false, a list or an attribute, got '{}'", word));
  }
};

}  // namespace

std::size_t dialect_prefix(std::string_view text) {
  for (const std::string_view dialect : {std::string_view("#ttg."), std::string_view("#triton_gpu.")})
    if (text.substr(0, dialect.size()) == dialect) return dialect.size();
  return 0;
}

std::size_t alias_definition(std::string_view text) {
  if (text.empty() || text[0] != '#' || dialect_prefix(text) != 0) return 0;
  std::size_t p = 1;
  while (p < text.size() && (std::isalnum(static_cast<unsigned char>(text[p])) || text[p] == '_' || text[p] == '.'))
    ++p;
  if (p == 1) return 0;
  while (p < text.size() && (text[p] == ' ' || text[p] == '\t')) ++p;
  if (p == text.size() || text[p] != '=') return 0;
  ++p;
  while (p < text.size() && (text[p] == ' ' || text[p] == '\t')) ++p;
  return dialect_prefix(text.substr(p)) != 0 ? p : 0;
}

bool starts_attribute(std::string_view text) { return dialect_prefix(text) != 0 || alias_definition(text) != 0; }

Attribute parse_attribute(std::string_view text) { return Reader(text).document(); }

}  // namespace layoutx::triton
