// Each function reads one rule of grammar.hpp with PEG's meaning: ordered
// choice, a failed alternative gives back what it read, and where the grammar
// says must<> the whole reading is abandoned (Bail) so that PEGTL reports it.
// The nodes are built as parser.cpp's conversion builds them from the parse
// tree, offsets included.
#include "fast_parse.hpp"
#include "value_types.hpp"

#include <charconv>

namespace layoutx::lang {

namespace {

struct Bail {};

constexpr std::size_t kNone = std::string_view::npos;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_ident_other(char c) { return is_alpha(c) || is_digit(c) || c == '_'; }

class Reader {
 public:
  explicit Reader(std::string_view text) : t_(text) {}

  // grammar := ws must<some_expression> ws must<eof>
  Node whole() {
    ws();
    Node n;
    if (!expression(n)) throw Bail{};
    ws();
    if (pos_ != t_.size()) throw Bail{};
    return n;
  }

 private:
  bool at(char c) const { return pos_ < t_.size() && t_[pos_] == c; }
  bool ident_other_at(std::size_t p) const { return p < t_.size() && is_ident_other(t_[p]); }
  void ws() {
    while (pos_ < t_.size() && is_space(t_[pos_])) ++pos_;
  }

  // '-'? digits starting at p: where it ends, or kNone.
  std::size_t integer_end(std::size_t p) const {
    if (p < t_.size() && t_[p] == '-') ++p;
    const std::size_t first_digit = p;
    while (p < t_.size() && is_digit(t_[p])) ++p;
    return p > first_digit ? p : kNone;
  }

  // "_-12", "-12", "12": as parser.cpp's make_integer, leaving out-of-range values to it.
  Node integer_node(std::size_t begin, std::size_t end) const {
    Node n;
    n.kind = Node::Kind::Integer;
    n.offset = begin;
    std::string_view text = t_.substr(begin, end - begin);
    n.is_static = text.front() == '_';
    if (n.is_static) text.remove_prefix(1);
    const bool negative = text.front() == '-';
    if (negative) text.remove_prefix(1);
    std::uint64_t magnitude = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), magnitude);
    const std::uint64_t limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
    if (ec != std::errc() || ptr != text.data() + text.size() || magnitude > limit) throw Bail{};
    n.value = negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
    return n;
  }

  // expression := postfix (ws compose_op ws must<operand>)*
  bool expression(Node& out) {
    const std::size_t begin = pos_;
    Node first;
    if (!postfix(first)) return false;
    std::vector<Node> parts;
    for (;;) {
      const std::size_t save = pos_;
      ws();
      if (!at('o') || ident_other_at(pos_ + 1)) {
        pos_ = save;
        break;
      }
      ++pos_;
      ws();
      Node next;
      if (!postfix(next)) throw Bail{};
      if (parts.empty()) parts.push_back(std::move(first));
      parts.push_back(std::move(next));
    }
    if (parts.empty()) {
      out = std::move(first);
      return true;
    }
    out = Node{};
    out.kind = Node::Kind::Compose;
    out.offset = begin;
    out.children = std::move(parts);
    return true;
  }

  // postfix := atom (ws arguments)*; each argument list makes an Apply at its '('.
  bool postfix(Node& out) {
    if (!atom(out)) return false;
    for (;;) {
      const std::size_t save = pos_;
      ws();
      if (!at('(')) {
        pos_ = save;
        return true;
      }
      Node apply;
      apply.kind = Node::Kind::Apply;
      apply.children.push_back(std::move(out));
      apply.offset = list(apply.children);
      out = std::move(apply);
    }
  }

  // atom := literal | pointer_flag | name_ref | underscore
  bool atom(Node& out) { return literal(out) || pointer_flag(out) || name_ref(out) || underscore(out); }

  bool at_text(std::string_view s) const { return t_.substr(pos_, s.size()) == s; }

  // The digits of a width at pos_ (must<pointer_bits>), parsed as parser.cpp does.
  std::int64_t pointer_bits() {
    const std::size_t begin = pos_;
    while (pos_ < t_.size() && is_digit(t_[pos_])) ++pos_;
    if (pos_ == begin) throw Bail{};
    return integer_node(begin, pos_).value;
  }

  void expect_text(std::string_view s) {
    if (!at_text(s)) throw Bail{};
    pos_ += s.size();
  }

  // pointer_flag := 'smem_ptr[' must<N> must<'b](unset)'>
  //               | 'smem_sparse<' must<N> must<'>_ptr['> must<N> must<'b](unset)'>
  bool pointer_flag(Node& out) {
    const std::size_t begin = pos_;
    const bool sparse = at_text("smem_sparse<");
    if (!sparse && !at_text("smem_ptr[")) return false;
    out = Node{};
    out.kind = Node::Kind::PointerFlag;
    out.offset = begin;
    pos_ += sparse ? 12 : 9;
    if (sparse) {
      out.template_args.push_back(pointer_bits());
      expect_text(">_ptr[");
    }
    out.value = pointer_bits();
    expect_text("b](unset)");
    return true;
  }

  // literal := head (ws ':' ws must<stride_head>)?
  bool literal(Node& out) {
    const std::size_t begin = pos_;
    Node shape;
    if (!head(shape)) return false;
    const std::size_t save = pos_;
    ws();
    if (!at(':')) {
      pos_ = save;
      out = std::move(shape);
      return true;
    }
    ++pos_;
    ws();
    Node stride;
    if (!head(stride)) throw Bail{};
    out = Node{};
    out.kind = Node::Kind::Layout;
    out.offset = begin;
    out.children.push_back(std::move(shape));
    out.children.push_back(std::move(stride));
    return true;
  }

  // head := tuple | static_integer | integer
  bool head(Node& out) {
    if (at('(')) {
      out = Node{};
      out.kind = Node::Kind::Tuple;
      out.offset = list(out.children);
      return true;
    }
    const std::size_t begin = pos_;
    std::size_t end = at('_') ? integer_end(begin + 1) : kNone;
    if (end == kNone) end = integer_end(begin);
    if (end == kNone) return false;
    out = integer_node(begin, end);
    pos_ = end;
    return true;
  }

  // tuple, arguments := '(' ws element_list must<')'>, at a '('; returns where the '(' is.
  std::size_t list(std::vector<Node>& elements) {
    const std::size_t open = pos_++;
    ws();
    element_list(elements);
    if (!at(')')) throw Bail{};
    ++pos_;
    return open;
  }

  // element_list := (element (',' ws element)*)?  with element := expression ws
  void element_list(std::vector<Node>& elements) {
    Node e;
    if (!expression(e)) return;
    ws();
    elements.push_back(std::move(e));
    for (;;) {
      const std::size_t save = pos_;
      if (!at(',')) return;
      ++pos_;
      ws();
      Node next;
      if (!expression(next)) {
        pos_ = save;
        return;
      }
      ws();
      elements.push_back(std::move(next));
    }
  }

  // name_ref := identifier (ws template_args)? (ws arguments)?
  bool name_ref(Node& out) {
    const std::size_t begin = pos_;
    if (pos_ >= t_.size() || !is_alpha(t_[pos_])) return false;
    std::size_t end = begin + 1;
    while (ident_other_at(end)) ++end;
    // scope_part := '::' alpha ident_other*
    while (end + 2 < t_.size() && t_[end] == ':' && t_[end + 1] == ':' && is_alpha(t_[end + 2])) {
      end += 3;
      while (ident_other_at(end)) ++end;
    }
    out = Node{};
    out.kind = Node::Kind::Name;
    out.offset = begin;
    out.name = std::string(t_.substr(begin, end - begin));
    pos_ = end;
    std::size_t save = pos_;
    ws();
    if (at('<'))
      template_args(out);
    else
      pos_ = save;
    save = pos_;
    ws();
    if (at('(')) {
      out.kind = Node::Kind::Call;
      list(out.children);
    } else {
      pos_ = save;
    }
    return true;
  }

  // template_args := '<' ws must<template_arg> ws (',' ws must<template_arg> ws)* must<'>'>
  void template_args(Node& out) {
    ++pos_;
    ws();
    out.has_template_args = true;
    template_arg(out);
    ws();
    while (at(',')) {
      ++pos_;
      ws();
      template_arg(out);
      ws();
    }
    if (!at('>')) throw Bail{};
    ++pos_;
  }

  // template_arg := '_'? integer | type_name (a name that is no type is PEGTL's to report)
  void template_arg(Node& out) {
    const std::size_t begin = pos_;
    if (pos_ < t_.size() && is_alpha(t_[pos_])) {
      std::size_t end = begin + 1;
      while (ident_other_at(end)) ++end;
      const std::string_view name = t_.substr(begin, end - begin);
      const auto bits = value_type_bits(name);
      if (!bits) throw Bail{};
      pos_ = end;
      out.template_args.push_back(*bits);
      out.template_types.emplace_back(name);
      return;
    }
    const std::size_t end = integer_end(at('_') ? begin + 1 : begin);
    if (end == kNone) throw Bail{};
    pos_ = end;
    out.template_args.push_back(integer_node(begin, end).value);
    out.template_types.emplace_back();
  }

  // underscore := '_' !ident_other
  bool underscore(Node& out) {
    if (!at('_') || ident_other_at(pos_ + 1)) return false;
    out = Node{};
    out.offset = pos_++;
    return true;
  }

  std::string_view t_;
  std::size_t pos_ = 0;
};

}  // namespace

std::optional<Node> parse_common(std::string_view text) {
  try {
    return Reader(text).whole();
  } catch (const Bail&) {
    return std::nullopt;
  }
}

}  // namespace layoutx::lang
