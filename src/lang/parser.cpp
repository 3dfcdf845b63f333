// Text -> syntax tree in one pass: a byte pre-scan (characters, nesting
// depth), then the PEGTL grammar (grammar.hpp) with actions that build the
// Nodes as their rules succeed. Syntax errors are PEGTL's, with the messages
// of parse_errors.hpp.
#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <optional>
#include <type_traits>
#include <vector>

#include "ast.hpp"
#include "call.hpp"
#include "cute_types.hpp"
#include "grammar.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/language.hpp"
#include "parse_errors.hpp"
#include "plain_forms.hpp"
#include "value_types.hpp"

namespace layoutx::lang {

namespace {

namespace pegtl = tao::pegtl;
namespace g = grammar;

// What the pre-scan does with each byte: nothing, count a nesting level in
// or out, or look closer (bytes no rule can use).
enum class ByteClass : unsigned char { Plain, Opens, Closes, Refused };

struct ByteClasses {
  ByteClass of[256];
  constexpr ByteClasses() : of{} {
    for (int c = 0; c < 256; ++c)
      of[c] = c >= 0x80 || c == 0x7f || (c < 0x20 && c != '\t' && c != '\n' && c != '\r') ? ByteClass::Refused
                                                                                          : ByteClass::Plain;
    of[static_cast<int>('(')] = of[static_cast<int>('<')] = ByteClass::Opens;
    of[static_cast<int>(')')] = of[static_cast<int>('>')] = ByteClass::Closes;
  }
};
constexpr ByteClasses kByteClasses;

[[noreturn]] void refuse_byte(unsigned char c, std::size_t at) {
  if (c >= 0x80) throw SourceError(fmt::format("unexpected byte 0x{:02x}: expressions are plain ASCII", c), at);
  throw SourceError(fmt::format("unexpected control character 0x{:02x}", c), at);
}

// Reject what no rule can use before parsing, with a precise position:
// control characters, bytes outside ASCII, and nesting past the limit (the
// parser and the evaluator recurse once per level). An application to the
// value before it, L(0)(1), nests the tree one level more with each call, as
// a parenthesis does: the levels a text reaches count both.
void prescan(std::string_view text, std::size_t max_depth) {
  // levels[d]: the tree levels above a list at nesting d; calls[d]: the
  // applications chained so far at that nesting.
  std::vector<std::size_t> levels{0}, calls{0};
  std::size_t depth = 0;
  char last = 0;  // the last byte that is not a space
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    switch (kByteClasses.of[c]) {
      case ByteClass::Plain:
        if (c == ',') calls[depth] = 0;
        break;
      case ByteClass::Opens: {
        if (c == '(' && (last == ')' || last == '}')) ++calls[depth];
        const std::size_t level = levels[depth] + calls[depth] + 1;
        if (level > max_depth)
          throw SourceError(fmt::format("nesting deeper than {} levels (raise the limit with --max-depth){}", max_depth,
                                        calls[depth] > 0 ? "; each chained call L(i)(j) is one level more" : ""),
                            i);
        ++depth;
        if (levels.size() <= depth) {
          levels.push_back(0);
          calls.push_back(0);
        }
        levels[depth] = level;
        calls[depth] = 0;
        break;
      }
      case ByteClass::Closes:
        if (depth > 0) --depth;
        break;
      case ByteClass::Refused: refuse_byte(c, i);
    }
    if (!std::isspace(c)) last = static_cast<char>(c);
  }
}

// The grammar's message, or where the text holds a character no rule reads
// (a decimal point, an operator), that character named: the grammar only
// knows what it expected there.
std::string syntax_message(std::string_view text, std::size_t at, std::string_view expected) {
  if (at >= text.size()) return std::string(expected);
  const char c = text[at];
  if (c == '.' && at > 0 && std::isdigit(static_cast<unsigned char>(text[at - 1])))
    return "a number with a fraction: layouts take integers only";
  const bool read = std::isalnum(static_cast<unsigned char>(c)) || std::isspace(static_cast<unsigned char>(c)) ||
                    std::string_view("_(),:<>@-{}").find(c) != std::string_view::npos;
  if (read) return std::string(expected);
  return fmt::format("unexpected '{}': {}", c, expected);
}

// How many leading characters of a name or integer are a C++ namespace
// (`cute::`, `cutlass::`), which names nothing more than the name alone.
// Inner scopes stay: GMMA::Layout_K_SW128_Atom is CuTe's name of that atom.
std::size_t unscoped(std::string_view text) {
  for (const std::string_view scope : {std::string_view("cute::"), std::string_view("cutlass::")})
    if (text.starts_with(scope)) return scope.size();
  return 0;
}

const char* cute_type_example(CuteType type) {
  switch (type) {
    case CuteType::Integer: return "Int<4>";
    case CuteType::Layout: return "Layout<Shape<_4,_3>, Stride<_3,_1>>";
    case CuteType::Composed: return "ComposedLayout<Swizzle<3,4,3>, C<0>, Layout<Shape<_8,_64>, Stride<_64,_1>>>";
    default: return "Shape<_4,_3>";
  }
}

// A node as the grammar's actions build it, its children in a vector of its
// own: a chain grows by one operand at a time. The finished tree is moved
// into a Tree's block (tree_of).
struct GrammarNode : Node {
  std::vector<std::int64_t> targ_values;  // the tree's TemplateArgs
  std::vector<std::string> targ_types;
  std::vector<GrammarNode> parts;
};

// The nodes built so far, in text order, and where each list still being
// read starts among them. A value that cannot be represented (an integer past
// 64 bits, a template argument naming no type) is kept as a deferred error:
// the syntax of the whole text is reported before it.
class Builder {
 public:
  explicit Builder(std::string_view text) : text_(text) {
    nodes_.reserve(16);  // a small expression never grows them
    lists_.reserve(8);
  }

  // Leaves.
  void integer(const char* begin, const char* end);
  void basis(std::string_view suffix, std::size_t offset);  // the scaled-basis modes of the last integer
  void underscore(std::size_t offset);
  void name(std::string_view text, std::size_t offset);
  // smem_ptr[16b](unset), smem_sparse<2>_ptr[16b](unset): the widths read from the text.
  void pointer_flag(std::string_view text, std::size_t offset);

  // Lists: their elements are the nodes built between open and close.
  void open_list() { lists_.push_back(nodes_.size()); }
  void abandon_list() {
    nodes_.resize(lists_.back());
    lists_.pop_back();
  }
  void close_tuple(std::size_t begin);
  void close_call();
  void close_apply(std::size_t begin);
  void close_template_args();
  void value_braces() { braced_ = true; }
  void check_complete_type();

  // Combinations of the last nodes.
  void make_layout();
  void compose();

  GrammarNode result() {
    if (deferred_) throw *deferred_;
    if (nodes_.size() != 1) throw InternalError(fmt::format("the parser left {} syntax trees", nodes_.size()), 0);
    return std::move(nodes_.front());
  }

  std::size_t offset(const char* at) const { return static_cast<std::size_t>(at - text_.data()); }
  // `at`, or the character before it when that is `mark` (a sign, a static mark).
  const char* with_prefix(const char* at, const char* mark) const {
    return at > text_.data() && at[-1] == *mark ? at - 1 : at;
  }

 private:
  std::size_t take_list() {
    const std::size_t first = lists_.back();
    lists_.pop_back();
    return first;
  }
  // The error nearest the start of the text is the one reported.
  void defer(const SourceError& e) {
    if (!deferred_ || e.offset() < deferred_->offset()) deferred_ = e;
  }
  std::int64_t parse_int64(std::string_view digits, bool negative, std::size_t offset);
  std::vector<GrammarNode> elements_from(std::size_t first);
  GrammarNode cute_value(CuteType type, const GrammarNode& name, std::vector<GrammarNode> args);
  static std::string type_text(const GrammarNode& n);

  std::string_view text_;
  std::vector<GrammarNode> nodes_;
  std::vector<std::size_t> lists_;
  std::optional<SourceError> deferred_;
  // Where the CuTe type being read holds a run-time integer (`int`), and
  // whether {} made the type a value: a type alone names no value for it.
  std::optional<std::size_t> run_time_member_;
  bool braced_ = false;
};

std::int64_t Builder::parse_int64(std::string_view digits, bool negative, std::size_t offset) {
  std::uint64_t magnitude = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude);
  const std::uint64_t limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
  if (ec != std::errc() || ptr != digits.data() + digits.size() || magnitude > limit) {
    defer(SourceError(
        fmt::format("integer {}{} does not fit in a signed 64-bit integer", negative ? "-" : "", excerpt(digits)),
        offset));
    return 0;
  }
  return negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
}

// "_-12", "-12", "12" -> value, staticness
void Builder::integer(const char* begin, const char* end) {
  std::string_view text(begin, static_cast<std::size_t>(end - begin));
  text.remove_prefix(unscoped(text));
  const std::size_t offset = this->offset(begin);
  GrammarNode& n = nodes_.emplace_back();
  n.kind = Node::Kind::Integer;
  n.offset = offset;
  n.is_static = text[0] == '_';
  if (n.is_static) text.remove_prefix(1);
  const bool negative = text[0] == '-';
  if (negative) text.remove_prefix(1);
  n.value = parse_int64(text, negative, offset);
}

// "@0@1" after an integer: CuTe's scaled basis; the modes are printed last first.
void Builder::basis(std::string_view suffix, std::size_t offset) {
  std::vector<int> modes;
  for (std::size_t p = 0; p != std::string_view::npos;) {
    const std::size_t next = suffix.find('@', p + 1);
    const std::string_view digits = suffix.substr(p + 1, next == std::string_view::npos ? next : next - p - 1);
    const std::int64_t m = parse_int64(digits, false, offset + p + 1);
    modes.insert(modes.begin(), static_cast<int>(std::min<std::int64_t>(m, 1 << 20)));
    p = next;
  }
  try {
    nodes_.back().basis = make_basis(modes);
  } catch (const Error& e) {
    defer(SourceError(e.what(), nodes_.back().offset));
  }
}

void Builder::underscore(std::size_t offset) { nodes_.emplace_back().offset = offset; }

void Builder::name(std::string_view text, std::size_t offset) {
  GrammarNode& n = nodes_.emplace_back();
  n.kind = Node::Kind::Name;
  n.offset = offset;
  n.name = text.substr(unscoped(text));
}

void Builder::pointer_flag(std::string_view text, std::size_t offset) {
  // The numbers in the text, in order: [sparsity,] bits.
  std::vector<std::int64_t> numbers;
  for (std::size_t i = 0; i < text.size();) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
    numbers.push_back(parse_int64(text.substr(i, j - i), false, offset + i));
    i = j;
  }
  GrammarNode& n = nodes_.emplace_back();
  n.kind = Node::Kind::PointerFlag;
  n.offset = offset;
  n.value = numbers.back();
  if (numbers.size() == 2) n.targ_values.push_back(numbers.front());
}

std::vector<GrammarNode> Builder::elements_from(std::size_t first) {
  std::vector<GrammarNode> elements(std::make_move_iterator(nodes_.begin() + static_cast<std::ptrdiff_t>(first)),
                                    std::make_move_iterator(nodes_.end()));
  nodes_.resize(first);
  return elements;
}

// `begin` is where the elements start, after the '(' and any space.
void Builder::close_tuple(std::size_t begin) {
  GrammarNode n;
  n.kind = Node::Kind::Tuple;
  n.offset = text_.rfind('(', begin - 1);
  n.parts = elements_from(take_list());
  nodes_.push_back(std::move(n));
}

// name(args): the name is the node before the arguments.
void Builder::close_call() {
  std::vector<GrammarNode> args = elements_from(take_list());
  GrammarNode& call = nodes_.back();
  if (call.kind != Node::Kind::Name && args.empty()) return;  // Layout<...>(): the value, as Layout<...>{} is
  if (call.kind != Node::Kind::Name)
    defer(
        SourceError("a CuTe type is not called: write its value as Type<...>{}, or build it with make_shape, "
                    "make_stride or make_layout",
                    call.offset));
  call.kind = Node::Kind::Call;
  call.parts = std::move(args);
}

// callee(args): evaluation or slicing of the node before the arguments.
void Builder::close_apply(std::size_t begin) {
  const std::size_t first = take_list();
  GrammarNode apply;
  apply.kind = Node::Kind::Apply;
  apply.offset = text_.rfind('(', begin - 1);
  apply.parts.reserve(1 + nodes_.size() - first);
  apply.parts.push_back(std::move(nodes_[first - 1]));
  for (std::size_t i = first; i < nodes_.size(); ++i) apply.parts.push_back(std::move(nodes_[i]));
  nodes_.resize(first - 1);
  nodes_.push_back(std::move(apply));
}

// name<args>: a CuTe type's value, or a function's template arguments.
void Builder::close_template_args() {
  const std::size_t first = take_list();
  GrammarNode& name = nodes_[first - 1];
  if (const CuteType type = cute_type(name.name); type != CuteType::None) {
    name = cute_value(type, name, elements_from(first));
    return;
  }
  name.has_template_args = true;
  // The language's functions take integers and value types there; other names
  // (MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>, Copy_Atom<UniversalCopy<uint128_t>, half_t>,
  // GMMA operations' GMMA::Major::K) take the types as written.
  const bool any_type = !find_builtin(name.name);
  for (std::size_t i = first; i < nodes_.size(); ++i) {
    GrammarNode& a = nodes_[i];
    const bool is_type = a.kind == Node::Kind::Name;
    // ScaledBasis<int, N...>: a basis whose scale is held at run time.
    const bool run_time_scale = is_type && i == first && name.name == "ScaledBasis" && is_run_time_integer(a.name);
    // Plain flags rather than an optional: GCC's -O3 flow analysis reports a
    // nested optional here as maybe uninitialized.
    const std::optional<int> found = is_type && !run_time_scale ? value_type_bits(a.name) : std::nullopt;
    const bool has_bits = run_time_scale || found.has_value();
    const int bit_count = found.value_or(0);
    if (is_type && any_type && !run_time_scale && (!has_bits || a.has_template_args)) {
      name.targ_values.push_back(0);
      name.targ_types.push_back(type_text(a));
      continue;
    }
    if ((is_type && (!has_bits || a.has_template_args)) || (!is_type && a.kind != Node::Kind::Integer)) {
      std::string known;
      for (const auto& [type, width] : kValueTypes) known += (known.empty() ? "" : ", ") + std::string(type);
      defer(SourceError(fmt::format("expected an integer template argument or a type ({}), not '{}'", known,
                                    is_type ? std::string(a.name) : excerpt(text_.substr(a.offset))),
                        a.offset));
    }
    name.targ_values.push_back(is_type ? bit_count : a.value);
    name.targ_types.push_back(is_type ? std::string(a.name) : std::string());
  }
  nodes_.resize(first);
}

// A type argument as written: its name and its own template arguments.
std::string Builder::type_text(const GrammarNode& n) {
  std::string out(n.name);
  if (!n.has_template_args) return out;
  out += '<';
  for (std::size_t i = 0; i < n.targ_values.size(); ++i) {
    if (i) out += ',';
    out += i < n.targ_types.size() && !n.targ_types[i].empty() ? n.targ_types[i] : std::to_string(n.targ_values[i]);
  }
  return out + '>';
}

// The value of CuTe type `type` (as `name` wrote it) with template arguments
// `args`: the value-initialized object, as `Type<...>{}` makes it.
GrammarNode Builder::cute_value(CuteType type, const GrammarNode& name, std::vector<GrammarNode> args) {
  for (GrammarNode& a : args) {
    if (a.kind != Node::Kind::Name || a.has_template_args) continue;
    if (a.name == "X" || a.name == "Underscore" || a.name == "cute::X" || a.name == "cute::Underscore") {  // CuTe's `_`
      const std::size_t at = a.offset;
      a = GrammarNode{};
      a.offset = at;
    } else if (is_run_time_integer(a.name)) {  // a dynamic integer: value-initialized, 0, when {} follows
      const std::size_t at = a.offset;
      if (!run_time_member_) run_time_member_ = at;
      a = GrammarNode{};
      a.kind = Node::Kind::Integer;
      a.offset = at;
    } else {
      defer(
          SourceError(fmt::format("{}<...> takes CuTe types (_4, Int<4>, C<4>, int, Shape<...>, Layout<...>), not '{}'",
                                  name.name, a.name),
                      a.offset));
    }
  }
  GrammarNode n;
  n.offset = name.offset;
  const auto arity = [&](std::size_t lo, std::size_t hi, const char* form) {
    if (args.size() < lo || args.size() > hi)
      defer(SourceError(fmt::format("{} takes {} template argument{} ({}), got {}", name.name, lo == hi ? lo : hi,
                                    hi == 1 ? "" : "s", form, args.size()),
                        name.offset));
    return args.size() >= lo && args.size() <= hi;
  };
  switch (type) {
    case CuteType::Integer:
      if (arity(1, 1, "the integer") && args[0].kind == Node::Kind::Integer) {
        n.kind = Node::Kind::Integer;
        n.value = args[0].value;
        n.is_static = true;
      } else if (!args.empty()) {
        defer(SourceError(fmt::format("{}<N> takes an integer", name.name), name.offset));
      }
      return n;
    case CuteType::Tuple:
      n.kind = Node::Kind::Tuple;
      n.parts = std::move(args);
      return n;
    case CuteType::Layout:
      if (!arity(1, 2, "a shape and a stride")) return n;
      if (args.size() == 1) {  // the stride defaults to the compact column-major one
        n.kind = Node::Kind::Call;
        n.name = "make_layout";
      } else {
        n.kind = Node::Kind::Layout;
      }
      n.parts = std::move(args);
      return n;
    case CuteType::Composed:
      if (!arity(3, 3, "a swizzle, an offset and a layout")) return n;
      n.kind = Node::Kind::Compose;
      n.parts = std::move(args);
      return n;
    case CuteType::None: break;
  }
  return n;
}

// A CuTe type written without its template arguments is no value, and
// neither is one holding a run-time integer without {}: its value is not in
// the type (TYPE{} holds 0 there).
void Builder::check_complete_type() {
  const GrammarNode& n = nodes_.back();
  if (run_time_member_ && !braced_)
    defer(
        SourceError("a type names no value for its run-time integer: write the value (make_shape(_8{}, 5)), "
                    "bind it with -D NAME=EXPR, or write TYPE{} for CuTe's value-initialized object (0)",
                    *run_time_member_));
  run_time_member_.reset();
  braced_ = false;
  if (n.kind == Node::Kind::Name && !n.has_template_args && cute_type(n.name) != CuteType::None)
    defer(SourceError(fmt::format("{} is a CuTe type template: give its arguments, as in {}{{}}", n.name,
                                  cute_type_example(cute_type(n.name))),
                      n.offset));
}

// shape : stride, the last two nodes.
void Builder::make_layout() {
  GrammarNode n;
  n.kind = Node::Kind::Layout;
  const std::size_t shape = nodes_.size() - 2;
  n.offset = nodes_[shape].offset;
  n.parts = elements_from(shape);
  nodes_.push_back(std::move(n));
}

// a o b, the last two nodes; the operand joins the chain the node before it
// started (an operand is never itself a chain).
void Builder::compose() {
  GrammarNode& lhs = nodes_[nodes_.size() - 2];
  if (lhs.kind != Node::Kind::Compose) {
    GrammarNode chain;
    chain.kind = Node::Kind::Compose;
    const GrammarNode* first = &lhs;
    while (first->kind == Node::Kind::Apply) first = &first->parts.front();
    chain.offset = first->offset;
    chain.parts.push_back(std::move(lhs));
    lhs = std::move(chain);
  }
  lhs.parts.push_back(std::move(nodes_.back()));
  nodes_.pop_back();
}

// Leaves and combinations are built when their rule succeeds. No rule that
// builds can fail after it has built (the grammar commits with must<> first),
// so nothing built has to be taken back, except the elements of a list when
// a syntax error abandons the whole parse.
template <typename Rule>
struct action : pegtl::nothing<Rule> {};

// An integer's node starts at its sign and static mark, just before its digits.
template <>
struct action<g::integer_digits> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.integer(b.with_prefix(in.begin(), "-"), in.end());
  }
};
template <>
struct action<g::static_digits> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.integer(b.with_prefix(b.with_prefix(in.begin(), "-"), "_"), in.end());
  }
};
template <>
struct action<g::basis_suffix> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.basis(in.string_view(), b.offset(in.begin()));
  }
};
template <>
struct action<g::template_integer> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.integer(in.begin(), in.end());
  }
};
template <>
struct action<g::cast_digits> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.integer(in.begin(), in.end());
  }
};
template <>
struct action<g::no_template_args> {
  static void apply0(Builder& b) {
    b.open_list();
    b.close_template_args();
  }
};
template <>
struct action<g::underscore_end> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.underscore(b.offset(in.begin()) - 1);
  }
};
template <>
struct action<g::identifier> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.name(in.string_view(), b.offset(in.begin()));
  }
};
template <>
struct action<g::pointer_flag> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.pointer_flag(in.string_view(), b.offset(in.begin()));
  }
};
template <>
struct action<g::type_name> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.name(in.string_view(), b.offset(in.begin()));
  }
};
template <>
struct action<g::value_braces> {
  static void apply0(Builder& b) { b.value_braces(); }
};
template <>
struct action<g::name_ref> {
  static void apply0(Builder& b) { b.check_complete_type(); }
};
template <>
struct action<g::tuple_elements> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.close_tuple(b.offset(in.begin()));
  }
};
template <>
struct action<g::call_elements> {
  static void apply0(Builder& b) { b.close_call(); }
};
template <>
struct action<g::apply_elements> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.close_apply(b.offset(in.begin()));
  }
};
template <>
struct action<g::template_arg_list> {
  static void apply0(Builder& b) { b.close_template_args(); }
};
template <>
struct action<g::layout_tail> {
  static void apply0(Builder& b) { b.make_layout(); }
};
template <>
struct action<g::operand> {
  static void apply0(Builder& b) { b.compose(); }
};

template <typename Rule>
inline constexpr bool is_list = std::is_same_v<Rule, g::tuple_elements> || std::is_same_v<Rule, g::call_elements> ||
                                std::is_same_v<Rule, g::apply_elements> || std::is_same_v<Rule, g::template_arg_list>;

// Marks where each list's elements start.
template <typename Rule>
struct listing : pegtl::normal<Rule> {
  template <typename Input>
  static void start(const Input&, Builder& b) {
    if constexpr (is_list<Rule>) b.open_list();
  }
  template <typename Input>
  static void failure(const Input&, Builder& b) {
    if constexpr (is_list<Rule>) b.abandon_list();
  }
};

template <typename Rule>
using control = pegtl::must_if<g::errors, listing, false>::control<Rule>;

// `g` and everything under it, in text order.
void place(TreeBuilder& tree, GrammarNode&& g) {
  const std::size_t self = tree.open();
  static_cast<Node&>(tree.at(self)) = g;
  if (g.has_template_args || !g.targ_values.empty()) {
    TemplateArgs& args = tree.template_args_of(self);
    args.values = std::move(g.targ_values);
    args.types = std::move(g.targ_types);
  }
  for (GrammarNode& part : g.parts) place(tree, std::move(part));
  tree.close(self);
}

Tree tree_of(GrammarNode&& root) {
  TreeBuilder tree;
  place(tree, std::move(root));
  return tree.finish();
}

// The tree of pre-scanned text, through the grammar.
Tree tree_by_grammar(std::string_view text) {
  pegtl::memory_input<pegtl::tracking_mode::lazy> in(text.data(), text.size(), "expression");
  Builder builder(text);
  try {
    pegtl::parse<g::grammar, action, control>(in, builder);
  } catch (const pegtl::parse_error& e) {
    const std::size_t at = e.positions().front().byte;
    throw SourceError(syntax_message(text, at, e.message()), at);
  }
  return tree_of(builder.result());
}

}  // namespace

Tree parse(std::string_view text, std::size_t max_depth) {
  if (std::optional<Tree> plain = read_plain_forms(text, max_depth)) return std::move(*plain);
  prescan(text, max_depth);
  return tree_by_grammar(text);
}

Tree parse_by_grammar(std::string_view text, std::size_t max_depth) {
  prescan(text, max_depth);
  return tree_by_grammar(text);
}

}  // namespace layoutx::lang
