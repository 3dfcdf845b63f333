// The outermost call or `o` chain of an expression and where its operands lie
// in the text, found from the syntax tree without evaluating anything.
#include "ast.hpp"
#include "layoutx/language.hpp"

namespace layoutx {

namespace {

using lang::Node;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// L(i) nodes sit at their argument list; the text starts at the callee.
std::size_t begin_of(const Node& n) {
  if (n.kind == Node::Kind::Apply && !n.children.empty()) return begin_of(n.children.front());
  return n.offset;
}

std::size_t trim_back(std::string_view text, std::size_t end) {
  while (end > 0 && is_space(text[end - 1])) --end;
  return end;
}

// The operand before a separator (',' or 'o') that precedes position `next`.
std::size_t end_before(std::string_view text, std::size_t next) {
  std::size_t end = trim_back(text, next);
  if (end > 0) --end;  // the separator
  return trim_back(text, end);
}

std::vector<Outline::Span> spans(std::string_view text, const std::vector<Node>& parts, std::size_t last_end) {
  std::vector<Outline::Span> out;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const std::size_t end = k + 1 < parts.size() ? end_before(text, begin_of(parts[k + 1])) : last_end;
    out.push_back(Outline::Span{begin_of(parts[k]), end});
  }
  return out;
}

}  // namespace

Outline outline_expression(std::string_view text, const LanguageOptions& options) {
  Node root = lang::parse(text, options.max_depth);
  while (root.kind == Node::Kind::Compose && root.children.size() == 1) root = Node(root.children.front());
  const std::size_t end = trim_back(text, text.size());
  Outline o;
  if (root.kind == Node::Kind::Call) {
    o.kind = Outline::Kind::Call;
    o.name = root.name;
    // The last argument ends before the call's closing parenthesis.
    o.operands = spans(text, root.children, trim_back(text, end > 0 ? end - 1 : 0));
  } else if (root.kind == Node::Kind::Compose && root.children.size() > 1) {
    o.kind = Outline::Kind::Chain;
    o.operands = spans(text, root.children, end);
  }
  return o;
}

}  // namespace layoutx
