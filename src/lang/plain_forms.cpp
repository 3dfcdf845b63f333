// A recursive descent over the grammar's plain forms (grammar.hpp), building
// the nodes the parser's actions build for them: same kinds, offsets, values.
#include "plain_forms.hpp"

#include <cstdint>

namespace layoutx::lang {

namespace {

// PEGTL's space class without \v and \f, which the pre-scan refuses; PEGTL's
// alpha and identifier_other classes.
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_identifier_char(char c) { return is_alpha(c) || is_digit(c) || c == '_'; }

// 18 decimal digits always fit in 64 bits; longer integers go to the grammar,
// which reports the ones that do not fit.
constexpr std::size_t kMaxPlainDigits = 18;

class PlainReader {
 public:
  PlainReader(std::string_view text, std::size_t max_depth) : text_(text), max_depth_(max_depth) {}

  std::optional<Node> whole() {
    Node n;
    skip_space();
    if (!expression(n) || at_ != text_.size()) return std::nullopt;
    return n;
  }

 private:
  char peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }
  void skip_space() {
    while (at_ < text_.size() && is_space(text_[at_])) ++at_;
  }

  // An atom that nothing follows but a list's ',' or ')' or the end: an
  // evaluation L(i) or an `o` chain is for the grammar. Reads the spaces after it.
  bool expression(Node& n) {
    if (!atom(n)) return false;
    skip_space();
    const char c = peek();
    return c == ',' || c == ')' || c == '\0';
  }

  bool atom(Node& n) {
    const char c = peek();
    if (c == '(' || c == '-' || is_digit(c)) return literal(n);
    if (c == '_') {
      const char next = at_ + 1 < text_.size() ? text_[at_ + 1] : '\0';
      if (next == '-' || is_digit(next)) return literal(n);
      if (is_identifier_char(next)) return false;
      n.kind = Node::Kind::Underscore;
      n.offset = at_++;
      return true;
    }
    if (is_alpha(c)) return call(n);
    return false;
  }

  // head (':' head)?
  bool literal(Node& n) {
    if (!head(n)) return false;
    const std::size_t after_shape = at_;
    skip_space();
    if (peek() != ':') {
      at_ = after_shape;
      return true;
    }
    ++at_;
    skip_space();
    Node layout;
    layout.kind = Node::Kind::Layout;
    layout.offset = n.offset;
    layout.children.reserve(2);
    layout.children.push_back(std::move(n));
    if (!head(layout.children.emplace_back())) return false;
    n = std::move(layout);
    return true;
  }

  bool head(Node& n) { return peek() == '(' ? tuple(n) : integer(n); }

  bool tuple(Node& n) {
    n.kind = Node::Kind::Tuple;
    n.offset = at_;
    return elements(n);
  }

  // '(' (expression (',' expression)*)? ')', the expressions becoming n's
  // children; nesting past the limit is for the pre-scan to report.
  bool elements(Node& n) {
    if (++depth_ > max_depth_) return false;
    ++at_;  // '('
    skip_space();
    if (peek() == ')') {
      ++at_;
      --depth_;
      return true;
    }
    n.children.reserve(4);
    for (;;) {
      if (!expression(n.children.emplace_back())) return false;
      if (at_ == text_.size()) return false;  // expression() stopped at ',' or ')' or the end
      if (text_[at_++] == ')') return --depth_, true;
      skip_space();
    }
  }

  // _?-?digits, its node at its first character.
  bool integer(Node& n) {
    n.kind = Node::Kind::Integer;
    n.offset = at_;
    n.is_static = peek() == '_';
    if (n.is_static) ++at_;
    const bool negative = peek() == '-';
    if (negative) ++at_;
    const std::size_t first = at_;
    std::int64_t magnitude = 0;
    // Digits past the limit are only counted: the grammar reads such an integer.
    for (; at_ < text_.size() && is_digit(text_[at_]); ++at_)
      if (at_ - first < kMaxPlainDigits) magnitude = magnitude * 10 + (text_[at_] - '0');
    const std::size_t digits = at_ - first;
    if (digits == 0 || digits > kMaxPlainDigits) return false;
    n.value = negative ? -magnitude : magnitude;
    return true;
  }

  // name(args); a scope (GMMA::...), template arguments, {} and a bare name are for the grammar.
  bool call(Node& n) {
    n.offset = at_;
    while (at_ < text_.size() && is_identifier_char(text_[at_])) ++at_;
    n.name.assign(text_.substr(n.offset, at_ - n.offset));
    if (peek() == ':') return false;
    skip_space();
    if (peek() != '(') return false;
    n.kind = Node::Kind::Call;
    return elements(n);
  }

  std::string_view text_;
  std::size_t at_ = 0;
  std::size_t depth_ = 0;
  std::size_t max_depth_;
};

}  // namespace

std::optional<Node> read_plain_forms(std::string_view text, std::size_t max_depth) {
  return PlainReader(text, max_depth).whole();
}

}  // namespace layoutx::lang
