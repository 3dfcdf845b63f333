// A recursive descent over the grammar's plain forms (grammar.hpp), building
// the nodes the parser's actions build for them: same kinds, offsets, values.
#include "plain_forms.hpp"

#include <cstdint>

#include "cute_types.hpp"

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

// Each reading function adds the one subtree it read to the tree, or fails:
// then the whole text is the grammar's.
class PlainReader {
 public:
  PlainReader(std::string_view text, std::size_t max_depth) : text_(text), max_depth_(max_depth) {}

  std::optional<Tree> whole() {
    skip_space();
    if (!expression() || at_ != text_.size()) return std::nullopt;
    return tree_.finish();
  }

 private:
  char at(std::size_t i) const { return i < text_.size() ? text_[i] : '\0'; }
  char peek() const { return at(at_); }
  void skip_space() {
    while (at_ < text_.size() && is_space(text_[at_])) ++at_;
  }
  // The grammar's `o` operator: the letter o alone, not the start of a name.
  bool at_compose() const { return peek() == 'o' && !is_identifier_char(at(at_ + 1)); }

  // atom ('o' atom)*, that nothing follows but a list's ',' or ')' or the
  // end: an evaluation L(i) is for the grammar. Reads the spaces after it.
  bool expression() {
    const std::size_t first = tree_.size();
    if (!atom()) return false;
    skip_space();
    if (at_compose()) {
      tree_.open_before(first);
      do {
        ++at_;
        skip_space();
        if (!atom()) return false;
        skip_space();
      } while (at_compose());
      Node& chain = tree_.at(first);
      chain.kind = Node::Kind::Compose;
      chain.offset = tree_.at(first + 1).offset;
      tree_.close(first);
    }
    return at_ == text_.size() || peek() == ',' || peek() == ')';
  }

  bool atom() {
    const char c = peek();
    if (c == '(' || c == '-' || is_digit(c)) return literal();
    if (c == '_') {
      const char next = at(at_ + 1);
      if (next == '-' || is_digit(next)) return literal();
      if (is_identifier_char(next)) return false;
      tree_.at(tree_.open()).offset = at_++;  // an Underscore
      return true;
    }
    if (is_alpha(c)) return name_ref();
    return false;
  }

  // head (':' head)?
  bool literal() {
    const std::size_t first = tree_.size();
    if (!head()) return false;
    const std::size_t after_shape = at_;
    skip_space();
    if (peek() != ':') {
      at_ = after_shape;
      return true;
    }
    ++at_;
    skip_space();
    tree_.open_before(first);
    if (!head()) return false;
    Node& layout = tree_.at(first);
    layout.kind = Node::Kind::Layout;
    layout.offset = tree_.at(first + 1).offset;
    tree_.close(first);
    return true;
  }

  bool head() { return peek() == '(' ? tuple() : integer(); }

  bool tuple() {
    const std::size_t self = tree_.open();
    tree_.at(self).kind = Node::Kind::Tuple;
    tree_.at(self).offset = at_;
    if (!elements()) return false;
    tree_.close(self);
    return true;
  }

  // '(' (expression (',' expression)*)? ')'; nesting past the limit is for
  // the pre-scan to report.
  bool elements() {
    if (++depth_ > max_depth_) return false;
    ++at_;  // '('
    skip_space();
    if (peek() == ')') {
      ++at_;
      --depth_;
      return true;
    }
    for (;;) {
      if (!integer_element() && (!expression() || at_ == text_.size())) return false;
      const char c = text_[at_++];  // ',' or ')', where expression() stopped
      if (c == ')') return --depth_, true;
      skip_space();
    }
  }

  // An integer that its list's ',' or ')' follows at once: the most common
  // element, read without the general path. Reads nothing when the next
  // element is anything else.
  bool integer_element() { return integer(true); }

  // _?-?digits, its node at its first character; with `in_list`, only when
  // a list's ',' or ')' follows at once.
  bool integer(bool in_list = false) {
    std::size_t i = at_;
    const bool is_static = at(i) == '_';
    if (is_static) ++i;
    const auto value = signed_digits(i);
    if (!value || (in_list && at(i) != ',' && at(i) != ')')) return false;
    Node& n = tree_.at(tree_.open());
    n.kind = Node::Kind::Integer;
    n.offset = at_;
    n.is_static = is_static;
    n.value = *value;
    at_ = i;
    return true;
  }

  // -?digits at i, at most 18 of them; i moves past them.
  std::optional<std::int64_t> signed_digits(std::size_t& i) const {
    const bool negative = at(i) == '-';
    if (negative) ++i;
    const std::size_t first = i;
    std::int64_t magnitude = 0;
    // Digits past the limit are only counted: the grammar reads such an integer.
    for (; is_digit(at(i)); ++i)
      if (i - first < kMaxPlainDigits) magnitude = magnitude * 10 + (text_[i] - '0');
    const std::size_t digits = i - first;
    if (digits == 0 || digits > kMaxPlainDigits) return std::nullopt;
    return negative ? -magnitude : magnitude;
  }

  // name<integers>?(args)?, a name alone only with template arguments. A
  // scope (GMMA::...), a type as a template argument, a CuTe type (Int<4>),
  // `smem_sparse<` (a pointer flag's start) and {} are for the grammar.
  bool name_ref() {
    const std::size_t offset = at_;
    while (at_ < text_.size() && is_identifier_char(text_[at_])) ++at_;
    const std::string_view name = text_.substr(offset, at_ - offset);
    if (peek() == ':') return false;
    const std::size_t self = tree_.open();
    Node& n = tree_.at(self);
    n.kind = Node::Kind::Name;
    n.offset = offset;
    n.name = name;
    skip_space();
    if (peek() == '<') {
      if (cute_type(name) != CuteType::None || name == "smem_sparse" || !template_args(self)) return false;
      const std::size_t after_args = at_;
      skip_space();
      if (peek() != '(') {
        at_ = after_args;
        return true;
      }
    }
    if (peek() != '(') return false;
    tree_.at(self).kind = Node::Kind::Call;
    if (!elements()) return false;
    tree_.close(self);
    return true;
  }

  // '<' _?-?digits (',' _?-?digits)* '>', a level of nesting as for the pre-scan.
  bool template_args(std::size_t self) {
    if (++depth_ > max_depth_) return false;
    ++at_;  // '<'
    tree_.at(self).has_template_args = true;
    TemplateArgs& args = tree_.template_args_of(self);
    for (;;) {
      skip_space();
      if (peek() == '_') ++at_;
      const auto value = signed_digits(at_);
      if (!value) return false;
      args.values.push_back(*value);
      args.types.emplace_back();
      skip_space();
      if (at_ == text_.size()) return false;
      const char c = text_[at_++];
      if (c == '>') return --depth_, true;
      if (c != ',') return false;
    }
  }

  std::string_view text_;
  std::size_t at_ = 0;
  std::size_t depth_ = 0;
  std::size_t max_depth_;
  TreeBuilder tree_;
};

}  // namespace

std::optional<Tree> read_plain_forms(std::string_view text, std::size_t max_depth) {
  return PlainReader(text, max_depth).whole();
}

}  // namespace layoutx::lang
