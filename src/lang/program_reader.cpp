// Program text -> ProgramTree: the PEGTL program grammar builds a parse tree
// of the rules that carry meaning (PEGTL drops what a failed alternative
// built), which is then turned into statements and expressions.
#include <fmt/format.h>

#include <charconv>
#include <cstdlib>
#include <tao/pegtl/contrib/parse_tree.hpp>

#include "layoutx/language.hpp"
#include "program_ast.hpp"
#include "program_grammar.hpp"

namespace layoutx::lang {

namespace {

namespace pegtl = tao::pegtl;
namespace pt = tao::pegtl::parse_tree;
namespace g = program_grammar;

template <typename Rule>
inline constexpr const char* program_error = "syntax error";
template <>
inline constexpr auto program_error<g::semicolon> = "expected ';'";
template <>
inline constexpr auto program_error<g::close_paren> = "expected ',' or ')'";
template <>
inline constexpr auto program_error<g::close_brace> = "expected '}'";
template <>
inline constexpr auto program_error<g::close_bracket> = "expected ']'";
template <>
inline constexpr auto program_error<g::string_end> = "unterminated string literal";
template <>
inline constexpr auto program_error<g::char_end> = "unterminated character literal";
template <>
inline constexpr auto program_error<g::block_comment_rest> = "unterminated comment";
template <>
inline constexpr auto program_error<g::program_end> = "expected a statement or a declaration";
template <>
inline constexpr auto program_error<g::statement> = "expected a statement";
template <>
inline constexpr auto program_error<g::expression> = "expected an expression";
template <>
inline constexpr auto program_error<g::assignment> = "expected an expression";
template <>
inline constexpr auto program_error<g::unary> = "expected an operand";
template <>
inline constexpr auto program_error<g::condition> = "expected '(' and a condition";
template <>
inline constexpr auto program_error<g::member_name> = "expected a member name after '.'";
template <>
inline constexpr auto program_error<g::colon> = "expected ':' of the conditional operator";
template <>
inline constexpr auto program_error<g::arguments> = "expected the kernel's arguments '(...)'";
template <>
inline constexpr auto program_error<g::type> = "expected a type";
template <>
inline constexpr auto program_error<g::name> = "expected a name";
template <>
inline constexpr auto program_error<g::alias_name> = "expected a name";
template <>
inline constexpr auto program_error<g::kw_while> = "expected 'while' after the body of 'do'";

struct program_errors {
  template <typename Rule>
  static constexpr const char* message = program_error<Rule>;
  template <typename Rule>
  static constexpr bool raise_on_failure = false;
};

template <typename Rule>
using control = pegtl::must_if<program_errors, pegtl::normal, false>::control<Rule>;

// Words outside the subset are refused where they are read, by name.
template <typename Rule>
struct refusal : pegtl::nothing<Rule> {};
template <>
struct refusal<g::unsupported> {
  template <typename Input>
  static void apply(const Input& in) {
    throw pegtl::parse_error(fmt::format("`{}` is not part of what layoutx runs", in.string_view()), in);
  }
};
template <>
struct refusal<g::lambda_start> {
  template <typename Input>
  static void apply(const Input& in) {
    throw pegtl::parse_error("lambda expressions are not part of what layoutx runs", in);
  }
};

// pt::fold_one without its remove_content: a chain of several operands (`1 + 2`)
// keeps its text and end, which the reader takes from every expression's node
// (remove_content leaves the end null: a text of length -begin).
struct fold_one_keeping_content : pt::apply<fold_one_keeping_content> {
  template <typename Tree, typename... States>
  static void transform(std::unique_ptr<Tree>& n, States&&... /*unused*/) noexcept {
    if (n->children.size() == 1) n = std::move(n->children.front());
  }
};

// The rules the tree keeps: what they read (and their children) makes the program.
template <typename Rule>
using selector = pt::selector<
    Rule,
    pt::store_content::on<
        // expressions
        g::integer_literal, g::float_literal, g::string_literal, g::char_literal, g::bool_literal, g::null_literal,
        g::brace_list, g::decltype_of, g::scope_value, g::sizeof_of, g::name_expression, g::name, g::template_arguments,
        g::template_type, g::template_value, g::member, g::arrow_member, g::member_name, g::subscript, g::arguments,
        g::post_increment, g::post_decrement, g::prefixed, g::prefix_op, g::c_cast, g::cast_type, g::mul_op, g::add_op,
        g::shift_op, g::rel_op, g::eq_op, g::bitand_op, g::xor_op, g::bitor_op, g::and_op, g::or_op, g::assign_op,
        g::builtin_type_word,
        // types
        g::type, g::named_type, g::auto_type, g::pointer_op, g::cv_word, g::identifier_word,
        // declarations
        g::decl_specifier, g::declaration_body, g::declarator, g::declarator_pointer, g::declared_name,
        g::binding_names, g::array_extent, g::equals_init, g::brace_init, g::paren_init,
        // statements
        g::empty_statement, g::block, g::preprocessor, g::if_statement, g::else_part, g::while_statement,
        g::do_statement, g::for_statement, g::for_init, g::for_condition, g::for_step, g::for_classic, g::for_range,
        g::range_declaration, g::break_statement, g::continue_statement, g::return_statement, g::using_namespace,
        g::using_alias, g::using_declaration, g::typedef_statement, g::namespace_alias, g::namespace_block,
        g::alias_name, g::template_header, g::parameter, g::parameter_name, g::function_name, g::function,
        g::function_body, g::launch, g::launch_target, g::launch_config, g::expression_statement, g::program>,
    fold_one_keeping_content::on<g::postfix, g::multiplicative, g::additive, g::shift, g::relational, g::equality,
                                 g::bit_and, g::bit_xor, g::bit_or, g::logical_and, g::logical_or, g::conditional,
                                 g::assignment, g::expression>>;

using Node = pt::node;

class Reader {
 public:
  Reader(std::string_view text, std::size_t max_depth) : text_(text), max_depth_(max_depth) {}

  std::vector<Stmt> program(const Node& root) {
    std::vector<Stmt> out;
    for (const auto& c : root.children) out.push_back(statement(*c));
    return out;
  }

 private:
  std::size_t offset(const Node& n) const { return n.begin().byte; }
  std::size_t end(const Node& n) const { return n.end().byte; }
  [[noreturn]] void fail(const std::string& message, const Node& n) const { throw SourceError(message, offset(n)); }

  struct Depth {
    Depth(const Reader& r, const Node& n) : r_(const_cast<Reader&>(r)) {
      if (++r_.depth_ > r_.max_depth_)
        throw SourceError(
            fmt::format("nesting deeper than {} levels (raise the limit with --max-depth)", r_.max_depth_),
            r.offset(n));
    }
    ~Depth() { --r_.depth_; }
    Reader& r_;
  };

  // ---- expressions ----

  Expr expr(const Node& n) {
    Depth depth(*this, n);
    Expr e;
    e.offset = offset(n);
    e.end = end(n);
    e.text = n.string_view();
    if (n.is_type<g::integer_literal>()) return integer_literal(std::move(e));
    if (n.is_type<g::float_literal>()) {
      e.kind = Expr::Kind::Real;
      std::string digits(e.text);
      while (!digits.empty() && std::string_view("fFlL").find(digits.back()) != std::string_view::npos)
        digits.pop_back();
      e.real = std::strtod(digits.c_str(), nullptr);
      return e;
    }
    if (n.is_type<g::string_literal>()) {
      e.kind = Expr::Kind::String;
      return e;
    }
    if (n.is_type<g::char_literal>()) {
      e.kind = Expr::Kind::Char;
      return e;
    }
    if (n.is_type<g::bool_literal>()) {
      e.kind = Expr::Kind::Bool;
      e.integer = e.text == "true";
      return e;
    }
    if (n.is_type<g::null_literal>()) return e;
    if (n.is_type<g::brace_list>()) {
      e.kind = Expr::Kind::BraceList;
      for (const auto& c : n.children) e.kids.push_back(expr(*c));
      return e;
    }
    if (n.is_type<g::decltype_of>()) {
      e.kind = Expr::Kind::Decltype;
      e.kids.push_back(expr(*n.children.at(0)));
      if (n.children.size() > 1) e.scoped = n.children[1]->string_view().substr(2);
      return e;
    }
    if (n.is_type<g::sizeof_of>()) {
      e.kind = Expr::Kind::Sizeof;
      const Node& arg = *n.children.at(0);
      if (arg.is_type<g::type>())
        e.type = std::make_unique<TypeRef>(type(arg));
      else
        e.kids.push_back(expr(arg));
      return e;
    }
    if (n.is_type<g::name_expression>()) return name_expression(std::move(e), n);
    if (n.is_type<g::postfix>()) return postfix(n);
    if (n.is_type<g::prefixed>()) {
      e.kind = Expr::Kind::Prefix;
      e.text = n.children.at(0)->string_view();
      e.kids.push_back(expr(*n.children.at(1)));
      return e;
    }
    if (n.is_type<g::c_cast>()) {
      e.kind = Expr::Kind::Cast;
      e.type = std::make_unique<TypeRef>(builtin_type(*n.children.at(0)));
      e.kids.push_back(expr(*n.children.at(1)));
      return e;
    }
    if (n.is_type<g::conditional>()) {
      e.kind = Expr::Kind::Conditional;
      for (const auto& c : n.children) e.kids.push_back(expr(*c));
      return e;
    }
    if (n.is_type<g::assignment>()) {
      e.kind = Expr::Kind::Assign;
      e.text = n.children.at(1)->string_view();
      e.kids.push_back(expr(*n.children.at(0)));
      e.kids.push_back(expr(*n.children.at(2)));
      return e;
    }
    if (n.is_type<g::expression>()) {
      e.kind = Expr::Kind::Comma;
      for (const auto& c : n.children) e.kids.push_back(expr(*c));
      return e;
    }
    if (n.is_type<g::multiplicative>() || n.is_type<g::additive>() || n.is_type<g::shift>() ||
        n.is_type<g::relational>() || n.is_type<g::equality>() || n.is_type<g::bit_and>() || n.is_type<g::bit_xor>() ||
        n.is_type<g::bit_or>() || n.is_type<g::logical_and>() || n.is_type<g::logical_or>())
      return chain(n);
    throw InternalError(fmt::format("unexpected {} in an expression", n.type), offset(n));
  }

  Expr integer_literal(Expr e) {
    e.kind = Expr::Kind::Integer;
    std::string_view t = e.text;
    while (!t.empty() && std::string_view("uUlLzZ").find(t.back()) != std::string_view::npos) {
      if (t.back() == 'u' || t.back() == 'U') e.unsigned_literal = true;
      if (t.back() == 'l' || t.back() == 'L' || t.back() == 'z' || t.back() == 'Z') e.long_literal = true;
      t.remove_suffix(1);
    }
    int base = 10;
    if (t.size() > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
      base = 16;
      t.remove_prefix(2);
    } else if (t.size() > 1 && t[0] == '0' && (t[1] == 'b' || t[1] == 'B')) {
      base = 2;
      t.remove_prefix(2);
    } else if (t.size() > 1 && t[0] == '0') {
      base = 8;
      t.remove_prefix(1);
    }
    std::uint64_t v = 0;
    const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v, base);
    if (ec != std::errc() || ptr != t.data() + t.size())
      throw SourceError(fmt::format("integer {} is not a C++ integer literal layoutx reads (64 bits at most)", e.text),
                        e.offset);
    if (v > static_cast<std::uint64_t>(INT64_MAX))
      throw SourceError(fmt::format("integer {} does not fit in a signed 64-bit integer", e.text), e.offset);
    e.integer = static_cast<std::int64_t>(v);
    return e;
  }

  Expr name_expression(Expr e, const Node& n) {
    e.kind = Expr::Kind::Name;
    e.text = n.children.at(0)->string_view();
    for (std::size_t i = 1; i < n.children.size(); ++i) {
      const Node& c = *n.children[i];
      if (c.is_type<g::template_arguments>()) {
        e.has_targs = true;
        e.targs = template_arguments(c);
      } else if (c.is_type<g::scope_value>()) {
        e.scoped = c.string_view().substr(2);
      } else if (c.is_type<g::brace_list>()) {
        e.braced = true;
        for (const auto& k : c.children) e.kids.push_back(expr(*k));
      }
    }
    return e;
  }

  std::vector<TemplateArg> template_arguments(const Node& n) {
    std::vector<TemplateArg> out;
    for (const auto& c : n.children) {
      TemplateArg a;
      if (c->is_type<g::template_type>())
        a.type = std::make_unique<TypeRef>(type(*c->children.at(0)));
      else
        a.value = std::make_unique<Expr>(expr(*c->children.at(0)));
      out.push_back(std::move(a));
    }
    return out;
  }

  Expr postfix(const Node& n) {
    Expr acc = expr(*n.children.at(0));
    for (std::size_t i = 1; i < n.children.size(); ++i) {
      const Node& op = *n.children[i];
      Expr e;
      e.offset = acc.offset;
      e.end = end(op);
      if (op.is_type<g::arguments>()) {
        e.kind = Expr::Kind::Call;
        e.kids.push_back(std::move(acc));
        for (const auto& a : op.children) e.kids.push_back(expr(*a));
      } else if (op.is_type<g::member>() || op.is_type<g::arrow_member>()) {
        e.kind = Expr::Kind::Member;
        e.text = op.children.at(0)->string_view();
        if (op.children.size() > 1) {
          e.has_targs = true;
          e.targs = template_arguments(*op.children[1]);
        }
        e.kids.push_back(std::move(acc));
      } else if (op.is_type<g::subscript>()) {
        e.kind = Expr::Kind::Subscript;
        e.kids.push_back(std::move(acc));
        e.kids.push_back(expr(*op.children.at(0)));
      } else if (op.is_type<g::post_increment>() || op.is_type<g::post_decrement>()) {
        e.kind = op.is_type<g::post_increment>() ? Expr::Kind::PostIncrement : Expr::Kind::PostDecrement;
        e.kids.push_back(std::move(acc));
      } else {
        throw InternalError(fmt::format("unexpected {} after an expression", op.type), offset(op));
      }
      acc = std::move(e);
    }
    return acc;
  }

  // a op b op c, read left to right.
  Expr chain(const Node& n) {
    Expr acc = expr(*n.children.at(0));
    for (std::size_t i = 1; i + 1 < n.children.size(); i += 2) {
      Expr e;
      e.kind = Expr::Kind::Binary;
      e.offset = acc.offset;
      e.text = n.children[i]->string_view();
      e.end = end(*n.children[i + 1]);
      e.kids.push_back(std::move(acc));
      e.kids.push_back(expr(*n.children[i + 1]));
      acc = std::move(e);
    }
    // The operator's own position is where an error in it is shown.
    return acc;
  }

  // ---- types ----

  TypeRef builtin_type(const Node& n) {
    TypeRef t;
    t.offset = offset(n);
    t.text = n.string_view();
    for (const auto& c : n.children) {
      if (c->is_type<g::builtin_type_word>())
        t.builtin += (t.builtin.empty() ? "" : " ") + std::string(c->string_view());
      if (c->is_type<g::named_type>()) named_type(t, *c);
    }
    t.pointer = t.text.find('*') != std::string_view::npos;
    return t;
  }

  TypeRef type(const Node& n) {
    Depth depth(*this, n);
    TypeRef t;
    t.offset = offset(n);
    t.text = n.string_view();
    while (!t.text.empty() && (t.text.back() == ' ' || t.text.back() == '\n' || t.text.back() == '\t'))
      t.text.remove_suffix(1);
    for (const auto& c : n.children) {
      if (c->is_type<g::builtin_type_word>()) {
        t.builtin += (t.builtin.empty() ? "" : " ") + std::string(c->string_view());
      } else if (c->is_type<g::auto_type>()) {
        t.builtin = "auto";
      } else if (c->is_type<g::decltype_of>()) {
        t.decltype_of = std::make_unique<Expr>(expr(*c->children.at(0)));
      } else if (c->is_type<g::named_type>()) {
        named_type(t, *c);
      } else if (c->is_type<g::pointer_op>()) {
        if (c->string_view() == "*") t.pointer = true;
      } else if (c->is_type<g::cv_word>()) {
        if (c->string_view() == "const") t.is_const = true;
      }
    }
    return t;
  }

  void named_type(TypeRef& t, const Node& n) {
    t.name = n.children.at(0)->string_view();
    for (std::size_t i = 1; i < n.children.size(); ++i) {
      const Node& c = *n.children[i];
      if (c.is_type<g::template_arguments>() && !t.has_targs) {
        t.has_targs = true;
        t.targs = template_arguments(c);
      } else {
        // Foo<...>::type and deeper: the whole name is kept as written.
        t.name = std::string_view(t.name.data(), static_cast<std::size_t>(text_.data() + end(c) - t.name.data()));
      }
    }
  }

  // ---- statements ----

  Stmt statement(const Node& n) {
    Depth depth(*this, n);
    Stmt s;
    s.offset = offset(n);
    s.end = end(n);
    s.text = n.string_view();
    if (n.is_type<g::empty_statement>()) return s;
    if (n.is_type<g::block>() || n.is_type<g::function_body>()) {
      s.kind = Stmt::Kind::Block;
      for (const auto& c : n.children) s.body.push_back(statement(*c));
      return s;
    }
    if (n.is_type<g::preprocessor>()) {
      s.kind = Stmt::Kind::Preprocessor;
      return s;
    }
    if (n.is_type<g::declaration_body>()) return declaration(std::move(s), n);
    if (n.is_type<g::expression_statement>()) {
      s.kind = Stmt::Kind::Expression;
      s.expr = expr(*n.children.at(0));
      return s;
    }
    if (n.is_type<g::if_statement>()) {
      s.kind = Stmt::Kind::If;
      s.expr = expr(*n.children.at(0));
      s.body.push_back(statement(*n.children.at(1)));
      if (n.children.size() > 2) s.body.push_back(statement(*n.children[2]->children.at(0)));
      return s;
    }
    if (n.is_type<g::while_statement>()) {
      s.kind = Stmt::Kind::While;
      s.expr = expr(*n.children.at(0));
      s.body.push_back(statement(*n.children.at(1)));
      return s;
    }
    if (n.is_type<g::do_statement>()) {
      s.kind = Stmt::Kind::Do;
      s.body.push_back(statement(*n.children.at(0)));
      s.expr = expr(*n.children.at(1));
      return s;
    }
    if (n.is_type<g::for_statement>()) return for_statement(std::move(s), n);
    if (n.is_type<g::break_statement>()) {
      s.kind = Stmt::Kind::Break;
      return s;
    }
    if (n.is_type<g::continue_statement>()) {
      s.kind = Stmt::Kind::Continue;
      return s;
    }
    if (n.is_type<g::return_statement>()) {
      s.kind = Stmt::Kind::Return;
      if (!n.children.empty()) {
        s.has_expr = true;
        s.expr = expr(*n.children[0]);
      }
      return s;
    }
    if (n.is_type<g::using_namespace>()) {
      s.kind = Stmt::Kind::UsingNamespace;
      s.target = n.children.at(0)->string_view();
      return s;
    }
    if (n.is_type<g::using_alias>() || n.is_type<g::typedef_statement>()) {
      s.kind = Stmt::Kind::UsingAlias;
      const bool is_typedef = n.is_type<g::typedef_statement>();
      const Node& alias = *n.children.at(is_typedef ? 1 : 0);
      s.text = alias.string_view();
      s.type = std::make_unique<TypeRef>(type(*n.children.at(is_typedef ? 0 : 1)));
      return s;
    }
    if (n.is_type<g::using_declaration>()) {
      s.kind = Stmt::Kind::UsingDeclaration;
      s.target = n.children.at(0)->string_view();
      return s;
    }
    if (n.is_type<g::namespace_alias>()) {
      s.kind = Stmt::Kind::NamespaceAlias;
      s.text = n.children.at(0)->string_view();
      s.target = n.children.at(1)->string_view();
      return s;
    }
    if (n.is_type<g::namespace_block>()) {
      s.kind = Stmt::Kind::Namespace;
      for (const auto& c : n.children)
        if (!c->is_type<g::alias_name>()) s.body.push_back(statement(*c));
      return s;
    }
    if (n.is_type<g::function>()) return function(std::move(s), n);
    if (n.is_type<g::launch>()) {
      s.kind = Stmt::Kind::Launch;
      for (const auto& c : n.children) {
        if (c->is_type<g::launch_target>() || c->is_type<g::name>()) {
          if (s.target.empty()) s.target = c->string_view();
        } else if (c->is_type<g::launch_config>()) {
          for (const auto& a : c->children) s.launch.push_back(expr(*a));
        } else if (c->is_type<g::arguments>()) {
          for (const auto& a : c->children) s.args.push_back(expr(*a));
        }
      }
      return s;
    }
    throw InternalError(fmt::format("unexpected {} as a statement", n.type), offset(n));
  }

  Stmt declaration(Stmt s, const Node& n) {
    s.kind = Stmt::Kind::Declaration;
    for (const auto& c : n.children) {
      if (c->is_type<g::decl_specifier>()) {
        const std::string_view w = c->string_view();
        if (w == "constexpr") s.is_constexpr = true;
        if (w == "static") s.is_static = true;
        if (w == "__shared__") s.is_shared = true;
      } else if (c->is_type<g::type>()) {
        s.type = std::make_unique<TypeRef>(type(*c));
      } else if (c->is_type<g::declarator>()) {
        s.declarators.push_back(declarator(*c));
      }
    }
    return s;
  }

  Declarator declarator(const Node& n) {
    Declarator d;
    d.offset = offset(n);
    for (const auto& c : n.children) {
      if (c->is_type<g::declared_name>()) {
        d.name = c->string_view();
      } else if (c->is_type<g::binding_names>()) {
        for (const auto& b : c->children) d.bindings.push_back(b->string_view());
      } else if (c->is_type<g::declarator_pointer>()) {
        d.pointer = true;
      } else if (c->is_type<g::array_extent>()) {
        d.array = true;
      } else if (c->is_type<g::equals_init>()) {
        d.init = Declarator::Init::Equals;
        d.args.push_back(expr(*c->children.at(0)));
      } else if (c->is_type<g::brace_init>()) {
        d.init = Declarator::Init::Braces;
        for (const auto& a : c->children) d.args.push_back(expr(*a));
      } else if (c->is_type<g::paren_init>()) {
        d.init = Declarator::Init::Parens;
        for (const auto& a : c->children) d.args.push_back(expr(*a));
      }
    }
    return d;
  }

  Stmt for_statement(Stmt s, const Node& n) {
    const Node& head = *n.children.at(0);
    if (head.is_type<g::for_range>()) {
      s.kind = Stmt::Kind::RangeFor;
      const Node& decl = *head.children.at(0);
      Declarator d;
      for (const auto& c : decl.children) {
        if (c->is_type<g::type>()) s.type = std::make_unique<TypeRef>(type(*c));
        if (c->is_type<g::declared_name>()) d.name = c->string_view();
        if (c->is_type<g::binding_names>())
          for (const auto& b : c->children) d.bindings.push_back(b->string_view());
      }
      d.offset = offset(decl);
      s.declarators.push_back(std::move(d));
      s.expr = expr(*head.children.at(1));
    } else {
      s.kind = Stmt::Kind::For;
      for (const auto& c : head.children) {
        if (c->is_type<g::for_init>()) {
          s.has_init = true;
          const Node& init = *c->children.at(0);
          Stmt i;
          i.offset = offset(init);
          i.end = end(init);
          if (init.is_type<g::declaration_body>()) {
            i = declaration(std::move(i), init);
          } else {
            i.kind = Stmt::Kind::Expression;
            i.expr = expr(init);
          }
          s.body.push_back(std::move(i));
        } else if (c->is_type<g::for_condition>()) {
          s.has_condition = true;
          s.expr = expr(*c->children.at(0));
        } else if (c->is_type<g::for_step>()) {
          s.has_step = true;
          s.step = expr(*c->children.at(0));
        }
      }
    }
    s.body.push_back(statement(*n.children.at(1)));
    return s;
  }

  Stmt function(Stmt s, const Node& n) {
    s.kind = Stmt::Kind::Function;
    auto f = std::make_shared<UserFunction>();
    f->offset = s.offset;
    for (const auto& c : n.children) {
      if (c->is_type<g::template_header>()) {
        f->is_template = true;
      } else if (c->is_type<g::decl_specifier>()) {
        if (c->string_view() == "__global__") f->kernel = true;
      } else if (c->is_type<g::type>()) {
        f->result = std::make_unique<TypeRef>(type(*c));
      } else if (c->is_type<g::function_name>()) {
        f->name = c->string_view();
      } else if (c->is_type<g::parameter>()) {
        Parameter p;
        for (const auto& part : c->children) {
          if (part->is_type<g::type>()) p.type = std::make_unique<TypeRef>(type(*part));
          if (part->is_type<g::parameter_name>()) p.name = part->string_view();
          if (!part->is_type<g::type>() && !part->is_type<g::parameter_name>() && !part->is_type<g::decl_specifier>() &&
              !part->is_type<g::array_extent>()) {
            p.has_default = true;
            p.default_value = expr(*part);
          }
        }
        // `void` alone is no parameter.
        if (!(p.name.empty() && p.type && p.type->builtin == "void" && !p.type->pointer))
          f->parameters.push_back(std::move(p));
      } else if (c->is_type<g::function_body>()) {
        f->body = statement(*c);
      }
    }
    s.text = f->name;
    s.function = std::move(f);
    return s;
  }

  std::string_view text_;
  std::size_t max_depth_;
  std::size_t depth_ = 0;
};

// Nesting past the limit is refused before parsing: the grammar recurses once per level.
void check_nesting(std::string_view text, std::size_t max_depth) {
  std::size_t depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '(' || c == '{' || c == '[') {
      if (++depth > max_depth)
        throw SourceError(fmt::format("nesting deeper than {} levels (raise the limit with --max-depth)", max_depth),
                          i);
    } else if ((c == ')' || c == '}' || c == ']') && depth > 0) {
      --depth;
    } else if (c == '\0') {
      throw SourceError("unexpected NUL byte in the program", i);
    }
  }
}

}  // namespace

std::unique_ptr<ProgramTree> parse_program_tree(std::string text, std::string name, std::size_t max_depth) {
  auto tree = std::make_unique<ProgramTree>();
  tree->text = std::move(text);
  tree->name = std::move(name);
  const std::string_view t = tree->text;
  check_nesting(t, max_depth);
  g::program_input in(t, tree->name);
  std::unique_ptr<Node> root;
  try {
    root = pt::parse<g::program, selector, refusal, control>(in);
  } catch (const pegtl::parse_error& e) {
    throw SourceError(std::string(e.message()), e.positions().front().byte);
  }
  if (!root || root->children.empty()) throw InternalError("the program grammar built no tree", 0);
  tree->statements = Reader(t, max_depth * 4).program(*root->children.front());
  return tree;
}

}  // namespace layoutx::lang
