// Text -> syntax tree: a byte pre-scan (characters, nesting depth), the PEGTL
// parse tree, then a conversion to Node.
#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <tao/pegtl/contrib/parse_tree.hpp>

#include "ast.hpp"
#include "fast_parse.hpp"
#include "grammar.hpp"
#include "layoutx/language.hpp"
#include "parse_errors.hpp"
#include "value_types.hpp"

namespace layoutx::lang {

namespace {

namespace pegtl = tao::pegtl;
namespace g = grammar;
using pegtl::parse_tree::node;

template <typename Rule>
using selector = pegtl::parse_tree::selector<
    Rule,
    pegtl::parse_tree::store_content::on<g::integer, g::static_integer, g::identifier, g::template_arg, g::underscore,
                                         g::tuple, g::arguments, g::template_args, g::layout_tail, g::name_ref,
                                         g::pointer_flag, g::pointer_bits>,
    pegtl::parse_tree::fold_one::on<g::literal, g::postfix, g::operand, g::expression, g::some_expression>>;

// Reject what no rule can use before parsing, with a precise position:
// control characters, bytes outside ASCII, and nesting past the limit (the
// parser recurses once per level).
void prescan(std::string_view text, std::size_t max_depth) {
  std::size_t depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80)
      throw SourceError(fmt::format("unexpected byte 0x{:02x}: expressions are plain ASCII", c), i);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
      throw SourceError(fmt::format("unexpected control character 0x{:02x}", c), i);
    if (c == 0x7f) throw SourceError("unexpected control character 0x7f", i);
    if (c == '(' || c == '<') {
      if (++depth > max_depth)
        throw SourceError(fmt::format("nesting deeper than {} levels (raise the limit with --max-depth)", max_depth), i);
    } else if ((c == ')' || c == '>') && depth > 0) {
      --depth;
    }
  }
}

std::int64_t parse_int64(std::string_view digits, bool negative, std::size_t offset) {
  std::uint64_t magnitude = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude);
  const std::uint64_t limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
  if (ec != std::errc() || ptr != digits.data() + digits.size() || magnitude > limit)
    throw SourceError(
        fmt::format("integer {}{} does not fit in a signed 64-bit integer", negative ? "-" : "", excerpt(digits)), offset);
  return negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
}

// "_-12", "-12", "12" -> value, staticness
// The width of a type named as a template argument; unknown names are refused where they stand.
std::int64_t type_bits(const node& n) {
  if (const auto bits = value_type_bits(n.string_view())) return *bits;
  std::string known;
  for (const auto& [type, bits] : kValueTypes) known += (known.empty() ? "" : ", ") + std::string(type);
  throw SourceError(fmt::format("expected an integer template argument or a type ({}), not '{}'", known,
                                n.string_view()), n.begin().byte);
}

Node make_integer(std::string_view text, std::size_t offset) {
  Node n;
  n.kind = Node::Kind::Integer;
  n.offset = offset;
  n.is_static = !text.empty() && text[0] == '_';
  if (n.is_static) text.remove_prefix(1);
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  n.value = parse_int64(text, negative, offset);
  return n;
}

std::size_t offset_of(const node& n) {
  if (n.has_content()) return n.begin().byte;
  return n.children.empty() ? 0 : offset_of(*n.children.front());
}

Node convert(const node& n);

std::vector<Node> convert_children(const node& n) {
  std::vector<Node> out;
  for (const auto& c : n.children) out.push_back(convert(*c));
  return out;
}

Node convert(const node& n) {
  Node out;
  out.offset = offset_of(n);
  if (n.is_type<g::integer>() || n.is_type<g::static_integer>()) return make_integer(n.string_view(), out.offset);
  if (n.is_type<g::underscore>()) {
    out.kind = Node::Kind::Underscore;
    return out;
  }
  if (n.is_type<g::pointer_flag>()) {  // children: [sparsity,] bits
    out.kind = Node::Kind::PointerFlag;
    out.value = parse_int64(n.children.back()->string_view(), false, n.children.back()->begin().byte);
    if (n.children.size() == 2)
      out.template_args.push_back(parse_int64(n.children.front()->string_view(), false, n.children.front()->begin().byte));
    return out;
  }
  if (n.is_type<g::tuple>()) {
    out.kind = Node::Kind::Tuple;
    out.children = convert_children(n);
    return out;
  }
  if (n.is_type<g::literal>()) {  // head + layout_tail
    out.kind = Node::Kind::Layout;
    out.children.push_back(convert(*n.children[0]));
    out.children.push_back(convert(*n.children[1]->children.front()));
    return out;
  }
  if (n.is_type<g::name_ref>()) {
    out.name = n.children.front()->string();
    out.kind = Node::Kind::Name;
    for (std::size_t i = 1; i < n.children.size(); ++i) {
      const node& part = *n.children[i];
      if (part.is_type<g::template_args>()) {
        out.has_template_args = true;
        for (const auto& a : part.children) {
          const bool is_type = std::isalpha(static_cast<unsigned char>(a->string_view().front()));
          out.template_args.push_back(is_type ? type_bits(*a) : make_integer(a->string_view(), a->begin().byte).value);
          out.template_types.push_back(is_type ? a->string() : "");
        }
      } else {  // arguments
        out.kind = Node::Kind::Call;
        out.children = convert_children(part);
      }
    }
    return out;
  }
  if (n.is_type<g::postfix>() || n.is_type<g::operand>()) {  // atom + one or more argument lists
    Node callee = convert(*n.children.front());
    for (std::size_t i = 1; i < n.children.size(); ++i) {
      Node apply;
      apply.kind = Node::Kind::Apply;
      apply.offset = n.children[i]->begin().byte;
      apply.children.push_back(std::move(callee));
      for (auto& a : convert_children(*n.children[i])) apply.children.push_back(std::move(a));
      callee = std::move(apply);
    }
    return callee;
  }
  if (n.is_type<g::expression>() || n.is_type<g::some_expression>()) {
    out.kind = Node::Kind::Compose;
    out.children = convert_children(n);
    return out;
  }
  if (n.children.size() == 1) return convert(*n.children.front());
  throw SourceError("internal error: unexpected syntax node " + std::string(n.type), out.offset);
}

}  // namespace

Node parse(std::string_view text, std::size_t max_depth) {
  prescan(text, max_depth);
  if (auto tree = parse_common(text)) return std::move(*tree);  // fast_parse.hpp: the same tree, quicker
  return parse_with_pegtl(text);
}

Node parse_with_pegtl(std::string_view text) {
  pegtl::memory_input in(text.data(), text.size(), "expression");
  try {
    auto root = pegtl::parse_tree::parse<g::grammar, selector, pegtl::nothing, g::control>(in);
    if (!root || root->children.empty()) throw SourceError("expected an expression", 0);
    return convert(*root->children.front());
  } catch (const pegtl::parse_error& e) {
    const auto& pos = e.positions().front();
    throw SourceError(std::string(e.message()), pos.byte);
  }
}

}  // namespace layoutx::lang
