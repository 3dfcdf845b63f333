// Syntax tree -> Value: literals, calls through the function table,
// evaluation and slicing L(...), and `o` chains.
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "ast.hpp"
#include "call.hpp"
#include "cute_types.hpp"
#include "tensor_functions.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/limits.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/smem_layout_atoms.hpp"
#include "layoutx/swizzle_slice.hpp"
#include "layoutx/value_composition.hpp"
#include "value_types.hpp"

namespace layoutx {

namespace {

using lang::Node;
using lang::throw_at;

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string did_you_mean(std::string_view name, const LanguageExtension* extension) {
  std::string best;
  std::size_t best_d = 3;
  for (const auto& f : function_names(extension)) {
    if (name.size() >= f.size() + best_d || name == f)
      continue;  // the lengths alone are that far apart, or no misspelling
    const std::size_t d = edit_distance(name, f);
    if (d < best_d) {
      best_d = d;
      best = f;
    }
  }
  return best.empty() ? "" : fmt::format(" (did you mean '{}'?)", best);
}

// "name: what", without repeating a name the message already starts with.
std::string prefixed(std::string_view name, const std::string& what) {
  const std::string head = std::string(name) + ": ";
  return what.substr(0, head.size()) == head ? what : head + what;
}

// A parenthesised layout, `(L)`, is a tile of one mode; evaluating it means L.
const Value& unparenthesised(const Value& v) {
  const Value* inner = &v;
  while (inner->kind == Value::Kind::Tuple && inner->elems.size() == 1) inner = &inner->elems[0];
  return inner->is_layout_like() ? *inner : v;
}

std::size_t integers_in(const IntTuple& t) {
  if (t.is_leaf()) return 1;
  std::size_t n = 0;
  for (const auto& e : t.elems()) n += integers_in(e);
  return n;
}

// How many integers a value holds: what every later operation's cost grows with.
std::size_t integers_in(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Integer: return 1;
    case Value::Kind::Tuple: {
      std::size_t n = 0;
      for (const auto& e : v.elems) n += integers_in(e);
      return n;
    }
    case Value::Kind::Layout: return integers_in(v.layout.shape) + integers_in(v.layout.stride);
    case Value::Kind::Composed:
      return integers_in(v.composed().layout.shape) + integers_in(v.composed().layout.stride) +
             2 * (1 + v.composed().nested.size());
    default: return 0;
  }
}

bool all_underscore(const Value& v) {
  if (v.kind == Value::Kind::Underscore) return true;
  if (v.kind != Value::Kind::Tuple) return false;
  return std::all_of(v.elems.begin(), v.elems.end(), all_underscore);
}

// The node whose operation is the expression's outermost: the root, inside
// any one-part `o` chains.
const Node& outermost(const Node& root) {
  const Node* n = &root;
  while (n->kind == Node::Kind::Compose && n->children().size() == 1) n = &n->children().front();
  return *n;
}

class Evaluator {
 public:
  // With `outer`, the operands of `root`'s outermost operation are kept there.
  Evaluator(const LanguageOptions& options, Diagnostics& diag, const Node* root = nullptr,
            std::optional<OuterCall>* outer = nullptr)
      : options_(options), diag_(diag), outermost_(root ? &outermost(*root) : nullptr), outer_(outer) {}

  Value eval(const Node& n) {
    // A layout literal within the limit as a whole needs no count of its integers afterwards.
    if (n.kind == Node::Kind::Layout && plain_int_tuple(n, 1)) return plain_layout_literal(n);
    return checked(n, [&] { return eval_node(n); });
  }

  // The function of call node `n` applied to `args` (evaluated elsewhere).
  Value invoke(const Node& n, const lang::Function& fn, std::vector<Value> args) {
    return checked(n, [&] { return call_with(n, fn, std::move(args)); });
  }

  // Call node `n`'s function (the table's or the extension's) applied to
  // `args`, evaluated elsewhere (by a program): its children only place them.
  Value call_evaluated(const Node& n, std::vector<Value> args) {
    return checked(n, [&] {
      const lang::Function* fn = lang::find_builtin(n.name);
      if (!fn && is_smem_layout_atom(n.name)) return evaluate_at(smem_atom(n), args, n);
      const auto* extension_fn = extension_function(n);
      if (extension_fn &&
          (!fn || std::any_of(args.begin(), args.end(), [](const Value& v) { return v.kind == Value::Kind::Object; })))
        return extension_call(n, *extension_fn, args);
      if (!fn)
        throw SourceError(
            fmt::format("unknown function '{}'{}", excerpt(n.name), did_you_mean(n.name, options_.extension)),
            n.offset);
      return call_with(n, *fn, std::move(args));
    });
  }

  // callee(args) at apply node `n`: evaluation or slicing, as L(i, j) does.
  Value apply_evaluated(const Node& n, const Value& callee, const std::vector<Value>& args) {
    return checked(n, [&] { return evaluate_at(unparenthesised(callee), args, n); });
  }

 private:
  template <class F>
  Value checked(const Node& n, F compute) {
    try {
      Value v = compute();
      if (const std::size_t count = integers_in(v); count > kMaxValueIntegers)
        throw SourceError(fmt::format("this value holds {} integers; layoutx works with values of at most {}", count,
                                      kMaxValueIntegers),
                          n.offset);
      return v;
    } catch (const SourceError&) {
      throw;
    } catch (const Error& e) {
      throw_at(e, e.message(diag_.notation()), n.offset);
    }
  }

  // The value of `n` added to `values`; an integer (the most common
  // element and argument) is written in place.
  void add_value(std::vector<Value>& values, const Node& n) {
    if (n.kind != Node::Kind::Integer) {
      values.push_back(eval(n));
      return;
    }
    Value& v = values.emplace_back();
    v.kind = Value::Kind::Integer;
    v.integer = integer_of(n);
  }

  Value eval_node(const Node& n) {
    switch (n.kind) {
      case Node::Kind::Integer: return Value::of(integer_of(n));
      case Node::Kind::Underscore: return Value::tag(Value::Kind::Underscore);
      case Node::Kind::Tuple: {
        std::vector<Value> elems;
        elems.reserve(n.children().size());
        for (const auto& c : n.children()) add_value(elems, c);
        return Value::tuple(std::move(elems));
      }
      case Node::Kind::Layout: return layout_literal(n);
      case Node::Kind::Name: return name(n);
      case Node::Kind::Call: return call(n);
      case Node::Kind::Apply: return apply(n);
      case Node::Kind::Compose: return chain(n);
      case Node::Kind::PointerFlag: return pointer_flag(n);
    }
    throw InternalError("unknown syntax node", n.offset);
  }

  // Whether an operand is made of integers and tuples alone, at most as
  // many integers as a value may hold: then it is read as the int tuple it
  // denotes, without a Value per integer (most of a small expression's
  // work). Anything else, or more integers, takes the general path, which
  // reports the node that crosses the limit.
  // The nodes of n's subtree from `first` on (1: below n) are read.
  static bool plain_int_tuple(const Node& n, std::size_t first = 0) {
    std::size_t integers = 0;
    for (const Node* p = &n + first; p != &n + n.extent; ++p) {
      if (p->kind == Node::Kind::Integer)
        ++integers;
      else if (p->kind != Node::Kind::Tuple)
        return false;
    }
    return integers <= kMaxValueIntegers;
  }

  // Whether two literals of integers and tuples are nested alike (their
  // int tuples are congruent): the same kinds and extents in text order.
  static bool same_nesting(const Node& a, const Node& b) {
    if (a.extent != b.extent) return false;
    for (std::size_t i = 0; i < a.extent; ++i)
      if ((&a)[i].kind != (&b)[i].kind || (&a)[i].extent != (&b)[i].extent) return false;
    return true;
  }

  Int integer_of(const Node& n) const { return Int{n.value, n.is_static || !options_.dynamic, n.basis}; }

  IntTuple int_tuple_of(const Node& n) const {
    if (n.kind == Node::Kind::Integer) return integer_of(n);
    std::vector<IntTuple> elems;
    elems.reserve(n.children().size());
    for (const Node& c : n.children()) {
      if (c.kind == Node::Kind::Integer)
        elems.emplace_back(integer_of(c));
      else
        elems.push_back(int_tuple_of(c));
    }
    return IntTuple(std::move(elems));
  }

  Value layout_literal(const Node& n) {
    if (plain_int_tuple(n.children().front()) && plain_int_tuple(n.children()[1])) return plain_layout_literal(n);
    const Value shape = eval(n.children()[0]), stride = eval(n.children()[1]);
    if (!shape.is_int_tuple())
      throw SourceError(
          fmt::format("the shape of a layout must be an int tuple, got {} {}", a_kind_name(shape), text(shape)),
          n.children()[0].offset);
    if (!stride.is_int_tuple())
      throw SourceError(
          fmt::format("the stride of a layout must be an int tuple, got {} {}", a_kind_name(stride), text(stride)),
          n.children()[1].offset);
    try {
      return Value::of(make_layout(shape.as_int_tuple(), stride.as_int_tuple()));
    } catch (const Error& e) {
      throw_at(e, e.message(diag_.notation()), n.children()[1].offset);
    }
  }

  // shape:stride of integers and tuples (plain_int_tuple on each side).
  Value plain_layout_literal(const Node& n) {
    const Node& shape_node = n.children().front();
    const Node& stride_node = n.children()[1];
    Value v;  // the layout built in place, not copied as Value::of would
    v.kind = Value::Kind::Layout;
    v.layout.shape = int_tuple_of(shape_node);
    v.layout.stride = int_tuple_of(stride_node);
    // make_layout is called only for its message when the two are not congruent.
    if (!same_nesting(shape_node, stride_node)) {
      try {
        (void)make_layout(v.layout.shape, v.layout.stride);
      } catch (const Error& e) {
        throw_at(e, e.message(diag_.notation()), stride_node.offset);
      }
    }
    return v;
  }

  Value pointer_flag(const Node& n) {
    const std::int64_t sparsity = n.template_args().empty() ? 0 : n.template_args().front();
    return pointer_flag(n.value, sparsity, !n.template_args().empty(), n.offset);
  }

  static Value pointer_flag(std::int64_t bits, std::int64_t sparsity, bool sparse, std::size_t offset) {
    // CuTe's int template arguments: a width or sparsity past 2^30 is no flag it can print.
    constexpr std::int64_t kMax = std::int64_t{1} << 30;
    if (bits <= 0 || bits > kMax || sparsity < 0 || sparsity > kMax || (sparse && sparsity == 0))
      throw SourceError(
          "a pointer flag's width and sparsity are positive integers below 2^30 (CuTe has no uint_bit<0>)", offset);
    return Value::of(SmemPtrFlag{bits, sparsity});
  }

  // smem_ptr_flag_bits<B>, smem_sparse_ptr_flag_bits<S,B>: the types emit writes for a pointer flag.
  Value pointer_flag_type(const Node& n) {
    const bool sparse = n.name == "smem_sparse_ptr_flag_bits";
    const auto& args = n.template_args();
    const auto& types = n.template_types();
    if (args.size() != (sparse ? 2u : 1u) ||
        std::any_of(types.begin(), types.end(), [](const std::string& t) { return !t.empty(); }))
      throw SourceError(
          fmt::format("{} takes {}", n.name, sparse ? "<S,B>: a sparsity and a width in bits" : "<B>: a width in bits"),
          n.offset);
    return pointer_flag(args.back(), sparse ? args.front() : 0, sparse, n.offset);
  }

  // GMMA::Layout_K_SW128_Atom<half_t>, UMMA::..._SpAtom<half_t,2>: CuTe's atoms, typed.
  Value smem_atom(const Node& n) {
    const bool sparse = n.name.ends_with("SpAtom");
    const std::size_t want = sparse ? 2 : 1;
    const std::string form =
        sparse ? "<T,S> (a value type and a sparsity, as in <half_t,2>)" : "<T> (a value type, as in <half_t>)";
    if (n.template_args().size() != want || n.template_types().empty() || n.template_types()[0].empty() ||
        (sparse && !n.template_types()[1].empty()))
      throw SourceError(fmt::format("{} takes {}", n.name, form), n.offset);
    try {
      return Value::of(smem_layout_atom(n.name, n.template_args()[0],
                                        sparse ? std::optional<std::int64_t>(n.template_args()[1]) : std::nullopt));
    } catch (const SourceError&) {
      throw;
    } catch (const Error& e) {
      throw_at(e, fmt::format("{}<{}>: {}", n.name, n.template_types()[0], e.message(diag_.notation())), n.offset);
    }
  }

  Value name(const Node& n) {
    if (is_smem_layout_atom(n.name)) return smem_atom(n);
    if (n.name == "Sw" || n.name == "Swizzle") {
      if (n.template_args().size() != 3)
        throw SourceError(
            fmt::format("{} takes three template arguments <B,M,S>, got {}", n.name, n.template_args().size()),
            n.offset);
      for (const auto& type : n.template_types())
        if (!type.empty())
          throw SourceError(fmt::format("{}<B,M,S> takes integers, not the type {}", n.name, type), n.offset);
      for (auto a : n.template_args())
        if (a < -64 || a > 64)
          throw SourceError(
              fmt::format("{}<B,M,S>: template argument {} is out of range (B + M + |S| must be at most 31)", n.name,
                          a),
              n.offset);
      return Value::of(Swizzle::make(static_cast<int>(n.template_args()[0]), static_cast<int>(n.template_args()[1]),
                                     static_cast<int>(n.template_args()[2])));
    }
    if (n.name == "E" && n.has_template_args) return basis_element(n);
    if (n.name == "ScaledBasis" && n.has_template_args) return scaled_basis(n);
    if ((n.name == "smem_ptr_flag_bits" || n.name == "smem_sparse_ptr_flag_bits") && n.has_template_args)
      return pointer_flag_type(n);
    if (n.name == "Underscore" && !n.has_template_args) return Value::tag(Value::Kind::Underscore);
    if (n.name == "nullptr") return Value::of(dynamic_int(0));  // an address, as make_gmem_ptr<T>(nullptr) takes it
    if (n.name == "LayoutLeft" || n.name == "GenColMajor") return Value::tag(Value::Kind::LayoutLeft);
    if (n.name == "LayoutRight" || n.name == "GenRowMajor") return Value::tag(Value::Kind::LayoutRight);
    if (const Value* bound = bound_value(n)) return *bound;
    if (auto v = extension_name(n)) return *v;
    if (lang::find_builtin(n.name) || extension_function(n))
      throw SourceError(fmt::format("{} is a function: call it as {}(...)", n.name, n.name), n.offset);
    throw SourceError(fmt::format("unknown name '{}'{}", excerpt(n.name), did_you_mean(n.name, options_.extension)),
                      n.offset);
  }

  // A name the extension knows (an MMA or copy atom), with its template arguments as written.
  std::optional<Value> extension_name(const Node& n) {
    if (!options_.extension || !options_.extension->name) return std::nullopt;
    std::string targs;
    for (std::size_t i = 0; i < n.template_args().size(); ++i) {
      if (i) targs += ',';
      targs += i < n.template_types().size() && !n.template_types()[i].empty() ? n.template_types()[i]
                                                                               : std::to_string(n.template_args()[i]);
    }
    try {
      return options_.extension->name(n.name, targs);
    } catch (const Error& e) {
      throw_at(e, prefixed(n.name, e.message(diag_.notation())), n.offset);
    }
  }

  // A function of the extension: its errors blamed on the call, or on the argument it names.
  Value extension_call(const Node& n, const std::function<Value(const ExtensionCall&)>& fn,
                       const std::vector<Value>& args) {
    try {
      return fn(ExtensionCall{n.name, args, n.template_args(), n.template_types(), diag_});
    } catch (const SourceError&) {
      throw;
    } catch (const ArgumentError& e) {
      const std::size_t at = e.index() < n.children().size() ? n.children()[e.index()].offset : n.offset;
      throw_at(e, fmt::format("{}: argument {}: {}", n.name, e.index() + 1, e.message(diag_.notation())), at);
    } catch (const Error& e) {
      throw_at(e, prefixed(n.name, e.message(diag_.notation())), n.offset);
    }
  }

  // E<Ns...>: CuTe's unit scaled basis, 1@Ns (E<> is the integer 1).
  Value basis_element(const Node& n) {
    std::vector<int> modes;
    for (std::size_t i = 0; i < n.template_args().size(); ++i) {
      if (!n.template_types()[i].empty())
        throw SourceError(fmt::format("E<N...> takes mode indices, not the type {}", n.template_types()[i]), n.offset);
      const std::int64_t m = n.template_args()[i];
      modes.push_back(m < 0 ? -1 : static_cast<int>(std::min<std::int64_t>(m, 1 << 20)));
    }
    try {
      return Value::of(layoutx::basis_element(modes));
    } catch (const Error& e) {
      throw_at(e, fmt::format("E<...>: {}", e.message(diag_.notation())), n.offset);
    }
  }

  // ScaledBasis<T, Ns...>: a static scale T (Int<2>) is the type's value; a
  // run-time one (int) is given to the constructor, ScaledBasis<int, 1>(2).
  Value scaled_basis(const Node& n, const Node* scale = nullptr) {
    const auto& args = n.template_args();
    const auto& types = n.template_types();
    const bool run_time = !types.empty() && !types[0].empty();
    if (args.size() < 2 || (run_time && !lang::is_run_time_integer(types[0])))
      throw SourceError(
          "ScaledBasis<T, N...> takes a scale (Int<2>, or int given as ScaledBasis<int, N...>(2)) and "
          "mode indices",
          n.offset);
    if (run_time && !scale)
      throw SourceError(fmt::format("ScaledBasis<{}, ...> holds its scale at run time, which a type does not name: "
                                    "give it, as in ScaledBasis<int, 1>(2)",
                                    types[0]),
                        n.offset);
    if (!run_time && scale)
      throw SourceError("a static ScaledBasis<Int<N>, ...> is its type's value: write ScaledBasis<Int<N>, ...>{}",
                        n.offset);
    std::vector<int> modes;
    for (std::size_t i = 1; i < args.size(); ++i) {
      if (!types[i].empty())
        throw SourceError(fmt::format("ScaledBasis<T, N...> takes mode indices, not the type {}", types[i]), n.offset);
      modes.push_back(args[i] < 0 ? -1 : static_cast<int>(std::min<std::int64_t>(args[i], 1 << 20)));
    }
    Int scaled;
    try {
      scaled = layoutx::basis_element(modes);
    } catch (const Error& e) {
      throw_at(e, fmt::format("ScaledBasis<...>: {}", e.message(diag_.notation())), n.offset);
    }
    if (!run_time) {
      scaled.value = args[0];
      return Value::of(scaled);
    }
    const Value v = eval(*scale);
    if (v.kind != Value::Kind::Integer || v.integer.is_scaled_basis())
      throw SourceError("ScaledBasis<int, N...>(v) takes an integer", scale->offset);
    scaled.value = v.integer.value;
    scaled.is_static = false;
    return Value::of(scaled);
  }

  Value call(const Node& n) {
    if (n.name == "ScaledBasis" && n.has_template_args) {
      if (n.children().size() != 1) throw SourceError("ScaledBasis<int, N...>(v) takes one integer", n.offset);
      return scaled_basis(n, &n.children().front());
    }
    const lang::Function* fn = lang::find_builtin(n.name);
    if (!fn && is_smem_layout_atom(n.name)) {  // GMMA::Layout_K_SW128_Atom<half_t>(i, j): the atom evaluated
      std::vector<Value> args;
      for (const auto& a : n.children()) add_value(args, a);
      return evaluate_at(smem_atom(n), args, n);
    }
    if (!fn) {
      if (const auto* extension_fn = extension_function(n)) {
        std::vector<Value> args;
        args.reserve(n.children().size());
        for (const auto& a : n.children()) add_value(args, a);
        return extension_call(n, *extension_fn, args);
      }
      if (const Value* bound = bound_value(n)) return apply_to(*bound, n, 0);
      if (lang::is_run_time_integer(n.name)) return integer_cast(n);
      if (n.children().empty())  // MMA_Atom<...>(): the value, as MMA_Atom<...>{} is
        if (auto v = extension_name(n)) return *v;
      if (n.name == "Sw" || n.name == "Swizzle")
        throw SourceError(fmt::format("{}<B,M,S> is not a function; compose it with 'o'", n.name), n.offset);
      throw SourceError(
          fmt::format("unknown function '{}'{}", excerpt(n.name), did_you_mean(n.name, options_.extension)), n.offset);
    }
    std::vector<Value> args;
    args.reserve(n.children().size());
    for (const auto& a : n.children()) add_value(args, a);
    // The language's own name (size) is the extension's function when an argument is the extension's value.
    if (std::any_of(args.begin(), args.end(), [](const Value& v) { return v.kind == Value::Kind::Object; }))
      if (const auto* extension_fn = extension_function(n)) return extension_call(n, *extension_fn, args);
    if (outer_ && &n == outermost_ && fn->property != Property::None) keep_call(n, *fn, args);
    return call_with(n, *fn, std::move(args));
  }

  // t(i), t(i,j), t(_,j) of a tensor.
  Value tensor_at(const Value& t, const std::vector<Value>& args, const Node& n) {
    if (args.empty()) throw SourceError("a tensor is indexed with a coordinate: t(i), t(i,j) or t(_,j)", n.offset);
    try {
      return lang::tensor_at(t, args.size() == 1 ? args[0] : Value::tuple(args), diag_.notation());
    } catch (const Error& e) {
      throw_at(e, e.message(diag_.notation()), n.offset);
    }
  }

  // The extension's function of that name, if any.
  const std::function<Value(const ExtensionCall&)>* extension_function(const Node& n) const {
    if (!options_.extension) return nullptr;
    const auto it = options_.extension->functions.find(n.name);
    return it == options_.extension->functions.end() ? nullptr : &it->second;
  }

  // A C++ functional cast such as int(-2147483648): the integer, held at run time.
  Value integer_cast(const Node& n) {
    if (n.children().size() != 1 || !n.template_args().empty())
      throw SourceError(fmt::format("{}(...) converts one integer", n.name), n.offset);
    Value v = eval(n.children().front());
    if (v.kind != Value::Kind::Integer || v.integer.is_scaled_basis())
      throw SourceError(fmt::format("{}(...) converts an integer, not {}", n.name, a_kind_name(v)),
                        n.children().front().offset);
    v.integer.is_static = false;
    return v;
  }

  Value call_with(const Node& n, const lang::Function& fn, std::vector<Value> args) {
    lang::Call c{n, std::move(args), options_, diag_};
    try {
      Value v = lang::has_tensor(c.args) ? lang::call_with_tensors(c, fn.impl) : fn.impl(c);
      if (!n.template_args().empty() && !c.template_args_read)
        throw SourceError(fmt::format("{} takes no template arguments (write {}(...))", n.name, n.name), n.offset);
      return v;
    } catch (const SourceError&) {
      throw;
    } catch (const Error& e) {
      throw_at(e, prefixed(n.name, e.message(diag_.notation())), n.offset);
    }
  }

  void keep_call(const Node& n, const lang::Function& fn, const std::vector<Value>& args) {
    auto call = std::make_shared<const lang::Tree>(lang::subtree(n));
    const LanguageOptions options = options_;
    *outer_ = OuterCall{fn.property, std::string(n.name), args,
                        [call, &fn, options](std::vector<Value> operands, Diagnostics& diag) {
                          return Evaluator(options, diag).invoke(call->root(), fn, std::move(operands));
                        }};
  }

  // A name the user bound; template arguments never follow one.
  const Value* bound_value(const Node& n) {
    const auto it = options_.names.find(n.name);
    if (it == options_.names.end()) return nullptr;
    if (n.has_template_args)
      throw SourceError(
          fmt::format("'{}' is a name bound to {}; it takes no template arguments", n.name, text(it->second)),
          n.offset);
    return &it->second;
  }

  Value apply(const Node& n) { return apply_to(eval(n.children()[0]), n, 1); }

  // callee(args...), the arguments being n's children from `first` on.
  Value apply_to(const Value& evaluated, const Node& n, std::size_t first) {
    const Value& callee = unparenthesised(evaluated);
    std::vector<Value> args;
    args.reserve(n.children().size());
    std::size_t i = 0;
    for (const Node& c : n.children())
      if (i++ >= first) args.push_back(eval(c));
    return evaluate_at(callee, args, n);
  }

  // callee(args): evaluation or slicing at node n.
  Value evaluate_at(const Value& callee, const std::vector<Value>& args, const Node& n) {
    if (callee.kind == Value::Kind::Swizzle) return swizzle_at(callee.swizzle, args, n);
    if (callee.kind == Value::Kind::Tensor) return tensor_at(callee, args, n);
    if (!callee.is_layout_like())
      throw SourceError(
          fmt::format("only a layout can be evaluated with (...), this is {} {}", a_kind_name(callee), text(callee)),
          n.offset);
    if (args.empty()) throw SourceError("evaluation needs a coordinate: L(i), L(i,j) or L((i,j),k)", n.offset);
    const Value coord = args.size() == 1 ? args[0] : Value::tuple(args);
    const IntTuple& shape = callee.kind == Value::Kind::Layout ? callee.layout.shape : callee.composed().layout.shape;
    if (has_underscore(coord)) return slice_layout(callee, coord, n);
    if (!coord.is_int_tuple())
      throw SourceError(
          fmt::format("a coordinate is an integer or an int tuple, got {} {}", a_kind_name(coord), text(coord)),
          n.offset);
    const IntTuple c = coord.as_int_tuple();
    if (has_basis(c))
      throw SourceError(fmt::format("a coordinate holds integers, not the scaled basis in {}", text(c)), n.offset);
    Value result;
    try {
      // A layout with scaled-basis strides maps to coordinates (CuTe's arithmetic tuples).
      if (callee.kind == Value::Kind::Layout && is_coordinate_layout(callee.layout))
        result = Value::of(evaluate_coordinate(callee.layout, c));
      else
        result = Value::of(evaluate(callee.as_any_layout(), c));
    } catch (const Error& e) {
      throw_at(e, fmt::format("evaluating {} at {}: {}", text(callee), text(c), e.message(diag_.notation())), n.offset);
    }
    if (!coordinate_in_domain(c, shape))
      diag_.warn(
          "Index out of range",
          fmt::format("coordinate {} is outside the domain of {} (shape {}); evaluated as CuTe does, by extending the "
                      "last mode",
                      text(c), text(callee), text(shape)));
    return result;
  }

  // Sw<B,M,S>(i): CuTe's swizzle of an offset; a static offset stays static.
  Value swizzle_at(const Swizzle& sw, const std::vector<Value>& args, const Node& n) {
    if (args.size() != 1 || args[0].kind != Value::Kind::Integer || args[0].integer.is_scaled_basis())
      throw SourceError(fmt::format("a swizzle is evaluated at one integer offset: {}(i)", text(Value::of(sw))),
                        n.offset);
    const Int i = args[0].integer;
    return Value::of(Int{sw.apply(i.value), i.is_static});
  }

  Value slice_layout(const Value& callee, const Value& coord, const Node& n) {
    try {
      if (callee.kind == Value::Kind::Composed && callee.composed().pointer &&
          callee.composed().pointer->sparsity == 0 && !all_underscore(coord))
        return Value::of(slice_flagged(callee.composed(), coord));
      if (callee.kind == Value::Kind::Composed) {
        if (!all_underscore(coord)) return Value::of(slice_and_offset(coord, callee.composed(), diag_).layout);
        const Layout& l = callee.composed().layout;
        return Value::of(on_inner(callee.composed(), [&](const Layout&) {
          return Layout{slice(coord, l.shape, diag_.notation()), slice(coord, l.stride, diag_.notation())};
        }));
      }
      return Value::of(Layout{slice(coord, callee.layout.shape, diag_.notation()),
                              slice(coord, callee.layout.stride, diag_.notation())});
    } catch (const Error& e) {
      throw_at(e, e.message(diag_.notation()), n.offset);
    }
  }

  // CuTe's slice of Sw o smem_ptr o L: the slice of L, and its offset
  // (crd2idx with `_` as a static 0) kept as the flag when it is a static 0,
  // else put in the flag's place as a plain offset.
  ComposedLayout slice_flagged(const ComposedLayout& c, const Value& coord) const {
    const Layout sliced{slice(coord, c.layout.shape, diag_.notation()),
                        slice(coord, c.layout.stride, diag_.notation())};
    const Int offset = crd2idx(underscores_as_zero(coord), c.layout.shape, c.layout.stride);
    if (offset.is_constant(0)) return with_pointer_flag(c.swizzle, *c.pointer, sliced);
    return ComposedLayout{c.swizzle, offset, sliced, {}};
  }

  static IntTuple underscores_as_zero(const Value& v) {
    if (v.kind == Value::Kind::Underscore) return IntTuple(static_int(0));
    if (v.kind == Value::Kind::Integer) return IntTuple(v.integer);
    std::vector<IntTuple> out;
    for (const auto& e : v.elems) out.push_back(underscores_as_zero(e));
    return IntTuple(std::move(out));
  }

  Value chain(const Node& n) {
    std::vector<Value> parts;
    std::vector<std::size_t> offsets;
    const std::size_t count = n.children().size();
    parts.reserve(count);
    offsets.reserve(count);
    for (const auto& c : n.children()) {
      parts.push_back(eval(c));
      offsets.push_back(c.offset);
    }
    // CuTe's print form "Sw<B,M,S> o offset o layout" is one composed layout,
    // and "Sw o off o Sw' o off' o layout" a nested one.
    Value acc;
    std::size_t i = 0;
    auto is_stage = [&](std::size_t k) {
      return k + 1 < parts.size() && parts[k].kind == Value::Kind::Swizzle &&
             (parts[k + 1].kind == Value::Kind::Integer || parts[k + 1].kind == Value::Kind::PointerFlag);
    };
    auto is_layout = [&](std::size_t k) {
      return k < parts.size() && (parts[k].kind == Value::Kind::Layout || parts[k].is_int_tuple());
    };
    // The next operand, made of parts i.. (each part is read once: it is moved out).
    auto next = [&]() -> Value {
      std::size_t k = i;
      while (is_stage(k)) k += 2;
      if (k == i || !is_layout(k)) return std::move(parts[i++]);
      Layout l = parts[k].kind == Value::Kind::Layout ? std::move(parts[k].layout) : *parts[k].as_plain_layout();
      // Built as written (no identity shortcut), so that every printed form reads back as itself.
      // A pointer flag is an offset CuTe only puts on the outermost stage (the atom's own).
      for (std::size_t j = k - 1; j > i + 1; j -= 2)
        if (parts[j].kind == Value::Kind::PointerFlag)
          throw SourceError("a pointer flag such as smem_ptr[16b](unset) is the offset of the outermost swizzle only",
                            offsets[j]);
      const bool flagged = parts[i + 1].kind == Value::Kind::PointerFlag;
      ComposedLayout built{
          parts[k - 2].swizzle, flagged && k == i + 2 ? static_int(0) : parts[k - 1].integer, std::move(l), {}};
      for (std::size_t j = k - 2; j > i; j -= 2) {
        built.nested.insert(built.nested.begin(), SwizzleStage{built.swizzle, built.offset});
        built.swizzle = parts[j - 2].swizzle;
        built.offset = parts[j - 1].kind == Value::Kind::PointerFlag ? static_int(0) : parts[j - 1].integer;
      }
      if (flagged) built.pointer = parts[i + 1].pointer_flag;
      i = k + 1;
      return Value::of(std::move(built));
    };
    acc = next();
    while (i < parts.size()) {
      const std::size_t at = offsets[i];
      Value rhs = next();
      if (outer_ && &n == outermost_ && i == parts.size())
        *outer_ = OuterCall{
            Property::Composition, "composition", {acc, rhs}, [](std::vector<Value> operands, Diagnostics& diag) {
              return compose_values(operands[0], operands[1], diag);
            }};
      try {
        acc = compose_values(acc, rhs, diag_);
      } catch (const SourceError&) {
        throw;
      } catch (const Error& e) {
        throw_at(e, prefixed("composition", e.message(diag_.notation())), at);
      }
    }
    return acc;
  }

  // A value in the notation of this evaluation's messages.
  template <class T>
  std::string text(const T& x) const {
    return to_text(x, diag_.notation());
  }

  const LanguageOptions& options_;
  Diagnostics& diag_;
  const Node* outermost_;
  std::optional<OuterCall>* outer_;
};

// Parse and evaluate; `outer`, when given, receives the outermost operation.
Value run(std::string_view text, const LanguageOptions& options, Diagnostics& diag, std::optional<OuterCall>* outer) {
  if (text.size() > options.max_length)
    throw SourceError(fmt::format("expression is {} bytes long, over the limit of {} (raise it with --max-length)",
                                  text.size(), options.max_length),
                      options.max_length);
  const lang::Tree tree = lang::parse(text, options.max_depth);
  const Node& root = tree.root();
  try {
    return Evaluator(options, diag, &root, outer).eval(root);
  } catch (const StaticRequiredSourceError&) {
    throw;  // it says so already
  } catch (const SourceError& e) {
    if (!options.dynamic) throw;
    // When only the dynamic integers make CuTe refuse the expression, say so:
    // its all-static twin is what would compile.
    LanguageOptions twin = options;
    twin.dynamic = false;
    bool twin_compiles = true;
    try {
      Diagnostics aside(false, diag.notation());  // the twin's warnings are not the expression's
      Evaluator(twin, aside).eval(root);
    } catch (const Error&) {
      twin_compiles = false;
    }
    if (!twin_compiles) throw;
    throw StaticRequiredSourceError(
        std::string(e.what()) + " (with these integers static it compiles: the operation needs static integers here)",
        e.offset());
  }
}

}  // namespace

Value evaluate_expression(std::string_view text, const LanguageOptions& options, Diagnostics& diag) {
  return run(text, options, diag, nullptr);
}

Evaluation evaluate_with_operands(std::string_view text, const LanguageOptions& options, Diagnostics& diag) {
  Evaluation e;
  e.value = run(text, options, diag, &e.outer);
  return e;
}

namespace lang {

namespace {

// A call node named `name` whose children stand where the arguments were written.
Tree placed_call(Node::Kind kind, std::string_view name, const TemplateArgs* targs, std::size_t offset,
                 const std::vector<std::size_t>& arg_offsets) {
  TreeBuilder tree;
  const std::size_t self = tree.open();
  tree.at(self).kind = kind;
  tree.at(self).offset = offset;
  tree.at(self).name = tree.keep(name);
  if (targs) {
    tree.at(self).has_template_args = true;
    tree.template_args_of(self) = *targs;
  }
  for (const std::size_t at : arg_offsets) {
    const std::size_t arg = tree.open();
    tree.at(arg).kind = Node::Kind::Integer;
    tree.at(arg).offset = at;
    tree.close(arg);
  }
  tree.close(self);
  return tree.finish();
}

}  // namespace

Value call_function(std::string_view name, const TemplateArgs* targs, std::vector<Value> args, std::size_t offset,
                    const std::vector<std::size_t>& arg_offsets, const LanguageOptions& options, Diagnostics& diag) {
  const Tree tree = placed_call(Node::Kind::Call, name, targs, offset, arg_offsets);
  return Evaluator(options, diag).call_evaluated(tree.root(), std::move(args));
}

Value apply_value(const Value& callee, const std::vector<Value>& args, std::size_t offset,
                  const std::vector<std::size_t>& arg_offsets, const LanguageOptions& options, Diagnostics& diag) {
  std::vector<std::size_t> offsets{offset};
  offsets.insert(offsets.end(), arg_offsets.begin(), arg_offsets.end());
  const Tree tree = placed_call(Node::Kind::Apply, "", nullptr, offset, offsets);
  return Evaluator(options, diag).apply_evaluated(tree.root(), callee, args);
}

bool has_function(std::string_view name, const LanguageOptions& options) {
  if (find_builtin(name) || is_smem_layout_atom(name)) return true;
  return options.extension && options.extension->functions.find(name) != options.extension->functions.end();
}

}  // namespace lang

bool bindable_name(std::string_view name) {
  const auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  const auto ident = [&](char c) { return alpha(c) || (c >= '0' && c <= '9') || c == '_'; };
  if (name.empty() || !alpha(name.front()) || !std::all_of(name.begin(), name.end(), ident)) return false;
  static const std::string_view kReserved[] = {
      "o",           "Sw", "Swizzle",     "LayoutLeft", "LayoutRight",        "GenColMajor",
      "GenRowMajor", "E",  "ScaledBasis", "Underscore", "smem_ptr_flag_bits", "smem_sparse_ptr_flag_bits"};
  if (std::find(std::begin(kReserved), std::end(kReserved), name) != std::end(kReserved)) return false;
  // A CuTe type's name (Tile, Shape, Int, half_t, int) is read as that type wherever it stands.
  if (lang::cute_type(name) != lang::CuteType::None || lang::value_type_bits(name) || lang::is_run_time_integer(name) ||
      is_smem_layout_atom(name))
    return false;
  return !lang::find_builtin(name);
}

}  // namespace layoutx
