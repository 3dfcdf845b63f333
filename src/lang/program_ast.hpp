// The syntax tree of a CuTe C++ program (program_grammar.hpp): statements,
// declarations, functions, and the C expressions in them. Names and
// literals are parts of the program's text, which the Program keeps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace layoutx::lang {

struct Expr;
struct TypeRef;

// A template argument: a type (`half_t`, `Shape<_4,_8>`, `N` when N names a
// constant: the interpreter decides) or a constant expression (`kStages - 2`).
struct TemplateArg {
  std::unique_ptr<TypeRef> type;  // set for a type
  std::unique_ptr<Expr> value;    // set for an expression
};

// A type as written: `int`, `unsigned long long`, `auto`, `Shape<_4, Int<N>>`,
// `TA const*`, `decltype(expr)`.
struct TypeRef {
  std::size_t offset = 0;
  std::string_view text;  // the whole type as written
  std::string_view name;  // the named type (`cute::Shape`), "" for built-in words and auto
  std::string builtin;    // the built-in words, space separated ("unsigned int"), "auto", or ""
  bool has_targs = false;
  std::vector<TemplateArg> targs;
  std::unique_ptr<Expr> decltype_of;  // decltype(expr)
  bool pointer = false;               // a '*' follows
  bool is_const = false;
};

struct Expr {
  enum class Kind : std::uint8_t {
    Integer,    // 12, 0x1f, 3u, 5LL: integer (unsigned_literal, long_literal)
    Real,       // 1.0, 2.5f
    String,     // "..." (adjacent pieces joined): text holds the source with quotes
    Char,       // 'x'
    Bool,       // true / false: integer
    Null,       // nullptr
    Name,       // x, cute::print, std::cout; a template-id when has_targs; `T{...}` when braced
    BraceList,  // {a, b, c}
    Decltype,   // decltype(e): kids[0]
    Sizeof,     // sizeof(type) (type) or sizeof(e) (kids[0])
    Call,       // kids[0](kids[1..])
    Member,     // kids[0].text (a method when followed by a call); has_targs: .f<...>
    Subscript,  // kids[0][kids[1]]
    PostIncrement,
    PostDecrement,
    Prefix,       // text: ++ -- & - + ! ~ *
    Cast,         // (int)e: type
    Binary,       // kids[0] text kids[1]
    Conditional,  // kids[0] ? kids[1] : kids[2]
    Assign,       // kids[0] text kids[1] (text "=" "+=" ...)
    Comma,        // kids in order
  };

  Kind kind = Kind::Null;
  std::size_t offset = 0;  // byte offset of the first character
  std::size_t end = 0;     // one past the last character
  std::string_view text;
  std::string_view scoped;  // T::value: "value"
  std::int64_t integer = 0;
  double real = 0;
  bool unsigned_literal = false, long_literal = false;
  bool braced = false;  // Name followed by {...}: kids are the braced elements
  bool has_targs = false;
  std::vector<TemplateArg> targs;
  std::unique_ptr<TypeRef> type;  // Cast, Sizeof of a type
  std::vector<Expr> kids;
};

struct Stmt;

// One declarator: `x = e`, `x{e}`, `x(e, f)`, `[a, b] = e`, `s[128]`.
struct Declarator {
  std::size_t offset = 0;
  std::string_view name;  // "" for a structured binding
  std::vector<std::string_view> bindings;
  enum class Init : std::uint8_t { None, Equals, Braces, Parens } init = Init::None;
  std::vector<Expr> args;  // the initializer(s)
  bool array = false;
  bool pointer = false;  // `*x`: a pointer whatever the declaration's type
};

struct UserFunction;

struct Stmt {
  enum class Kind : std::uint8_t {
    Empty,
    Block,         // body
    Preprocessor,  // text
    Declaration,   // specifiers, type, declarators
    Expression,    // expr
    If,            // expr, body[0], body[1] (else, when there)
    For,           // init (body[0] when has_init), expr (condition when has_condition), step, body.back()
    RangeFor,      // type, declarators[0] (the name), expr (the range), body[0]
    While,         // expr, body[0]
    Do,            // body[0], expr
    Break,
    Continue,
    Return,  // expr when has_expr
    UsingNamespace,
    UsingAlias,  // text = alias name, type
    UsingDeclaration,
    NamespaceAlias,  // text = alias, target
    Namespace,       // body
    Function,        // function
    Launch,          // text = kernel name, launch (config), args
  };

  Kind kind = Kind::Empty;
  std::size_t offset = 0;
  std::size_t end = 0;
  std::string_view text;
  std::string_view target;
  bool is_constexpr = false, is_static = false, is_shared = false;
  bool has_init = false, has_condition = false, has_step = false, has_expr = false;
  std::unique_ptr<TypeRef> type;
  std::vector<Declarator> declarators;
  Expr expr, step;
  std::vector<Expr> launch, args;
  std::vector<Stmt> body;
  std::shared_ptr<const UserFunction> function;
};

struct Parameter {
  std::string_view name;  // "" when unnamed
  std::unique_ptr<TypeRef> type;
  bool has_default = false;
  Expr default_value;
};

struct UserFunction {
  std::size_t offset = 0;
  std::string_view name;
  bool kernel = false;  // __global__
  bool is_template = false;
  std::unique_ptr<TypeRef> result;
  std::vector<Parameter> parameters;
  Stmt body;
};

// A parsed program: its text (the tree's names are parts of it) and its statements.
struct ProgramTree {
  std::string text;
  std::string name;  // the file's name, for messages
  std::vector<Stmt> statements;
};

// Parse a program; throws SourceError (byte offset into the text) on a syntax error.
std::unique_ptr<ProgramTree> parse_program_tree(std::string text, std::string name, std::size_t max_depth);

}  // namespace layoutx::lang
