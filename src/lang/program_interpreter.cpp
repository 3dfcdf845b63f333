// Runs a ProgramTree: statements in order, names in nested scopes, C's
// integer arithmetic, calls through the function table, and the program's
// output (print, printf, std::cout; print_layout and the like through the
// host's printers) collected in a buffer that a compile-time error discards.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "function_call.hpp"
#include "layoutx/incongruent_layout.hpp"
#include "layoutx/program.hpp"
#include "layoutx/tensor.hpp"
#include "layoutx/tensor_partition.hpp"
#include "printf_format.hpp"
#include "program_ast.hpp"
#include "program_datum.hpp"
#include "value_types.hpp"

namespace layoutx {

namespace lang {

namespace {

// A failure of the running program (not of its compilation): what it printed before stays.
class RunTimeError : public SourceError {
 public:
  using SourceError::SourceError;
};

enum class Flow { Normal, Break, Continue, Return };

// The namespaces a name may be written in: cute::print, std::cout, cutlass::half_t.
std::string_view unqualified(std::string_view name, const std::vector<std::string>& aliases = {}) {
  for (;;) {
    if (name.starts_with("::")) {
      name.remove_prefix(2);
      continue;
    }
    bool stripped = false;
    for (const std::string_view scope : {"cute::", "std::", "cutlass::", "thrust::"})
      if (name.starts_with(scope)) {
        name.remove_prefix(scope.size());
        stripped = true;
      }
    for (const std::string& scope : aliases)
      if (name.starts_with(scope)) {
        name.remove_prefix(scope.size());
        stripped = true;
      }
    if (!stripped) return name;
  }
}

// Functions that move or make data: a layout program's output never depends on them.
bool is_data_movement(std::string_view name) {
  static const std::string_view kNames[] = {"copy",
                                            "copy_if",
                                            "gemm",
                                            "__syncthreads",
                                            "__syncwarp",
                                            "__threadfence",
                                            "cp_async_fence",
                                            "cp_async_wait",
                                            "clear",
                                            "fill",
                                            "axpby",
                                            "cudaMalloc",
                                            "cudaMemset",
                                            "cudaMemcpy",
                                            "cudaDeviceSynchronize",
                                            "cudaFree",
                                            "cudaGetLastError",
                                            "cudaStreamSynchronize",
                                            "cudaMallocManaged",
                                            "cudaMemcpyAsync",
                                            "cudaMemsetAsync",
                                            "warpgroup_arrive",
                                            "warpgroup_commit_batch",
                                            "warpgroup_wait",
                                            "warpgroup_fence_operand",
                                            "fence_view_async_shared",
                                            "tma_store_fence",
                                            "tma_store_arrive",
                                            "tma_store_wait",
                                            "cp_async_bulk_wait",
                                            "srand",
                                            "free",
                                            "device_init",
                                            "CUTE_CHECK_LAST",
                                            "CUTE_CHECK_ERROR",
                                            "__pipeline_commit",
                                            "__pipeline_wait_prior",
                                            "transform",
                                            "axpy",
                                            "cooperative_copy",
                                            "cooperative_gemm",
                                            "initialize_barrier",
                                            "set_barrier_transaction_bytes",
                                            "wait_barrier",
                                            "fence_barrier_init",
                                            "cluster_sync",
                                            "cluster_arrive",
                                            "cluster_arrive_relaxed",
                                            "cluster_wait"};
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

CType ctype_of(std::string_view builtin) {
  const bool is_unsigned =
      builtin.find("unsigned") != std::string_view::npos || builtin.starts_with("uint") || builtin == "size_t";
  const bool is_long = builtin.find("long") != std::string_view::npos || builtin.find("64") != std::string_view::npos ||
                       builtin == "size_t";
  if (builtin == "bool") return CType::Bool;
  if (builtin == "char" || builtin == "signed char" || builtin == "unsigned char") return CType::Char;
  if (is_long) return is_unsigned ? CType::UnsignedLong : CType::Long;
  return is_unsigned ? CType::Unsigned : CType::Int;
}

// C's conversion of an integer to a narrower type (what `int x = ...` keeps).
std::int64_t narrowed(std::int64_t v, CType c) {
  switch (c) {
    case CType::Int: return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
    case CType::Unsigned: return static_cast<std::uint32_t>(v);
    case CType::Bool: return v != 0;
    case CType::Char: return static_cast<signed char>(v);
    default: return v;
  }
}

std::int64_t builtin_size(std::string_view builtin) {
  if (builtin == "char" || builtin == "bool" || builtin == "signed char" || builtin == "unsigned char") return 1;
  if (builtin == "short" || builtin == "unsigned short") return 2;
  if (builtin.find("long") != std::string_view::npos || builtin == "double" || builtin == "size_t" ||
      builtin.find("64") != std::string_view::npos)
    return 8;
  return 4;
}

// A string literal's characters: "a\n" "b" -> a, newline, b.
std::string decode_string(std::string_view source, std::size_t offset) {
  std::string out;
  bool inside = false;
  for (std::size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    if (!inside) {
      if (c == '"') inside = true;
      continue;
    }
    if (c == '"') {
      inside = false;
      continue;
    }
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i >= source.size()) break;
    const char e = source[i];
    switch (e) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case '0': out += '\0'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'v': out += '\v'; break;
      case '\\':
      case '\'':
      case '"':
      case '?': out += e; break;
      case 'x': {
        int v = 0, n = 0;
        while (i + 1 < source.size() && std::isxdigit(static_cast<unsigned char>(source[i + 1])) && n < 2) {
          const char h = source[++i];
          v = v * 16 + (std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (std::tolower(h) - 'a' + 10));
          ++n;
        }
        out += static_cast<char>(v);
        break;
      }
      default: throw SourceError(fmt::format("the escape sequence \\{} is not one layoutx reads", e), offset + i - 1);
    }
  }
  return out;
}

// A scope's names.
struct Variable {
  Datum datum;
  std::string declared;  // the built-in type words it was declared with ("int"), "" for auto and named types
  bool is_const = false;
};

struct Alias {
  const TypeRef* type = nullptr;  // using X = type;
  std::optional<Datum> value;     // using X = decltype(e); a template parameter deduced from its argument
};

struct Frame {
  std::vector<std::map<std::string, Variable, std::less<>>> scopes;
  std::map<std::string, Alias, std::less<>> aliases;  // a function's own: its template parameters, its using
};

struct Launch {
  Dim3 thread{0, 0, 0}, cta{0, 0, 0}, block{1, 1, 1}, grid{1, 1, 1};
  bool on_device = false;
};

}  // namespace

// The interpreter: one per run (a session keeps one for all its pieces).
class Interpreter {
 public:
  Interpreter(const ProgramOptions& options, const ProgramHost& host, Diagnostics& diag)
      : options_(options), host_(host), diag_(diag) {
    language_ = options.language;
    language_.dynamic = true;
    frames_.emplace_back();
    frames_.back().scopes.emplace_back();
    launch_.block = options.block;
    launch_.grid = options.grid;
    launch_.thread = options.thread;
    launch_.cta = options.cta;
  }

  std::string& output() { return out_; }

  // A name without the namespaces it may be written in (cute::, std::, a namespace alias).
  std::string_view unqualified(std::string_view name) const { return lang::unqualified(name, namespace_aliases_); }

  // Top-level statements in order, then main (or a lone kernel) when there is one.
  void run(const ProgramTree& tree) {
    for (const Stmt& s : tree.statements) top_level(s);
    if (const auto main = functions_.find("main"); main != functions_.end()) {
      call_user(*main->second, {}, main->second->offset);
      return;
    }
    if (ran_statements_) return;
    std::vector<const UserFunction*> kernels;
    for (const auto& [name, f] : functions_)
      if (f->kernel) kernels.push_back(f.get());
    if (kernels.size() == 1) run_kernel_alone(*kernels.front());
  }

  // The CuTe values the outermost scope names (the explorer's expressions see them).
  std::map<std::string, Value, std::less<>> values() const {
    std::map<std::string, Value, std::less<>> out;
    for (const auto& [name, v] : frames_.front().scopes.front())
      if (v.datum.kind == Datum::Kind::Value) out[name] = v.datum.value;
    return out;
  }

  // Statements fed to a session: run as they come, in the outermost scope.
  void run_piece(const ProgramTree& tree) {
    for (const Stmt& s : tree.statements) top_level(s);
  }

 private:
  // ---------------- statements ----------------

  void top_level(const Stmt& s) {
    if (s.kind == Stmt::Kind::Function) {
      functions_[std::string(unqualified(s.function->name))] = s.function;
      return;
    }
    if (s.kind == Stmt::Kind::Namespace) {
      for (const Stmt& inner : s.body) top_level(inner);
      return;
    }
    if (s.kind != Stmt::Kind::Declaration && s.kind != Stmt::Kind::UsingAlias && s.kind != Stmt::Kind::UsingNamespace &&
        s.kind != Stmt::Kind::UsingDeclaration && s.kind != Stmt::Kind::NamespaceAlias &&
        s.kind != Stmt::Kind::Preprocessor && s.kind != Stmt::Kind::Empty)
      ran_statements_ = true;
    Datum ignored;
    const Flow f = exec(s, ignored);
    if (f == Flow::Break || f == Flow::Continue)
      throw SourceError(fmt::format("'{}' outside a loop", f == Flow::Break ? "break" : "continue"), s.offset);
  }

  void step(std::size_t offset) {
    if (++steps_ > options_.max_steps)
      throw RunTimeError(fmt::format("the program ran {} steps without ending (an endless loop?); raise the limit with "
                                     "--max-steps",
                                     options_.max_steps),
                         offset);
  }

  Frame& frame() { return frames_.back(); }

  struct ScopeGuard {
    explicit ScopeGuard(Interpreter& in) : in_(in) { in_.frame().scopes.emplace_back(); }
    ~ScopeGuard() { in_.frame().scopes.pop_back(); }
    Interpreter& in_;
  };

  Flow exec_block(const std::vector<Stmt>& body, Datum& result) {
    ScopeGuard scope(*this);
    for (const Stmt& s : body) {
      const Flow f = exec(s, result);
      if (f != Flow::Normal) return f;
    }
    return Flow::Normal;
  }

  Flow exec(const Stmt& s, Datum& result) {
    step(s.offset);
    switch (s.kind) {
      case Stmt::Kind::Empty:
      case Stmt::Kind::UsingNamespace:
      case Stmt::Kind::UsingDeclaration: return Flow::Normal;
      case Stmt::Kind::Preprocessor: preprocessor(s); return Flow::Normal;
      case Stmt::Kind::Block: return exec_block(s.body, result);
      case Stmt::Kind::Declaration: declare(s); return Flow::Normal;
      case Stmt::Kind::Expression: eval(s.expr); return Flow::Normal;
      case Stmt::Kind::If: {
        if (truth(eval(s.expr), s.expr.offset)) return exec_scoped(s.body[0], result);
        if (s.body.size() > 1) return exec_scoped(s.body[1], result);
        return Flow::Normal;
      }
      case Stmt::Kind::For: return exec_for(s, result);
      case Stmt::Kind::RangeFor: return exec_range_for(s, result);
      case Stmt::Kind::While:
        while (truth(eval(s.expr), s.expr.offset)) {
          step(s.offset);
          const Flow f = exec_scoped(s.body[0], result);
          if (f == Flow::Break) break;
          if (f == Flow::Return) return f;
        }
        return Flow::Normal;
      case Stmt::Kind::Do:
        for (;;) {
          step(s.offset);
          const Flow f = exec_scoped(s.body[0], result);
          if (f == Flow::Break) break;
          if (f == Flow::Return) return f;
          if (!truth(eval(s.expr), s.expr.offset)) break;
        }
        return Flow::Normal;
      case Stmt::Kind::Break: return Flow::Break;
      case Stmt::Kind::Continue: return Flow::Continue;
      case Stmt::Kind::Return: result = s.has_expr ? eval(s.expr) : Datum{}; return Flow::Return;
      case Stmt::Kind::UsingAlias: alias(s); return Flow::Normal;
      case Stmt::Kind::NamespaceAlias: namespace_aliases_.push_back(std::string(s.text) + "::"); return Flow::Normal;
      case Stmt::Kind::Namespace: return exec_block(s.body, result);
      case Stmt::Kind::Function:
        throw SourceError("a function is defined at namespace scope, not inside another function", s.offset);
      case Stmt::Kind::Launch: launch(s); return Flow::Normal;
    }
    return Flow::Normal;
  }

  // A statement that is its own scope (an if's branch, a loop's body).
  Flow exec_scoped(const Stmt& s, Datum& result) {
    if (s.kind == Stmt::Kind::Block) return exec(s, result);
    ScopeGuard scope(*this);
    return exec(s, result);
  }

  void preprocessor(const Stmt& s) {
    std::string_view t = s.text.substr(1);
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    for (const std::string_view ok : {"include", "pragma"})
      if (t.starts_with(ok)) return;
    const std::size_t word = t.find_first_of(" \t\r\n");
    throw SourceError(fmt::format("the preprocessor directive #{} is not part of what layoutx runs", t.substr(0, word)),
                      s.offset);
  }

  Flow exec_for(const Stmt& s, Datum& result) {
    ScopeGuard scope(*this);
    if (s.has_init) exec(s.body.front(), result);
    for (;;) {
      if (s.has_condition && !truth(eval(s.expr), s.expr.offset)) break;
      step(s.offset);
      const Flow f = exec_scoped(s.body.back(), result);
      if (f == Flow::Break) break;
      if (f == Flow::Return) return f;
      if (s.has_step) eval(s.step);
    }
    return Flow::Normal;
  }

  Flow exec_range_for(const Stmt& s, Datum& result) {
    std::vector<Datum> items;
    if (s.expr.kind == Expr::Kind::BraceList) {
      for (const Expr& e : s.expr.kids) items.push_back(eval(e));
    } else {
      const Datum range = eval(s.expr);
      if (range.kind == Datum::Kind::Value && range.value.kind == Value::Kind::Tuple) {
        for (const Value& v : range.value.elems) items.push_back(Datum::of(v));
      } else {
        throw SourceError("a range-for runs over a brace list {a, b, ...} or a tuple", s.expr.offset);
      }
    }
    for (const Datum& item : items) {
      step(s.offset);
      ScopeGuard scope(*this);
      bind(s.declarators.front(), s.type.get(), item, s.declarators.front().offset);
      const Flow f = exec_scoped(s.body.front(), result);
      if (f == Flow::Break) break;
      if (f == Flow::Return) return f;
    }
    return Flow::Normal;
  }

  void alias(const Stmt& s) {
    Alias a;
    if (s.type->decltype_of) {
      a.value = eval(*s.type->decltype_of);
    } else if (!s.type->has_targs && s.type->builtin.empty()) {
      // using X = Y; where Y is an alias or a type name.
      if (const Alias* other = find_alias(unqualified(s.type->name)))
        a = *other;
      else
        a.type = s.type.get();
    } else {
      a.type = s.type.get();
    }
    (frames_.size() > 1 ? frame().aliases : aliases_)[std::string(s.text)] = std::move(a);
  }

  const Alias* find_alias(std::string_view name) const {
    if (frames_.size() > 1) {
      const auto local = frames_.back().aliases.find(name);
      if (local != frames_.back().aliases.end()) return &local->second;
    }
    const auto it = aliases_.find(name);
    return it == aliases_.end() ? nullptr : &it->second;
  }

  // The element type a `T*` points to, by its value-type name: built-in
  // words as written, a named type unqualified, an alias (using T = float;
  // template parameters) resolved to what it names.
  std::string pointee(const TypeRef& type) {
    if (!type.builtin.empty()) return type.builtin;
    std::string_view n = unqualified(type.name);
    for (int hops = 0; hops < 16; ++hops) {
      const Alias* a = find_alias(n);
      if (!a || !a->type || a->type->pointer) break;
      if (!a->type->builtin.empty()) return a->type->builtin;
      n = unqualified(a->type->name);
    }
    return std::string(n);
  }

  // ---------------- declarations ----------------

  void declare(const Stmt& s) {
    for (const Declarator& d : s.declarators) {
      Datum init = initial_value(*s.type, d);
      // `float* A = nullptr;`, `T *p = nullptr;`: the pointer takes the declared element type.
      if ((d.pointer || s.type->pointer) && init.kind == Datum::Kind::Pointer && init.text.empty())
        init.text = pointee(*s.type);
      bind(d, d.pointer || d.array ? nullptr : s.type.get(), std::move(init), d.offset,
           s.type->is_const || s.is_constexpr);
    }
  }

  Datum initial_value(const TypeRef& type, const Declarator& d) {
    if (d.array) {
      Datum p;
      p.kind = Datum::Kind::Pointer;
      p.text = pointee(type);
      return p;
    }
    const bool builtin = !type.builtin.empty() && type.builtin != "auto";
    switch (d.init) {
      case Declarator::Init::None:
        if (type.builtin == "auto") throw SourceError("an auto declaration needs an initializer", d.offset);
        if (type.pointer || d.pointer) {
          Datum p;
          p.kind = Datum::Kind::Pointer;
          p.text = pointee(type);
          return p;
        }
        if (builtin) return convert_to_builtin(Datum::integer(0), type.builtin, d.offset);
        return type_value(type, {}, d.offset);
      case Declarator::Init::Equals: return eval(d.args.front());
      case Declarator::Init::Braces:
      case Declarator::Init::Parens: {
        std::vector<Datum> args;
        for (const Expr& a : d.args) args.push_back(eval(a));
        if (type.builtin == "auto") {
          if (args.size() != 1) throw SourceError("an auto declaration takes one initializer", d.offset);
          return args.front();
        }
        if (builtin || type.pointer || d.pointer) {
          if (args.empty()) return convert_to_builtin(Datum::integer(0), type.builtin, d.offset);
          if (args.size() != 1) throw SourceError(fmt::format("{} takes one initializer", type.text), d.offset);
          return args.front();
        }
        return type_value(type, args, d.offset);
      }
    }
    return {};
  }

  // Bind a declared name (or a structured binding's names) in the current scope.
  void bind(const Declarator& d, const TypeRef* type, Datum value, std::size_t offset, bool is_const = false) {
    auto& scope = frame().scopes.back();
    if (!d.bindings.empty()) {
      if (value.kind != Datum::Kind::Value || value.value.kind != Value::Kind::Tuple ||
          value.value.elems.size() != d.bindings.size())
        throw SourceError(fmt::format("a structured binding of {} names needs a tuple of {} elements",
                                      d.bindings.size(), d.bindings.size()),
                          offset);
      for (std::size_t i = 0; i < d.bindings.size(); ++i)
        scope[std::string(d.bindings[i])] = Variable{Datum::of(value.value.elems[i]), "", is_const};
      return;
    }
    std::string declared;
    if (type && !type->builtin.empty() && type->builtin != "auto" && !type->pointer) {
      declared = type->builtin;
      value = convert_to_builtin(std::move(value), declared, offset);
    } else if (type && !type->pointer && !type->has_targs && type->builtin.empty()) {
      // A named type that is a built-in one under another name (size_t, int32_t, an alias of int).
      const std::string_view n = unqualified(type->name);
      if (is_run_time_integer(n) || n == "int64_t" || n == "int32_t" || n == "uint64_t" || n == "uint32_t") {
        declared = std::string(n);
        value = convert_to_builtin(std::move(value), declared, offset);
      } else if (const Alias* a = find_alias(n); a && a->type && !a->type->builtin.empty()) {
        declared = a->type->builtin;
        value = convert_to_builtin(std::move(value), declared, offset);
      }
    }
    scope[std::string(d.name)] = Variable{std::move(value), declared, is_const};
  }

  // A value converted to a built-in type: int, unsigned, long, bool, char, float, double.
  Datum convert_to_builtin(Datum d, std::string_view builtin, std::size_t offset) {
    if (builtin == "float" || builtin == "double" || builtin == "long double") {
      if (d.kind == Datum::Kind::Real) {
        if (builtin == "float") d.real = static_cast<float>(d.real);
        return d;
      }
      if (d.is_integer()) {
        double v = static_cast<double>(d.value.integer.value);
        if (builtin == "float") v = static_cast<float>(v);
        return Datum::real_number(v);
      }
      throw SourceError(fmt::format("cannot convert {} to {}", describe(d), builtin), offset);
    }
    if (builtin == "void") return Datum{};
    const CType c = ctype_of(builtin);
    if (d.kind == Datum::Kind::Real) {
      if (!std::isfinite(d.real) || std::fabs(d.real) >= 9.2e18)
        throw SourceError(fmt::format("{} does not fit in {}", d.real, builtin), offset);
      return Datum::integer(narrowed(static_cast<std::int64_t>(c == CType::Bool ? d.real != 0 : d.real), c), c);
    }
    if (d.is_integer()) return Datum::integer(narrowed(d.value.integer.value, c), c);
    if (d.kind == Datum::Kind::Pointer && c == CType::Bool) return Datum::integer(d.address != 0, c);
    throw SourceError(fmt::format("cannot convert {} to {}", describe(d), builtin), offset);
  }

  // ---------------- names ----------------

  Variable* find_variable(std::string_view name) {
    Frame& f = frame();
    for (auto it = f.scopes.rbegin(); it != f.scopes.rend(); ++it) {
      const auto v = it->find(name);
      if (v != it->end()) return &v->second;
    }
    if (frames_.size() > 1) {
      auto& globals = frames_.front().scopes.front();
      const auto v = globals.find(name);
      if (v != globals.end()) return &v->second;
    }
    return nullptr;
  }

  std::optional<Datum> cuda_builtin(std::string_view name) {
    Datum d;
    d.kind = Datum::Kind::Dim3;
    d.ctype = CType::Unsigned;
    if (name == "threadIdx")
      d.dim = launch_.thread;
    else if (name == "blockIdx")
      d.dim = launch_.cta;
    else if (name == "blockDim")
      d.dim = launch_.block;
    else if (name == "gridDim")
      d.dim = launch_.grid;
    else
      return std::nullopt;
    return d;
  }

  // T::value: the integer a static integer type holds (a constexpr int, printed without the mark).
  Datum scoped_member(const Datum& d, const Expr& e) {
    if (e.scoped != "value")
      throw SourceError(fmt::format("::{} is not a member layoutx knows (::value is)", e.scoped), e.offset);
    if (d.is_integer() && (d.value.integer.is_static || d.ctype == CType::Bool))
      return Datum::integer(d.value.integer.value, d.ctype);
    throw StaticRequiredSourceError(fmt::format("::value needs a static integer type, this is {}", describe(d)),
                                    e.offset);
  }

  // is_static<T>::value and the like: what CuTe's traits answer of T's value.
  std::optional<Datum> trait(const Expr& e, std::string_view name) {
    if (name != "is_static" && name != "is_integral" && name != "is_constant") return std::nullopt;
    if (e.targs.empty() || !e.targs[0].type) throw SourceError(fmt::format("{}<T> takes a type", name), e.offset);
    const Value v = value_of(type_value(*e.targs[0].type, {}, e.offset), e.offset);
    bool answer = false;
    if (name == "is_static") answer = all_static(v);
    if (name == "is_integral") answer = v.kind == Value::Kind::Integer;
    if (name == "is_constant") {
      if (e.targs.size() != 2 || !e.targs[1].type)
        throw SourceError("is_constant<N, T> takes an integer and a type", e.offset);
      const Value t = value_of(type_value(*e.targs[1].type, {}, e.offset), e.offset);
      answer = t.kind == Value::Kind::Integer && t.integer.is_static && e.targs[0].value == nullptr;
    }
    return Datum::integer(answer, CType::Bool);
  }

  static bool all_static(const Value& v) {
    switch (v.kind) {
      case Value::Kind::Integer: return v.integer.is_static;
      case Value::Kind::Tuple: return std::all_of(v.elems.begin(), v.elems.end(), all_static);
      case Value::Kind::Layout: return all_static(Value::of(v.layout.shape)) && all_static(Value::of(v.layout.stride));
      case Value::Kind::Composed: return v.composed().offset.is_static && all_static(Value::of(v.composed().layout));
      default: return true;
    }
  }

  Datum name_value(const Expr& e) {
    const std::string_view name = unqualified(e.text);
    // N::value of an alias N (the grammar reads N::value as one qualified name).
    if (const std::size_t colons = name.rfind("::");
        colons != std::string_view::npos && e.scoped.empty() && !e.has_targs) {
      if (const Alias* a = find_alias(name.substr(0, colons))) {
        Expr member;
        member.offset = e.offset;
        member.scoped = name.substr(colons + 2);
        return scoped_member(a->value ? *a->value : type_value(*a->type, {}, e.offset), member);
      }
    }
    if (!e.scoped.empty()) {
      if (e.has_targs)
        if (auto t = trait(e, name)) return *t;
      return scoped_member(typed_value(e), e);
    }
    if (!e.has_targs && !e.braced) {
      if (Variable* v = find_variable(name)) return v->datum;
      if (auto d = cuda_builtin(name)) return *d;
      if (name == "cout" || name == "cerr") {
        Datum d;
        d.kind = Datum::Kind::Stream;
        d.ctype = name == "cerr" ? CType::Char : CType::Int;  // which stream
        return d;
      }
      if (name == "endl") {
        Datum d;
        d.kind = Datum::Kind::Endl;
        return d;
      }
      if (name == "flush") return Datum{};
      if (const Alias* a = find_alias(name)) {
        Datum d;
        d.kind = Datum::Kind::Type;
        d.type = a->type;
        if (a->value) {
          d.type_has_value = true;
          d.value = a->value->value;
        }
        return d;
      }
    }
    if (e.braced) {
      std::vector<Datum> args;
      for (const Expr& k : e.kids) args.push_back(eval(k));
      return named_type_value(e, args);
    }
    return named_type_value(e, {});
  }

  // `Name<args>{...}` / `Name{}` / a bare CuTe name (_, LayoutRight, an atom):
  // the value CuTe's type or name stands for.
  Datum named_type_value(const Expr& e, const std::vector<Datum>& args) {
    const std::string_view name = unqualified(e.text);
    if (!e.has_targs) {
      if (const Alias* a = find_alias(name)) {
        if (a->value) {
          if (!args.empty()) throw SourceError(fmt::format("{}{{...}} takes no arguments here", name), e.offset);
          return *a->value;
        }
        return type_value(*a->type, args, e.offset);
      }
      if (name == "dim3") return dim3_of(args, e.offset);
      if (Variable* v = find_variable(name); v && e.braced)
        throw SourceError(fmt::format("'{}' is a variable, not a type", name), e.offset);
    }
    if (!args.empty()) {
      if (name == "dim3") return dim3_of(args, e.offset);
      throw SourceError(
          fmt::format("{}{{...}} with arguments is not a value layoutx builds; write {}{{}} or call make_...", e.text,
                      name),
          e.offset);
    }
    if (e.has_targs && e.braced)
      if (auto t = tuple_type_value(name, e.targs)) return *t;
    if (!e.has_targs && e.braced && is_underscore_type(name)) return Datum::of(Value::tag(Value::Kind::Underscore));
    if (e.has_targs && !e.braced && name.ends_with("_v")) return variable_template(e, name);
    std::string text(name);
    if (e.has_targs) text += template_text(e.targs, e.offset);
    if (e.braced) text += "{}";
    return Datum::of(language_value(text, e.offset));
  }

  // CuTe's variable templates: sizeof_bits_v<T>, and NAME_v<T> = NAME(T{}) as a constexpr integer.
  Datum variable_template(const Expr& e, std::string_view name) {
    if (e.targs.size() != 1 || !e.targs[0].type) throw SourceError(fmt::format("{}<T> takes one type", name), e.offset);
    const TypeRef& t = *e.targs[0].type;
    if (name == "sizeof_bits_v") {
      const TypeRef* resolved = &t;
      if (const Alias* a = find_alias(unqualified(t.name)); a && a->type && !t.has_targs) resolved = a->type;
      const std::string type_name(resolved->builtin.empty() ? unqualified(resolved->name)
                                                            : std::string_view(resolved->builtin));
      if (const auto bits = value_type_bits(type_name)) return Datum::integer(*bits, CType::UnsignedLong);
      if (!resolved->builtin.empty()) return Datum::integer(builtin_size(resolved->builtin) * 8, CType::UnsignedLong);
      throw SourceError(fmt::format("sizeof_bits_v<{}>: not a value type layoutx knows", type_name), e.offset);
    }
    const std::string_view function = name.substr(0, name.size() - 2);
    if (!has_function(function, language_)) throw SourceError(fmt::format("unknown name '{}'", name), e.offset);
    const Value v = value_of(type_value(t, {}, e.offset), e.offset);
    const Value r = call_function(function, nullptr, {v}, e.offset, {t.offset}, language_, diag_);
    if (r.kind != Value::Kind::Integer || !r.integer.is_static)
      throw StaticRequiredSourceError(
          fmt::format("{}<{}> needs a static answer, {} is {}", name, t.text, function, to_text(r, Notation{true})),
          e.offset);
    return Datum::integer(r.integer.value);
  }

  Datum dim3_of(const std::vector<Datum>& args, std::size_t offset) {
    if (args.size() > 3) throw SourceError("dim3 takes at most three integers", offset);
    Datum d;
    d.kind = Datum::Kind::Dim3;
    for (std::size_t i = 0; i < args.size(); ++i) d.dim[i] = integer_of(args[i], offset);
    return d;
  }

  // The value of a type: `T{}` (args empty) or `T{a, b}` / `T(a, b)`.
  Datum type_value(const TypeRef& type, const std::vector<Datum>& args, std::size_t offset) {
    if (type.decltype_of) return eval(*type.decltype_of);
    if (!type.builtin.empty() && type.builtin != "auto") {
      if (args.empty()) return convert_to_builtin(Datum::integer(0), type.builtin, offset);
      return convert_to_builtin(args.front(), type.builtin, offset);
    }
    const std::string_view name = unqualified(type.name);
    if (type.has_targs && args.empty())
      if (auto t = tuple_type_value(name, type.targs)) return *t;
    if (!type.has_targs) {
      if (const Alias* a = find_alias(name)) {
        if (a->value) return *a->value;
        return type_value(*a->type, args, offset);
      }
      if (is_underscore_type(name) && !find_variable(name)) return Datum::of(Value::tag(Value::Kind::Underscore));
      if (name == "dim3") return dim3_of(args, offset);
      if (is_run_time_integer(name))
        return convert_to_builtin(args.empty() ? Datum::integer(0) : args.front(), name, offset);
    }
    if (!args.empty())
      throw SourceError(
          fmt::format("{}(...) with arguments is not a value layoutx builds; write {}{{}} or call make_...", type.text,
                      name),
          offset);
    std::string text(name);
    if (type.has_targs) text += template_text(type.targs, offset);
    text += "{}";
    return Datum::of(language_value(text, offset));
  }

  // Shape<...>{}, Stride<...>{}, Step<...>{}, Coord<...>{}, Tile<...>{}, tuple<...>{}:
  // the tuple of its arguments' values (X and Underscore are `_`).
  std::optional<Datum> tuple_type_value(std::string_view name, const std::vector<TemplateArg>& targs) {
    static const std::string_view kTupleTypes[] = {"Shape", "Stride", "Step", "Coord", "Tile", "tuple"};
    if (std::find(std::begin(kTupleTypes), std::end(kTupleTypes), name) == std::end(kTupleTypes)) return std::nullopt;
    std::vector<Value> elems;
    for (const TemplateArg& a : targs) {
      if (!a.type)
        throw SourceError(fmt::format("{}<...> takes types (_4, Int<4>, int, Shape<...>)", name), a.value->offset);
      elems.push_back(value_of(type_value(*a.type, {}, a.type->offset), a.type->offset));
    }
    return Datum::of(Value::tuple(std::move(elems)));
  }

  static bool is_underscore_type(std::string_view name) { return name == "X" || name == "Underscore"; }

  // `<a, b>` as the expression language reads it: types by their names (aliases
  // resolved), constant expressions by their values.
  std::string template_text(const std::vector<TemplateArg>& targs, std::size_t offset) {
    std::string out = "<";
    for (std::size_t i = 0; i < targs.size(); ++i) {
      if (i) out += ',';
      out += targs[i].type ? type_text(*targs[i].type, offset) : constant_text(*targs[i].value);
    }
    return out + ">";
  }

  std::string constant_text(const Expr& e) {
    const Datum d = eval(e);
    if (!d.is_integer())
      throw SourceError(fmt::format("a template argument must be an integer, this is {}", describe(d)), e.offset);
    return std::to_string(d.value.integer.value);
  }

  std::string type_text(const TypeRef& t, std::size_t offset) {
    if (t.decltype_of)
      throw SourceError("decltype(...) inside template arguments is not something layoutx reads; name it with using",
                        t.offset);
    if (!t.builtin.empty()) return t.builtin;
    const std::string_view name = unqualified(t.name);
    if (!t.has_targs) {
      if (Variable* v = find_variable(name)) {  // Int<N>: N a constant
        if (!v->datum.is_integer())
          throw SourceError(fmt::format("'{}' is used as a template argument but holds {}", name, describe(v->datum)),
                            t.offset);
        return std::to_string(v->datum.value.integer.value);
      }
      if (const Alias* a = find_alias(name)) {
        if (a->type) return type_text(*a->type, offset);
        throw SourceError(fmt::format("'{}' names decltype(...) and cannot stand in template arguments", name),
                          t.offset);
      }
    }
    std::string out(name);
    if (t.has_targs) out += template_text(t.targs, offset);
    return out;
  }

  // A value the expression language builds from its text (a CuTe type's value).
  Value language_value(const std::string& text, std::size_t offset) {
    try {
      return evaluate_expression(text, language_, diag_);
    } catch (const SourceError& e) {
      throw SourceError(e.what(), offset);
    } catch (const Error& e) {
      throw SourceError(e.message(Notation{true}), offset);
    }
  }

  // Template arguments of a call, as the function table takes them.
  TemplateArgs call_template_args(const std::vector<TemplateArg>& targs) {
    TemplateArgs out;
    for (const TemplateArg& a : targs) {
      if (a.value) {
        const Datum d = eval(*a.value);
        if (!d.is_integer())
          throw SourceError(fmt::format("a template argument must be an integer, this is {}", describe(d)),
                            a.value->offset);
        out.values.push_back(d.value.integer.value);
        out.types.emplace_back();
        continue;
      }
      const TypeRef* t = a.type.get();
      const std::string_view name = unqualified(t->builtin.empty() ? t->name : std::string_view(t->builtin));
      if (!t->has_targs && t->builtin.empty()) {
        if (Variable* v = find_variable(name); v && v->datum.is_integer()) {
          out.values.push_back(v->datum.value.integer.value);
          out.types.emplace_back();
          continue;
        }
        if (const Alias* al = find_alias(name); al && al->type) t = al->type;
      }
      const std::string type_name(unqualified(t->builtin.empty() ? t->name : std::string_view(t->builtin)));
      const auto bits = value_type_bits(type_name);
      if (!bits)
        throw SourceError(fmt::format("'{}' is no integer and no value type layoutx knows", type_name), t->offset);
      out.values.push_back(*bits);
      out.types.push_back(type_name);
    }
    return out;
  }

  // ---------------- expressions ----------------

  Datum eval(const Expr& e) {
    switch (e.kind) {
      case Expr::Kind::Integer: {
        CType c = e.unsigned_literal ? (e.long_literal ? CType::UnsignedLong : CType::Unsigned)
                                     : (e.long_literal ? CType::Long : CType::Int);
        if (c == CType::Int && e.integer > std::numeric_limits<std::int32_t>::max()) c = CType::Long;
        if (c == CType::Unsigned && e.integer > std::numeric_limits<std::uint32_t>::max()) c = CType::UnsignedLong;
        return Datum::integer(e.integer, c);
      }
      case Expr::Kind::Real: return Datum::real_number(e.real);
      case Expr::Kind::String: return Datum::string(decode_string(e.text, e.offset));
      case Expr::Kind::Char: {
        const std::string s = decode_string("\"" + std::string(e.text.substr(1, e.text.size() - 2)) + "\"", e.offset);
        return Datum::integer(s.empty() ? 0 : static_cast<signed char>(s[0]), CType::Char);
      }
      case Expr::Kind::Bool: return Datum::integer(e.integer, CType::Bool);
      case Expr::Kind::Null: {
        Datum d;
        d.kind = Datum::Kind::Pointer;
        return d;
      }
      case Expr::Kind::Name: return name_value(e);
      case Expr::Kind::BraceList: {
        std::vector<Value> elems;
        for (const Expr& k : e.kids) elems.push_back(value_of(eval(k), k.offset));
        return Datum::of(Value::tuple(std::move(elems)));
      }
      case Expr::Kind::Decltype:
        if (!e.scoped.empty()) return scoped_member(eval(e.kids.front()), e);
        return eval(e.kids.front());
      case Expr::Kind::Sizeof: return Datum::integer(size_of(e), CType::UnsignedLong);
      case Expr::Kind::Call: return call(e);
      case Expr::Kind::Member: return member(e);
      case Expr::Kind::Subscript: {
        const Datum callee = eval(e.kids[0]);
        const Datum index = eval(e.kids[1]);
        if (callee.kind == Datum::Kind::Dim3)
          return Datum::integer(
              callee.dim.at(std::size_t(std::clamp<std::int64_t>(integer_of(index, e.kids[1].offset), 0, 2))));
        return Datum::of(apply_value(value_of(callee, e.kids[0].offset), {value_of(index, e.kids[1].offset)}, e.offset,
                                     {e.kids[1].offset}, language_, diag_));
      }
      case Expr::Kind::PostIncrement:
      case Expr::Kind::PostDecrement: {
        Variable& v = lvalue(e.kids[0]);
        const Datum before = v.datum;
        store(v, arithmetic(before, e.kind == Expr::Kind::PostIncrement ? "+" : "-", Datum::integer(1), e.offset),
              e.offset);
        return before;
      }
      case Expr::Kind::Prefix: return prefix(e);
      case Expr::Kind::Cast: return cast(*e.type, eval(e.kids[0]), e.offset);
      case Expr::Kind::Binary: return binary(e);
      case Expr::Kind::Conditional: return truth(eval(e.kids[0]), e.kids[0].offset) ? eval(e.kids[1]) : eval(e.kids[2]);
      case Expr::Kind::Assign: return assign(e);
      case Expr::Kind::Comma: {
        Datum last;
        for (const Expr& k : e.kids) last = eval(k);
        return last;
      }
    }
    throw InternalError("unknown expression", e.offset);
  }

  // (T)x: a conversion to a built-in type, or a pointer's new element type.
  Datum cast(const TypeRef& type, Datum d, std::size_t offset) {
    if (!type.pointer) return convert_to_builtin(std::move(d), type.builtin, offset);
    if (d.kind != Datum::Kind::Pointer && !d.is_integer())
      throw SourceError(fmt::format("({}) converts a pointer or an address, not {}", type.text, describe(d)), offset);
    Datum p;
    p.kind = Datum::Kind::Pointer;
    p.address = d.kind == Datum::Kind::Pointer ? d.address : d.value.integer.value;
    p.text = pointee(type);
    return p;
  }

  std::int64_t size_of(const Expr& e) {
    if (e.type) {
      const TypeRef& t = *e.type;
      if (t.pointer) return 8;
      if (!t.builtin.empty()) return builtin_size(t.builtin);
      const std::string_view name = unqualified(t.name);
      if (Variable* v = find_variable(name)) return datum_size(v->datum, e.offset);
      const TypeRef* resolved = &t;
      if (const Alias* a = find_alias(name); a && a->type) resolved = a->type;
      if (!resolved->builtin.empty()) return builtin_size(resolved->builtin);
      if (const auto bits = value_type_bits(unqualified(resolved->name))) return std::max(1, *bits / 8);
      throw SourceError(fmt::format("sizeof({}) is not something layoutx knows", t.text), e.offset);
    }
    return datum_size(eval(e.kids.front()), e.offset);
  }

  std::int64_t datum_size(const Datum& d, std::size_t offset) {
    switch (d.kind) {
      case Datum::Kind::Real: return 8;
      case Datum::Kind::Pointer: return 8;
      case Datum::Kind::Value:
        if (d.is_integer() && !d.value.integer.is_static)
          return d.ctype == CType::Long || d.ctype == CType::UnsignedLong ? 8
                 : d.ctype == CType::Char || d.ctype == CType::Bool       ? 1
                                                                          : 4;
        break;
      default: break;
    }
    throw SourceError(fmt::format("sizeof of {} is not something layoutx knows", describe(d)), offset);
  }

  Datum member(const Expr& e) {
    const Datum object = eval(e.kids[0]);
    if (object.kind == Datum::Kind::Dim3) {
      const std::string_view m = e.text;
      if (m == "x" || m == "y" || m == "z") return Datum::integer(object.dim[std::size_t(m[0] - 'x')], CType::Unsigned);
    }
    throw SourceError(fmt::format("{} has no member '{}' layoutx knows (a method is called: x.{}(...))",
                                  describe(object), e.text, e.text),
                      e.offset);
  }

  Variable& lvalue(const Expr& e) {
    if (e.kind != Expr::Kind::Name || e.has_targs || e.braced)
      throw SourceError("layoutx assigns to variables only", e.offset);
    Variable* v = find_variable(unqualified(e.text));
    if (!v) throw SourceError(fmt::format("unknown variable '{}'", e.text), e.offset);
    if (v->is_const) throw SourceError(fmt::format("'{}' is const: it cannot be assigned", e.text), e.offset);
    return *v;
  }

  void store(Variable& v, Datum d, std::size_t offset) {
    v.datum = v.declared.empty() ? std::move(d) : convert_to_builtin(std::move(d), v.declared, offset);
  }

  // t(i, j) = x, t[i] = x: an element of a register array (a predicate, an
  // index), which a later t(i, j) reads back and copy_if follows.
  std::optional<Datum> assign_element(const Expr& e) {
    const Expr& target = e.kids[0];
    if ((target.kind != Expr::Kind::Call && target.kind != Expr::Kind::Subscript) ||
        target.kids.front().kind == Expr::Kind::Member)
      return std::nullopt;
    const Datum array = eval(target.kids.front());
    if (array.kind != Datum::Kind::Value || array.value.kind != Value::Kind::Tensor) return std::nullopt;
    if (target.kids.size() < 2) throw SourceError("an element is written at a coordinate: t(i) = x", target.offset);
    std::vector<Value> coord;
    for (std::size_t i = 1; i < target.kids.size(); ++i)
      coord.push_back(value_of(eval(target.kids[i]), target.kids[i].offset));
    const Value at = coord.size() == 1 ? coord.front() : Value::tuple(std::move(coord));
    if (!at.is_int_tuple() || has_underscore(at))
      throw SourceError("an element is written at an integer coordinate (a slice t(_, i) is not assignable)",
                        target.offset);
    const Tensor& t = as_tensor(array.value);
    Datum rhs = eval(e.kids[1]);
    try {
      if (e.text != "=") {
        const Datum now = Datum::integer(element(t, at.as_int_tuple(), Notation{true}).value().value);
        rhs = arithmetic(now, e.text.substr(0, e.text.size() - 1), rhs, e.offset);
      }
      if (!rhs.is_integer())
        throw SourceError(
            fmt::format("layoutx keeps the bool and integer elements of a register array, not {}", describe(rhs)),
            e.kids[1].offset);
      store_element(t, at.as_int_tuple(), rhs.value.integer.value, Notation{true});
    } catch (const SourceError&) {
      throw;
    } catch (const Error& err) {
      throw SourceError(err.message(Notation{true}), target.offset);
    }
    const bool is_bool = t.iterator.element == "bool";
    return Datum::integer(is_bool ? rhs.value.integer.value != 0 : rhs.value.integer.value,
                          is_bool ? CType::Bool : CType::Int);
  }

  Datum assign(const Expr& e) {
    if (auto element_written = assign_element(e)) return *element_written;
    Variable& target = lvalue(e.kids[0]);
    Datum rhs = eval(e.kids[1]);
    if (e.text == "=") {
      if (target.declared.empty() && target.datum.kind == Datum::Kind::Value &&
          target.datum.value.kind != rhs.value.kind && rhs.kind == Datum::Kind::Value &&
          target.datum.is_integer() != rhs.is_integer())
        throw SourceError(
            fmt::format("cannot assign {} to a variable holding {}", describe(rhs), describe(target.datum)), e.offset);
      // An auto variable keeps its C type: a static integer assigned to an int stays an int.
      if (target.declared.empty() && target.datum.is_integer() && !target.datum.value.integer.is_static &&
          rhs.is_integer())
        rhs = Datum::integer(rhs.value.integer.value, target.datum.ctype);
      store(target, std::move(rhs), e.offset);
      return target.datum;
    }
    const std::string op(e.text.substr(0, e.text.size() - 1));
    store(target, arithmetic(target.datum, op, rhs, e.offset), e.offset);
    return target.datum;
  }

  Datum prefix(const Expr& e) {
    const std::string_view op = e.text;
    if (op == "++" || op == "--") {
      Variable& v = lvalue(e.kids[0]);
      store(v, arithmetic(v.datum, op == "++" ? "+" : "-", Datum::integer(1), e.offset), e.offset);
      return v.datum;
    }
    Datum d = eval(e.kids[0]);
    if (op == "&") return d;  // an address passed to cudaMalloc and the like
    if (op == "*") throw SourceError("layoutx does not dereference pointers", e.offset);
    if (op == "+") return d;
    if (op == "!") {
      const bool t = truth(d, e.offset);
      if (d.is_static_integer()) return Datum::of(Value::of(static_int(!t)));
      return Datum::integer(!t, CType::Bool);
    }
    if (d.kind == Datum::Kind::Real) {
      if (op == "-") return Datum::real_number(-d.real);
      throw SourceError(fmt::format("operator {} takes an integer", op), e.offset);
    }
    if (!d.is_integer())
      throw SourceError(fmt::format("operator {} takes a number, this is {}", op, describe(d)), e.offset);
    const Int i = d.value.integer;
    if (op == "-") {
      if (i.value == std::numeric_limits<std::int64_t>::min())
        throw SourceError("integer overflow in negation", e.offset);
      return with_type(d, Int{-i.value, i.is_static});
    }
    return with_type(d, Int{narrowed(~i.value, d.ctype), i.is_static});
  }

  static Datum with_type(const Datum& like, Int i) {
    Datum d = Datum::of(Value::of(i));
    d.ctype = like.ctype;
    return d;
  }

  Datum binary(const Expr& e) {
    const std::string_view op = e.text;
    if (op == "&&" || op == "||") {
      const Datum a = eval(e.kids[0]);
      const bool ta = truth(a, e.kids[0].offset);
      if (op == "&&" ? !ta : ta)
        return a.is_static_integer() ? Datum::of(Value::of(static_int(ta))) : Datum::integer(ta, CType::Bool);
      const Datum b = eval(e.kids[1]);
      const bool tb = truth(b, e.kids[1].offset);
      if (a.is_static_integer() && b.is_static_integer()) return Datum::of(Value::of(static_int(tb)));
      return Datum::integer(tb, CType::Bool);
    }
    Datum a = eval(e.kids[0]);
    if (op == "<<" && a.kind == Datum::Kind::Stream) {
      stream_out(eval(e.kids[1]), e.kids[1].offset);
      return a;
    }
    return arithmetic(a, op, eval(e.kids[1]), e.offset);
  }

  // p + n, n + p, p - n: the pointer moved by n elements of its type.
  std::optional<Datum> pointer_arithmetic(const Datum& a, std::string_view op, const Datum& b, std::size_t offset) {
    const bool left = a.kind == Datum::Kind::Pointer && b.is_integer() && (op == "+" || op == "-");
    const bool right = b.kind == Datum::Kind::Pointer && a.is_integer() && op == "+";
    if (!left && !right) return std::nullopt;
    Datum p = left ? a : b;
    const auto bits = value_type_bits(p.text);
    if (!bits || *bits % 8 != 0)
      throw SourceError(fmt::format("arithmetic on a pointer to {} needs a value type of whole bytes", p.text), offset);
    std::int64_t n = (left ? b : a).value.integer.value;
    if (op == "-") n = checked_mul(n, -1, "a pointer's offset");
    p.address = checked_add(p.address, checked_mul(n, *bits / 8, "a pointer's offset"), "a pointer's address");
    return p;
  }

  // C's arithmetic on two numbers; on two static integers, CuTe's (the result is static).
  Datum arithmetic(const Datum& a, std::string_view op, const Datum& b, std::size_t offset) {
    if (a.kind == Datum::Kind::Real || b.kind == Datum::Kind::Real) return real_arithmetic(a, op, b, offset);
    if (auto r = cute_arithmetic(a, op, b, offset)) return *r;
    if (auto r = pointer_arithmetic(a, op, b, offset)) return *r;
    if (!a.is_integer() || !b.is_integer()) {
      if ((op == "==" || op == "!=") && a.kind == Datum::Kind::Value && b.kind == Datum::Kind::Value) {
        const bool same = to_text(a.value, Notation{true}) == to_text(b.value, Notation{true});
        return Datum::integer(op == "==" ? same : !same, CType::Bool);
      }
      throw SourceError(fmt::format("operator {} takes integers, got {} and {}", op, describe(a), describe(b)), offset);
    }
    const std::int64_t x = a.value.integer.value, y = b.value.integer.value;
    const bool is_static = a.value.integer.is_static && b.value.integer.is_static;
    // The usual arithmetic conversions: the wider type, unsigned when either is.
    const auto rank = [](CType c) { return c == CType::Long || c == CType::UnsignedLong ? 2 : 1; };
    const auto is_unsigned = [](CType c) { return c == CType::Unsigned || c == CType::UnsignedLong; };
    CType c = rank(a.ctype) >= rank(b.ctype) ? a.ctype : b.ctype;
    if (c == CType::Bool || c == CType::Char) c = CType::Int;
    if (rank(a.ctype) == rank(b.ctype) && (is_unsigned(a.ctype) || is_unsigned(b.ctype)))
      c = rank(a.ctype) == 2 ? CType::UnsignedLong : CType::Unsigned;
    if (a.value.integer.is_static && !b.value.integer.is_static)
      c = b.ctype == CType::Bool || b.ctype == CType::Char ? CType::Int : b.ctype;
    if (!a.value.integer.is_static && b.value.integer.is_static)
      c = a.ctype == CType::Bool || a.ctype == CType::Char ? CType::Int : a.ctype;
    const auto result = [&](std::int64_t v, bool comparison = false) {
      if (comparison) return is_static ? Datum::of(Value::of(static_int(v))) : Datum::integer(v, CType::Bool);
      if (is_static) return Datum::of(Value::of(static_int(v)));
      return Datum::integer(narrowed(v, c), c);
    };
    const auto fail = [&](const std::string& what) -> Datum {
      if (is_static) throw SourceError(what, offset);
      throw RunTimeError(what, offset);
    };
    std::int64_t r = 0;
    const bool u = is_unsigned(c) && !is_static;
    const auto ux = static_cast<std::uint64_t>(narrowed(x, c)), uy = static_cast<std::uint64_t>(narrowed(y, c));
    if (op == "+") {
      if (__builtin_add_overflow(x, y, &r)) return fail("integer overflow in +");
      return result(r);
    }
    if (op == "-") {
      if (__builtin_sub_overflow(x, y, &r)) return fail("integer overflow in -");
      return result(r);
    }
    if (op == "*") {
      if (__builtin_mul_overflow(x, y, &r)) return fail("integer overflow in *");
      return result(r);
    }
    if (op == "/" || op == "%") {
      if (y == 0) return fail(fmt::format("division by zero ({} {} 0)", x, op));
      if (x == std::numeric_limits<std::int64_t>::min() && y == -1) return fail("integer overflow in /");
      if (u) return result(static_cast<std::int64_t>(op == "/" ? ux / uy : ux % uy));
      return result(op == "/" ? x / y : x % y);
    }
    if (op == "<<" || op == ">>") {
      if (y < 0 || y >= 64) return fail(fmt::format("shift by {} bits", y));
      if (op == ">>") return result(u ? static_cast<std::int64_t>(ux >> y) : x >> y);
      if (x < 0 || (y > 0 && (static_cast<std::uint64_t>(x) >> (63 - y)) != 0)) {
        if (!is_static && (c == CType::Int || c == CType::Unsigned) && y < 32)
          return result(static_cast<std::int64_t>(static_cast<std::uint64_t>(x) << y));
        return fail("integer overflow in <<");
      }
      return result(x << y);
    }
    if (op == "&") return result(x & y);
    if (op == "|") return result(x | y);
    if (op == "^") return result(x ^ y);
    if (op == "==") return result(x == y, true);
    if (op == "!=") return result(x != y, true);
    if (u) {
      if (op == "<") return result(ux < uy, true);
      if (op == ">") return result(ux > uy, true);
      if (op == "<=") return result(ux <= uy, true);
      if (op == ">=") return result(ux >= uy, true);
    }
    if (op == "<") return result(x < y, true);
    if (op == ">") return result(x > y, true);
    if (op == "<=") return result(x <= y, true);
    if (op == ">=") return result(x >= y, true);
    throw SourceError(fmt::format("operator {} is not one layoutx runs", op), offset);
  }

  // + - * / % with a static integer or a scaled basis on either side: CuTe's
  // operators (E<0>{} * 4 is 4@0, _0{} * m stays _0); a dynamic result keeps
  // the C type of the dynamic operand.
  std::optional<Datum> cute_arithmetic(const Datum& a, std::string_view op, const Datum& b, std::size_t offset) {
    const auto is_int = [](const Datum& d) {
      return d.kind == Datum::Kind::Value && d.value.kind == Value::Kind::Integer;
    };
    if (!is_int(a) || !is_int(b)) return std::nullopt;
    const Int x = a.value.integer, y = b.value.integer;
    if (!x.is_static && !y.is_static && !x.is_scaled_basis() && !y.is_scaled_basis()) return std::nullopt;
    if (x.is_static && y.is_static && !x.is_scaled_basis() && !y.is_scaled_basis())
      return std::nullopt;  // C<a> op C<b>: below
    if (op != "+" && op != "-" && op != "*" && op != "/" && op != "%") {
      if (x.is_scaled_basis() || y.is_scaled_basis())
        throw SourceError(fmt::format("operator {} of a scaled basis is not CuTe's", op), offset);
      return std::nullopt;
    }
    Int r;
    try {
      r = op == "+" ? x + y : op == "-" ? x - y : op == "*" ? x * y : op == "/" ? x / y : x % y;
    } catch (const Error& e) {
      throw RunTimeError(e.message(Notation{true}), offset);
    }
    Datum d = Datum::of(Value::of(r));
    const CType c = x.is_static ? b.ctype : a.ctype;
    d.ctype = c == CType::Bool || c == CType::Char ? CType::Int : c;
    if (!r.is_static && !r.is_scaled_basis()) d.value.integer.value = narrowed(r.value, d.ctype);
    return d;
  }

  Datum real_arithmetic(const Datum& a, std::string_view op, const Datum& b, std::size_t offset) {
    const auto number = [&](const Datum& d) {
      if (d.kind == Datum::Kind::Real) return d.real;
      if (d.is_integer()) return static_cast<double>(d.value.integer.value);
      throw SourceError(fmt::format("operator {} takes numbers, got {}", op, describe(d)), offset);
    };
    const double x = number(a), y = number(b);
    if (op == "+") return Datum::real_number(x + y);
    if (op == "-") return Datum::real_number(x - y);
    if (op == "*") return Datum::real_number(x * y);
    if (op == "/") return Datum::real_number(x / y);
    if (op == "<") return Datum::integer(x < y, CType::Bool);
    if (op == ">") return Datum::integer(x > y, CType::Bool);
    if (op == "<=") return Datum::integer(x <= y, CType::Bool);
    if (op == ">=") return Datum::integer(x >= y, CType::Bool);
    if (op == "==") return Datum::integer(x == y, CType::Bool);
    if (op == "!=") return Datum::integer(x != y, CType::Bool);
    throw SourceError(fmt::format("operator {} takes integers", op), offset);
  }

  bool truth(const Datum& d, std::size_t offset) {
    if (d.is_integer()) return d.value.integer.value != 0;
    if (d.kind == Datum::Kind::Real) return d.real != 0;
    if (d.kind == Datum::Kind::Pointer) return d.address != 0;
    throw SourceError(fmt::format("a condition must be a number, this is {}", describe(d)), offset);
  }

  std::int64_t integer_of(const Datum& d, std::size_t offset) {
    if (d.is_integer()) return d.value.integer.value;
    throw SourceError(fmt::format("expected an integer, this is {}", describe(d)), offset);
  }

  Value value_of(const Datum& d, std::size_t offset) {
    if (d.kind == Datum::Kind::Value) return d.value;
    if (d.kind == Datum::Kind::Pointer) {  // a T* (make_gmem_ptr(A) takes it), at its known address
      auto bits = value_type_bits(d.text);
      if (!bits) bits = builtin_type_bits(d.text);
      if (!bits)
        throw SourceError(fmt::format("a pointer to {} is no pointer to a value type layoutx knows", d.text), offset);
      return raw_pointer(d.text, *bits, d.address);
    }
    if (d.kind == Datum::Kind::Type && d.type_has_value) return d.value;
    if (d.kind == Datum::Kind::Dim3) {
      std::vector<Value> elems;
      for (auto v : d.dim) elems.push_back(Value::of(dynamic_int(v)));
      return Value::tuple(std::move(elems));
    }
    throw SourceError(fmt::format("{} is not a CuTe value", describe(d)), offset);
  }

  std::string describe(const Datum& d) const {
    switch (d.kind) {
      case Datum::Kind::Void: return "nothing (void)";
      case Datum::Kind::Value: return fmt::format("{} {}", a_kind_name(d.value), to_text(d.value, Notation{true}));
      case Datum::Kind::Real: return fmt::format("the floating-point number {}", d.real);
      case Datum::Kind::String: return "a string";
      case Datum::Kind::Stream: return "a stream";
      case Datum::Kind::Endl: return "std::endl";
      case Datum::Kind::Dim3: return "a dim3";
      case Datum::Kind::Pointer: return "a pointer";
      case Datum::Kind::Type: return "a type";
    }
    return "a value";
  }

  // ---------------- calls ----------------

  std::vector<Datum> eval_args(const Expr& call, std::size_t first = 1) {
    std::vector<Datum> args;
    for (std::size_t i = first; i < call.kids.size(); ++i) args.push_back(eval(call.kids[i]));
    return args;
  }

  Datum call(const Expr& e) {
    const Expr& callee = e.kids.front();
    if (callee.kind == Expr::Kind::Member) return method(e, callee);
    if (callee.kind != Expr::Kind::Name || callee.braced) {
      const Datum f = eval(callee);
      return apply(f, e);
    }
    const std::string_view name = unqualified(callee.text);
    if (!callee.has_targs) {
      if (Variable* v = find_variable(name)) {
        const Datum f = v->datum;
        return apply(f, e);
      }
      if (const Alias* a = find_alias(name)) {
        const std::vector<Datum> args = eval_args(e);
        if (a->value) return *a->value;
        return type_value(*a->type, args, e.offset);
      }
    }
    if (auto d = builtin_call(e, callee, name)) return *d;
    if (name == "dim3" && !callee.has_targs) return dim3_of(eval_args(e), e.offset);
    if (const auto f = functions_.find(name); f != functions_.end()) {
      if (f->second->kernel)
        throw SourceError(fmt::format("'{}' is a kernel: launch it with {}<<<grid, block>>>(...)", name, name),
                          e.offset);
      return call_user(*f->second, eval_args(e), e.offset);
    }
    if (has_function(name, language_)) return table_call(e, name, callee, eval_args(e), 1);
    if (callee.has_targs || is_type_name(name)) {  // Layout<...>(), MMA_Atom<...>(): the type's value
      if (e.kids.size() > 1)
        throw SourceError(fmt::format("{}(...) with arguments is not a value layoutx builds", callee.text), e.offset);
      return typed_value(callee);
    }
    throw SourceError(fmt::format("unknown function '{}'", name), callee.offset);
  }

  // The value of the type `e` names (an alias, or Name<targs>): what T{} is.
  Datum typed_value(const Expr& e) {
    const std::string_view name = unqualified(e.text);
    if (!e.has_targs)
      if (const Alias* a = find_alias(name)) return a->value ? *a->value : type_value(*a->type, {}, e.offset);
    if (e.has_targs)
      if (auto t = tuple_type_value(name, e.targs)) return *t;
    std::string text(name);
    if (e.has_targs) text += template_text(e.targs, e.offset);
    text += "{}";
    return Datum::of(language_value(text, e.offset));
  }

  static bool is_type_name(std::string_view name) {
    return name == "LayoutLeft" || name == "LayoutRight" || name == "Underscore" || name.starts_with("SM") ||
           name.starts_with("UniversalCopy") || name.starts_with("UniversalFMA");
  }

  // callee(args) where the callee is a value: a layout evaluated or sliced.
  Datum apply(const Datum& f, const Expr& e) {
    if (f.kind == Datum::Kind::Type) {
      const std::vector<Datum> args = eval_args(e);
      if (f.type_has_value) return Datum::of(f.value);
      return type_value(*f.type, args, e.offset);
    }
    std::vector<Value> args;
    std::vector<std::size_t> offsets;
    for (std::size_t i = 1; i < e.kids.size(); ++i) {
      args.push_back(value_of(eval(e.kids[i]), e.kids[i].offset));
      offsets.push_back(e.kids[i].offset);
    }
    return Datum::of(apply_value(value_of(f, e.kids[0].offset), args, e.offset, offsets, language_, diag_));
  }

  // x.f(args) is f(x, args), as CuTe's member functions are its free functions' first argument.
  Datum method(const Expr& e, const Expr& member) {
    const Datum object = eval(member.kids.front());
    std::vector<Value> args{value_of(object, member.kids.front().offset)};
    std::vector<std::size_t> offsets{member.kids.front().offset};
    for (std::size_t i = 1; i < e.kids.size(); ++i) {
      args.push_back(value_of(eval(e.kids[i]), e.kids[i].offset));
      offsets.push_back(e.kids[i].offset);
    }
    const std::string_view name = member.text;
    if (auto part = composed_part(args.front(), name, e)) return *part;
    TemplateArgs targs;
    if (member.has_targs) targs = call_template_args(member.targs);
    return Datum::of(host_output_of(call_function(name, member.has_targs ? &targs : nullptr, std::move(args),
                                                  member.offset, offsets, language_, diag_),
                                    member.offset));
  }

  // What CuTe writes on the host while computing a value: making a GMMA
  // descriptor reads a shared-memory address, which only a GPU has
  // (cast_smem_ptr_to_uint's invalid control path prints and goes on).
  Value host_output_of(Value v, std::size_t offset) {
    if (!launch_.on_device && v.kind == Value::Kind::Tensor && as_tensor(v).iterator.memory == Memory::GmmaDescriptor)
      write("ERROR: cast_smem_ptr_to_uint not supported but used.\n", offset);
    return v;
  }

  // A composed layout's members: layout_a() (the swizzle), offset(), layout_b() (the layout).
  std::optional<Datum> composed_part(const Value& v, std::string_view name, const Expr& e) {
    if (v.kind != Value::Kind::Composed || e.kids.size() != 1 || has_function(name, language_)) return std::nullopt;
    const ComposedLayout& c = v.composed();
    if (!c.nested.empty()) return std::nullopt;
    if (name == "layout_b") return Datum::of(Value::of(c.layout));
    if (name == "layout_a") return Datum::of(Value::of(c.swizzle));
    if (name == "offset") return Datum::of(c.pointer ? Value::of(*c.pointer) : Value::of(c.offset));
    return std::nullopt;
  }

  Datum table_call(const Expr& e, std::string_view name, const Expr& callee, const std::vector<Datum>& data,
                   std::size_t first) {
    std::vector<Value> args;
    std::vector<std::size_t> offsets;
    for (std::size_t i = 0; i < data.size(); ++i) {
      args.push_back(value_of(data[i], e.kids[first + i].offset));
      offsets.push_back(e.kids[first + i].offset);
    }
    // A program may build a layout of incongruent shape and stride and print
    // it, as CuTe does; any other use refuses it as a value of another kind.
    if (name == "make_layout" && !callee.has_targs && args.size() == 2 && args[0].is_int_tuple() &&
        args[1].is_int_tuple())
      return Datum::of(make_layout_as_built(args[0].as_int_tuple(), args[1].as_int_tuple()));
    // C++ picks CuTe's overloads by type: blocked_product and raked_product
    // take two Layouts, where the expression language also reads a shape.
    if ((name == "blocked_product" || name == "raked_product") && args.size() == 2 &&
        (args[1].kind == Value::Kind::Integer || args[1].kind == Value::Kind::Tuple))
      throw SourceError(fmt::format("no matching function for call to {}(Layout, {}): CuTe's {} takes two layouts",
                                    name, args[1].kind == Value::Kind::Integer ? "int" : "tuple", name),
                        offsets[1]);
    TemplateArgs targs;
    if (callee.has_targs) targs = call_template_args(callee.targs);
    return Datum::of(host_output_of(call_function(name, callee.has_targs ? &targs : nullptr, std::move(args),
                                                  callee.offset, offsets, language_, diag_),
                                    callee.offset));
  }

  Datum call_user(const UserFunction& f, std::vector<Datum> args, std::size_t offset) {
    // 64 frames: each nested call holds several interpreter frames on the
    // machine stack, and deeper recursion than a layout program needs would
    // outgrow an 8 MiB stack in a sanitizer build first.
    if (frames_.size() > 64) throw RunTimeError("calls nested more than 64 deep (endless recursion?)", offset);
    if (args.size() > f.parameters.size())
      throw SourceError(fmt::format("{} takes {} argument{}, got {}", f.name, f.parameters.size(),
                                    f.parameters.size() == 1 ? "" : "s", args.size()),
                        offset);
    Frame callee;
    callee.scopes.emplace_back();
    frames_.push_back(std::move(callee));
    struct Pop {
      ~Pop() { in.frames_.pop_back(); }
      Interpreter& in;
    } pop{*this};
    for (std::size_t i = 0; i < f.parameters.size(); ++i) {
      const Parameter& p = f.parameters[i];
      Datum value;
      if (i < args.size())
        value = std::move(args[i]);
      else if (p.has_default)
        value = eval(p.default_value);
      else if (f.name == "main")
        value = Datum::integer(p.type && p.type->builtin == "int" ? 1 : 0);  // argc, argv of a run without arguments
      else
        throw SourceError(fmt::format("{} takes {} arguments, got {}", f.name, f.parameters.size(), args.size()),
                          offset);
      // A template's parameter type (ProblemShape shape_MNK) is deduced: it names the argument's value.
      if (f.is_template && p.type && !p.type->pointer && !p.type->has_targs && p.type->builtin.empty() &&
          !p.type->decltype_of && value.kind == Datum::Kind::Value) {
        Alias deduced;
        deduced.value = value;
        frame().aliases[std::string(unqualified(p.type->name))] = std::move(deduced);
      }
      if (p.name.empty()) continue;
      Declarator d;
      d.name = p.name;
      bind(d, p.type.get(), std::move(value), offset);
    }
    Datum result;
    exec(f.body, result);
    return result;
  }

  // The functions a program calls that the interpreter answers itself.
  std::optional<Datum> builtin_call(const Expr& e, const Expr& callee, std::string_view name) {
    if (name == "print" || name == "printf") {
      print_call(e, name == "printf");
      return Datum{};
    }
    if (host_.printers.count(name)) {
      std::vector<Value> args;
      for (std::size_t i = 1; i < e.kids.size(); ++i) args.push_back(value_of(eval(e.kids[i]), e.kids[i].offset));
      try {
        write(host_.printers.find(name)->second(args, Notation{true}), e.offset);
      } catch (const SourceError&) {
        throw;
      } catch (const Error& err) {
        throw SourceError(fmt::format("{}: {}", name, err.message(Notation{true})), e.offset);
      }
      return Datum{};
    }
    if (name == "print_tensor") {  // of a coordinate tensor: its elements are its coordinates
      if (e.kids.size() != 2) throw SourceError("print_tensor takes one tensor", e.offset);
      const Value t = value_of(eval(e.kids[1]), e.kids[1].offset);
      if (t.kind != Value::Kind::Tensor)
        throw SourceError(fmt::format("print_tensor takes a tensor, not {}", a_kind_name(t)), e.kids[1].offset);
      try {
        write(print_tensor_text(as_tensor(t), Notation{true}), e.offset);
      } catch (const Error& err) {
        throw SourceError(fmt::format("print_tensor: {}", err.message(Notation{true})), e.offset);
      }
      return Datum{};
    }
    if (name == "static_assert" || name == "CUTE_STATIC_ASSERT" || name == "CUTE_STATIC_ASSERT_V") {
      static_assertion(e, name);
      return Datum{};
    }
    if (name == "assert" || name == "CUTE_RUNTIME_ASSERT") {
      if (e.kids.size() < 2) throw SourceError(fmt::format("{} takes a condition", name), e.offset);
      if (!truth(eval(e.kids[1]), e.kids[1].offset))
        throw RunTimeError(
            fmt::format("Assertion `{}' failed.",
                        std::string_view(text_).substr(e.kids[1].offset, e.kids[1].end - e.kids[1].offset)),
            e.offset);
      return Datum{};
    }
    if (name == "thread0" || name == "thread" || name == "block" || name == "block0") return guard(e, name);
    if (auto d = warp_and_cluster_query(e, name)) return *d;
    if (is_data_movement(name)) {
      const std::vector<Datum> args = eval_args(e);
      check_statement(e, callee, name, args);
      if (host_.on_data_movement) moved_data(e, name, args);
      return Datum::integer(0);
    }
    if (name == "static_cast" || name == "int" || name == "unsigned" || name == "size_t" || name == "int64_t" ||
        name == "int32_t" || name == "uint32_t" || name == "uint64_t" || name == "long" || name == "float" ||
        name == "double" || name == "bool" || name == "char") {
      std::string type(name);
      if (name == "static_cast") {
        if (!callee.has_targs || callee.targs.size() != 1 || !callee.targs[0].type)
          throw SourceError("static_cast takes one type: static_cast<int>(x)", e.offset);
        const TypeRef& t = *callee.targs[0].type;
        type = !t.builtin.empty() ? t.builtin : std::string(unqualified(t.name));
        if (const Alias* a = find_alias(type); a && a->type && !a->type->builtin.empty()) type = a->type->builtin;
      }
      if (e.kids.size() != 2) throw SourceError(fmt::format("{}(...) converts one value", name), e.offset);
      return convert_to_builtin(eval(e.kids[1]), type, e.offset);
    }
    if ((name == "max" || name == "min") && !has_function(name, language_)) {
      const std::vector<Datum> args = eval_args(e);
      if (args.size() != 2) throw SourceError(fmt::format("{} takes two values", name), e.offset);
      const Datum less = arithmetic(args[0], "<", args[1], e.offset);
      return (less.value.integer.value != 0) == (name == "min") ? args[0] : args[1];
    }
    if (name == "exit") throw RunTimeError("the program called exit", e.offset);
    return std::nullopt;
  }

  // The SM90 barrier and warpgroup statements take what CuTe declares them
  // to (an mbarrier is a uint64_t in shared memory; warpgroup_wait<N> a
  // static N in [0,7]); the extension checks the calls through its values.
  void check_statement(const Expr& e, const Expr& callee, std::string_view name, const std::vector<Datum>& args) {
    const auto arity = [&](std::size_t lo, std::size_t hi, std::string_view usage) {
      if (args.size() < lo || args.size() > hi)
        throw SourceError(
            fmt::format("{} takes {}, got {} argument{}", name, usage, args.size(), args.size() == 1 ? "" : "s"),
            e.offset);
    };
    const auto integer = [&](std::size_t i, std::string_view what) {
      if (!args[i].is_integer())
        throw SourceError(fmt::format("{}: argument {} is {}, expected {}", name, i + 1, describe(args[i]), what),
                          e.kids[i + 1].offset);
    };
    if (name == "initialize_barrier" || name == "set_barrier_transaction_bytes" || name == "wait_barrier") {
      if (name == "initialize_barrier")
        arity(1, 2, "the barrier and the thread count: initialize_barrier(bar, 1)");
      else
        arity(2, 2,
              name == "wait_barrier" ? "the barrier and the phase: wait_barrier(bar, phase)"
                                     : "the barrier and the bytes: set_barrier_transaction_bytes(bar, bytes)");
      for (std::size_t i = 0; i < args.size(); ++i)
        integer(i, i == 0 ? "the shared-memory barrier (a uint64_t)" : "an integer");
    } else if (name == "warpgroup_arrive" || name == "warpgroup_commit_batch") {
      arity(0, 0, "no arguments");
    } else if (name == "warpgroup_wait") {
      arity(0, 0, "no arguments");
      if (!callee.has_targs || callee.targs.size() != 1 || !callee.targs[0].value)
        throw SourceError(
            "warpgroup_wait takes the batches left in flight as its template argument: warpgroup_wait<0>()", e.offset);
      const std::int64_t n = integer_of(eval(*callee.targs[0].value), e.offset);
      if (n < 0 || n > 7) throw SourceError("static assertion failed: WGMMA wait: N must be in range [0, 7]", e.offset);
    } else if (name == "warpgroup_fence_operand") {
      arity(1, 1, "the accumulator fragment (a register tensor) or one register");
      const Datum& a = args[0];
      const bool reg = a.is_integer() || a.kind == Datum::Kind::Real;
      const bool fragment = a.kind == Datum::Kind::Value && a.value.kind == Value::Kind::Tensor &&
                            as_tensor(a.value).iterator.memory == Memory::Register;
      if (!reg && !fragment)
        throw SourceError(fmt::format("warpgroup_fence_operand takes a register fragment (CUTE_STATIC_ASSERT "
                                      "is_rmem), not {}",
                                      describe(a)),
                          e.kids[1].offset);
    }
    if (!language_.extension || !language_.extension->check_data_movement) return;
    std::vector<Value> values;
    for (const Datum& d : args) values.push_back(d.kind == Datum::Kind::Value ? d.value : Value{});
    try {
      language_.extension->check_data_movement(name, values);
    } catch (const SourceError&) {
      throw;
    } catch (const Error& err) {
      throw SourceError(fmt::format("{}: {}", name, err.message(Notation{true})), e.offset);
    }
  }

  // Tell the host about a data movement; what it cannot follow is the program's error at the call.
  void moved_data(const Expr& e, std::string_view name, const std::vector<Datum>& args) {
    DataMovement m;
    m.name = name;
    m.call = std::string_view(text_).substr(e.offset, e.end - e.offset);
    m.offset = e.offset;
    for (const Datum& d : args) {
      const bool value = d.kind == Datum::Kind::Value || (d.kind == Datum::Kind::Pointer && value_type_bits(d.text));
      m.args.push_back(value ? value_of(d, e.offset) : Value{});
    }
    m.on_device = launch_.on_device;
    m.thread = launch_.thread;
    m.cta = launch_.cta;
    m.block = launch_.block;
    try {
      host_.on_data_movement(m);
    } catch (const Error& err) {
      throw SourceError(fmt::format("{}: {}", name, err.message(Notation{true})), e.offset);
    }
  }

  Datum guard(const Expr& e, std::string_view name) {
    const std::vector<Datum> args = eval_args(e);
    std::int64_t tid = 0, bid = 0;
    if (name == "thread") {
      if (args.empty() || args.size() > 2) throw SourceError("thread(t) or thread(t, b)", e.offset);
      tid = integer_of(args[0], e.kids[1].offset);
      if (args.size() == 2) bid = integer_of(args[1], e.kids[2].offset);
    } else if (name == "block") {
      if (args.size() != 1) throw SourceError("block(b) takes a block index", e.offset);
      bid = integer_of(args[0], e.kids[1].offset);
    }
    if (!launch_.on_device) return Datum::integer(1, CType::Bool);  // CuTe's guards are true on the host
    const auto& t = launch_.thread;
    const auto& b = launch_.cta;
    const auto& bd = launch_.block;
    const auto& gd = launch_.grid;
    const std::int64_t thread_linear = t[0] + t[1] * bd[0] + t[2] * bd[0] * bd[1];
    const std::int64_t block_linear = b[0] + b[1] * gd[0] + b[2] * gd[0] * gd[1];
    const bool block_ok = block_linear == bid;
    if (name == "block" || name == "block0") return Datum::integer(block_ok, CType::Bool);
    return Datum::integer(block_ok && thread_linear == tid, CType::Bool);
  }

  // CuTe's and CUTLASS's warp and cluster queries (cute/arch/cluster_sm90.hpp,
  // cutlass/cutlass.h) as their device code answers them for a launch without
  // clusters (each CTA a cluster of one): elect_one_sync elects each warp's
  // lowest lane (elect.sync of a converged warp), the CUTLASS indices read
  // threadIdx.x. On the host they answer as CuTe's host paths: true, 0, (1,1,1).
  std::optional<Datum> warp_and_cluster_query(const Expr& e, std::string_view name) {
    static constexpr std::string_view kNames[] = {
        "elect_one_sync",     "block_rank_in_cluster",   "block_id_in_cluster", "cluster_shape",
        "cluster_id_in_grid", "cluster_grid_dims",       "canonical_lane_idx",  "canonical_warp_idx_sync",
        "canonical_warp_idx", "canonical_warp_group_idx"};
    if (std::find(std::begin(kNames), std::end(kNames), name) == std::end(kNames)) return std::nullopt;
    if (e.kids.size() != 1) throw SourceError(fmt::format("{} takes no arguments", name), e.offset);
    const bool device = launch_.on_device;
    const auto& t = launch_.thread;
    const auto& bd = launch_.block;
    const std::int64_t linear = t[0] + t[1] * bd[0] + t[2] * bd[0] * bd[1];
    const auto dim3 = [](const Dim3& d) {
      Datum out;
      out.kind = Datum::Kind::Dim3;
      out.ctype = CType::Unsigned;
      out.dim = d;
      return out;
    };
    if (name == "elect_one_sync") return Datum::integer(!device || linear % 32 == 0, CType::Unsigned);
    if (name == "block_rank_in_cluster") return Datum::integer(0, CType::Unsigned);
    if (name == "block_id_in_cluster") return dim3(Dim3{0, 0, 0});
    if (name == "cluster_shape") return dim3(Dim3{1, 1, 1});
    if (name == "cluster_id_in_grid") return dim3(device ? launch_.cta : Dim3{0, 0, 0});
    if (name == "cluster_grid_dims") return dim3(device ? launch_.grid : Dim3{0, 0, 0});
    if (!device) return Datum::integer(0);
    if (name == "canonical_lane_idx") return Datum::integer(t[0] % 32);
    if (name == "canonical_warp_group_idx") return Datum::integer(t[0] / 128);
    return Datum::integer(t[0] / 32);  // canonical_warp_idx(_sync)
  }

  void static_assertion(const Expr& e, std::string_view name) {
    if (e.kids.size() < 2) throw SourceError(fmt::format("{} takes a condition", name), e.offset);
    const Expr& cond = e.kids[1];
    const Datum d = eval(cond);
    if (name == "CUTE_STATIC_ASSERT_V" && !d.is_static_integer())
      throw StaticRequiredSourceError(
          fmt::format("CUTE_STATIC_ASSERT_V needs a static condition (decltype(x)::value): {} is {}",
                      std::string_view(text_).substr(cond.offset, cond.end - cond.offset), describe(d)),
          cond.offset);
    if (truth(d, cond.offset)) return;
    std::string message =
        fmt::format("static assertion failed: {}", std::string_view(text_).substr(cond.offset, cond.end - cond.offset));
    if (e.kids.size() > 2) {
      const Datum m = eval(e.kids[2]);
      if (m.kind == Datum::Kind::String) message = fmt::format("static assertion failed: {}", m.text);
    }
    throw SourceError(message, e.offset);
  }

  // print(x), print(x, y), print("format", args...), printf("format", args...).
  void print_call(const Expr& e, bool is_printf) {
    std::vector<Datum> args = eval_args(e);
    if (args.empty()) throw SourceError(fmt::format("{} needs an argument", is_printf ? "printf" : "print"), e.offset);
    if (is_printf || (args.front().kind == Datum::Kind::String && args.size() > 1)) {
      if (args.front().kind != Datum::Kind::String)
        throw SourceError("printf's first argument is a format string", e.kids[1].offset);
      std::vector<FormatArgument> format_args;
      for (std::size_t i = 1; i < args.size(); ++i)
        format_args.push_back(format_argument(args[i], e.kids[i + 1].offset));
      try {
        write(c_format(args.front().text, format_args), e.offset);
      } catch (const SourceError&) {
        throw;
      } catch (const Error& err) {
        throw SourceError(err.message(Notation{true}), e.offset);
      }
      return;
    }
    for (std::size_t i = 0; i < args.size(); ++i) write(print_text(args[i], e.kids[i + 1].offset), e.offset);
  }

  FormatArgument format_argument(const Datum& d, std::size_t offset) {
    FormatArgument a;
    switch (d.kind) {
      case Datum::Kind::Value:
        if (!d.is_integer())
          throw SourceError(
              fmt::format("printf passes numbers and strings; this is {} (print it with print)", describe(d)), offset);
        a.integer = d.value.integer.value;
        return a;
      case Datum::Kind::Real:
        a.kind = FormatArgument::Kind::Real;
        a.real = d.real;
        return a;
      case Datum::Kind::String:
        a.kind = FormatArgument::Kind::String;
        a.text = d.text;
        return a;
      case Datum::Kind::Pointer:
        a.kind = FormatArgument::Kind::Pointer;
        a.integer = d.address;
        return a;
      default: throw SourceError(fmt::format("printf cannot pass {}", describe(d)), offset);
    }
  }

  // What CuTe's print(x) writes.
  // CuTe's print(x): an atom's or a tiled operation's every line, ending with its newline.
  static std::string printed(const Value& v) {
    if (v.kind != Value::Kind::Object) return to_text(v, Notation{true});
    return v.object->print(Notation{true}) + (v.object->print_ends_line() ? "\n" : "");
  }

  std::string print_text(const Datum& d, std::size_t offset) {
    switch (d.kind) {
      case Datum::Kind::Value:
        if (d.is_integer() && !d.value.integer.is_static) {
          const std::int64_t v = d.value.integer.value;
          switch (d.ctype) {
            case CType::Char: return std::string(1, static_cast<char>(v));
            case CType::Unsigned: return std::to_string(static_cast<std::uint32_t>(v));
            case CType::UnsignedLong: return std::to_string(static_cast<std::uint64_t>(v));
            case CType::Int: return std::to_string(static_cast<std::int32_t>(v));
            default: return std::to_string(v);
          }
        }
        return printed(d.value);
      case Datum::Kind::Real: return fmt::format("{:f}", d.real);
      case Datum::Kind::String: return d.text;
      case Datum::Kind::Dim3: return fmt::format("({},{},{})", d.dim[0], d.dim[1], d.dim[2]);
      case Datum::Kind::Type:
        if (d.type_has_value) return printed(d.value);
        break;
      default: break;
    }
    throw SourceError(fmt::format("print of {} is not something layoutx writes", describe(d)), offset);
  }

  // What std::cout << x writes.
  void stream_out(const Datum& d, std::size_t offset) {
    switch (d.kind) {
      case Datum::Kind::Endl: write("\n", offset); return;
      case Datum::Kind::Void: return;
      case Datum::Kind::Real: {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%g", d.real);
        write(buf, offset);
        return;
      }
      case Datum::Kind::Value:
        if (d.is_integer() && !d.value.integer.is_static && d.ctype == CType::Bool) {
          write(d.value.integer.value ? "1" : "0", offset);
          return;
        }
        write(print_text(d, offset), offset);
        return;
      default: write(print_text(d, offset), offset);
    }
  }

  void write(std::string_view text, std::size_t offset) {
    if (out_.size() + text.size() > options_.max_output)
      throw RunTimeError(
          fmt::format("the program's output passed {} bytes (raise the limit with --max-output)", options_.max_output),
          offset);
    out_.append(text);
  }

  // ---------------- kernels ----------------

  void launch(const Stmt& s) {
    const auto f = functions_.find(unqualified(s.target));
    if (f == functions_.end() || !f->second->kernel)
      throw SourceError(fmt::format("'{}' is not a __global__ function of the program", s.target), s.offset);
    if (s.launch.size() < 2) throw SourceError("a launch gives a grid and a block: <<<grid, block>>>", s.offset);
    const Dim3 grid = dim_of(eval(s.launch[0]), s.launch[0].offset);
    const Dim3 block = dim_of(eval(s.launch[1]), s.launch[1].offset);
    std::vector<Datum> args;
    for (const Expr& a : s.args) args.push_back(eval(a));
    given_arguments(*f->second, args, s.offset);
    const Launch saved = launch_;
    launch_.grid = grid;
    launch_.block = block;
    launch_.on_device = true;
    struct Restore {
      ~Restore() { in.launch_ = saved; }
      Interpreter& in;
      Launch saved;
    } restore{*this, saved};
    launch_offset_ = s.offset;
    for_each_thread(grid, block, [&] { call_user(*f->second, args, s.offset); });
  }

  // The kernel's parameters named in the options' kernel_arguments take their values.
  void given_arguments(const UserFunction& f, std::vector<Datum>& args, std::size_t offset) {
    for (const auto& argument : options_.kernel_arguments) {
      // Not a structured binding: clang before 16 (emscripten's) cannot capture one in a lambda.
      const auto& name = argument.first;
      const auto& value = argument.second;
      const auto p =
          std::find_if(f.parameters.begin(), f.parameters.end(), [&](const Parameter& q) { return q.name == name; });
      if (p == f.parameters.end())
        throw SourceError(fmt::format("the problem size sets {}={}, but the kernel {} has no parameter named {}", name,
                                      value, f.name, name),
                          offset);
      const std::string_view type = p->type ? std::string_view(p->type->builtin) : std::string_view();
      if (!p->type || p->type->pointer || type.empty() || type == "float" || type == "double" || type == "bool")
        throw SourceError(fmt::format("the problem size sets {}={}, but the kernel {}'s parameter {} is no integer",
                                      name, value, f.name, name),
                          offset);
      const auto i = static_cast<std::size_t>(p - f.parameters.begin());
      if (i >= args.size())
        throw SourceError(
            fmt::format("the problem size sets {}, which the launch of {} leaves to its default", name, f.name),
            offset);
      const CType c = ctype_of(type);
      if (narrowed(value, c) != value)
        throw SourceError(
            fmt::format("the problem size {}={} does not fit the kernel's {} {}", name, value, type, name), offset);
      args[i] = Datum::integer(value, c);
    }
  }

  // The threads a launch runs: the one --thread/--cta name, else every thread of every block.
  template <class F>
  void for_each_thread(const Dim3& grid, const Dim3& block, F run) {
    // Every thread runs at least one step: a launch of more threads than the limit never ends in time.
    std::int64_t count = 1;
    for (const Dim3* d : {&grid, &block})
      for (const std::int64_t n : *d)
        if (__builtin_mul_overflow(count, n, &count)) count = std::numeric_limits<std::int64_t>::max();
    if (!options_.thread_given && !options_.cta_given && count > options_.max_steps)
      throw RunTimeError(
          fmt::format("a launch of {} threads is past the step limit {}: pick one with --thread and --cta, "
                      "or raise --max-steps",
                      count, options_.max_steps),
          launch_offset_);
    const auto each = [](const Dim3& shape, const auto& body) {
      for (std::int64_t z = 0; z < shape[2]; ++z)
        for (std::int64_t y = 0; y < shape[1]; ++y)
          for (std::int64_t x = 0; x < shape[0]; ++x) body(Dim3{x, y, z});
    };
    const auto threads = [&](const Dim3& cta) {
      launch_.cta = cta;
      if (options_.thread_given && !options_.all_threads) {
        launch_.thread = options_.thread;
        run();
        return;
      }
      each(block, [&](const Dim3& t) {
        launch_.thread = t;
        run();
      });
    };
    if (options_.cta_given)
      threads(options_.cta);
    else
      each(grid, threads);
  }

  Dim3 dim_of(const Datum& d, std::size_t offset) {
    if (d.kind == Datum::Kind::Dim3) return d.dim;
    const std::int64_t v = integer_of(d, offset);
    if (v < 1) throw SourceError("a launch's grid and block sizes are positive", offset);
    return Dim3{v, 1, 1};
  }

  // A file that is one kernel: its body for the thread and block of the options.
  void run_kernel_alone(const UserFunction& f) {
    launch_.on_device = true;
    launch_offset_ = f.offset;
    std::vector<Datum> args;
    for (const Parameter& p : f.parameters) {
      if (!p.has_default) {
        Datum d;
        d.kind = Datum::Kind::Pointer;
        args.push_back(d);
      } else {
        args.push_back(eval(p.default_value));
      }
    }
    given_arguments(f, args, f.offset);
    const auto run = [&] { call_user(f, args, f.offset); };
    if (options_.all_threads) {
      for_each_thread(options_.cta_given ? Dim3{1, 1, 1} : options_.grid, options_.block, run);
    } else {
      run();
    }
  }

 public:
  std::string text_;  // the program's text, for messages that quote it

 private:
  const ProgramOptions& options_;
  const ProgramHost& host_;
  Diagnostics& diag_;
  LanguageOptions language_;
  std::vector<Frame> frames_;
  std::map<std::string, std::shared_ptr<const UserFunction>, std::less<>> functions_;
  std::map<std::string, Alias, std::less<>> aliases_;
  std::vector<std::string> namespace_aliases_;  // "ct::" for namespace ct = cute;
  Launch launch_;
  std::string out_;
  std::int64_t steps_ = 0;
  std::size_t launch_offset_ = 0;  // the launch being run, for its messages
  bool ran_statements_ = false;
};

}  // namespace lang

namespace {

ProgramError error_of(const SourceError& e, bool compile_time) {
  return ProgramError{e.what(), e.offset(), compile_time};
}

}  // namespace

ProgramRun run_program(std::string text, std::string name, const ProgramOptions& options, const ProgramHost& host,
                       Diagnostics& diag) {
  ProgramRun run;
  if (text.size() > options.language.max_length * 100) {
    run.error = ProgramError{fmt::format("the program is {} bytes long, over the limit of {}", text.size(),
                                         options.language.max_length * 100),
                             0, true};
    return run;
  }
  std::unique_ptr<lang::ProgramTree> tree;
  try {
    tree = lang::parse_program_tree(std::move(text), std::move(name), options.language.max_depth);
  } catch (const SourceError& e) {
    run.error = error_of(e, true);
    return run;
  }
  lang::Interpreter interpreter(options, host, diag);
  interpreter.text_ = tree->text;
  try {
    interpreter.run(*tree);
    run.output = std::move(interpreter.output());
  } catch (const lang::RunTimeError& e) {
    run.output = std::move(interpreter.output());
    run.error = error_of(e, false);
  } catch (const SourceError& e) {
    if (e.run_time()) run.output = std::move(interpreter.output());
    run.error = error_of(e, !e.run_time());
  } catch (const Error& e) {
    run.error = ProgramError{e.message(Notation{true}), 0, true};
  }
  return run;
}

struct ProgramSession::State {
  State(ProgramOptions o, ProgramHost h)
      : options(std::move(o)), host(std::move(h)), interpreter(options, host, diag) {}
  ProgramOptions options;
  ProgramHost host;
  Diagnostics diag{false, Notation{true}};
  lang::Interpreter interpreter;
  std::vector<std::unique_ptr<lang::ProgramTree>> pieces;  // the names the interpreter holds point into them
};

ProgramSession::ProgramSession(ProgramOptions options, ProgramHost host)
    : state_(std::make_unique<State>(std::move(options), std::move(host))) {}
ProgramSession::~ProgramSession() = default;

ProgramRun ProgramSession::feed(std::string text, Diagnostics&) {
  ProgramRun run;
  try {
    state_->pieces.push_back(lang::parse_program_tree(std::move(text), "input", state_->options.language.max_depth));
  } catch (const SourceError& e) {
    run.error = error_of(e, true);
    return run;
  }
  auto& in = state_->interpreter;
  in.text_ = state_->pieces.back()->text;
  in.output().clear();
  try {
    in.run_piece(*state_->pieces.back());
  } catch (const lang::RunTimeError& e) {
    run.error = error_of(e, false);
  } catch (const SourceError& e) {
    run.error = error_of(e, false);
  } catch (const Error& e) {
    run.error = ProgramError{e.message(Notation{true}), 0, false};
  }
  run.output = std::move(in.output());
  in.output().clear();
  return run;
}

std::map<std::string, Value, std::less<>> ProgramSession::values() const { return state_->interpreter.values(); }

bool looks_like_statements(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  if (text.empty()) return false;
  if (text.back() == ';' || text.back() == '}') return true;
  for (const std::string_view start : {"auto ", "using ", "#include", "int ", "for ", "for(", "if ", "if(", "//"})
    if (text.starts_with(start)) return true;
  return false;
}

}  // namespace layoutx
