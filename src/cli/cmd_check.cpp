// check: the result's offsets from the host evaluator against the independent
// evaluator (the device code, on the GPU with --device, else on the CPU), and
// the defining property of the outermost operation at every point, from its
// operands re-evaluated. A property CuTe's answer breaks where layoutx warned
// about it is reported, not failed: the user was told.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <optional>

#include "driver.hpp"
#include "layoutx/device.hpp"
#include "layoutx/notation.hpp"
#include "output.hpp"

namespace layoutx::cli {

namespace {

using device::Verdict;

struct CheckSettings {
  bool on_gpu = false;
  std::size_t first = 5;
};

std::string text_of(const AnyLayout& l) {
  if (const auto* c = std::get_if<ComposedLayout>(&l)) return to_text(*c);
  return to_text(std::get<Layout>(l));
}

// The report of one expression, written out once it is complete.
class Report {
 public:
  Report(const CheckSettings& cs, bool warned) : cs_(cs), warned_(warned) {}

  void line(const std::string& s) { text_ += "  " + s + "\n"; }

  // How a failed property counts: always; not where layoutx warned about
  // CuTe's answer; or never (a fact worth knowing, not an error).
  enum class Weight { Hard, UnlessWarned, Note };

  // A property's verdict; `what` names it, `show` writes one failure.
  template <class Show>
  void verdict(const std::string& what, const Verdict& v, Show show, Weight weight = Weight::UnlessWarned) {
    if (v.failures == 0) {
      line(fmt::format("ok    {} ({} points)", what, v.points));
      return;
    }
    const bool counts = weight == Weight::Hard || (weight == Weight::UnlessWarned && !warned_);
    const char* tag = counts ? "FAIL " : weight == Weight::Note ? "note " : "WARN ";
    line(fmt::format("{} {}: fails at {} of {} points", tag, what, v.failures, v.points));
    for (const auto& m : v.first) line("        " + show(m));
    if (counts) failed_ = true;
  }

  void skipped(const std::string& why) { line("--    " + why); }
  void note(const std::string& what) { line("note  " + what); }
  // A broken structural expectation (a size), weighed like a property.
  void broken(const std::string& why) {
    line(std::string(warned_ ? "WARN  " : "FAIL  ") + why);
    if (!warned_) failed_ = true;
  }

  device::CheckOptions options() const { return device::CheckOptions{cs_.on_gpu ? device::Where::Gpu : device::Where::Cpu, cs_.first}; }
  bool failed() const { return failed_; }
  const std::string& text() const { return text_; }

 private:
  const CheckSettings& cs_;
  bool warned_;
  bool failed_ = false;
  std::string text_;
};

std::string show_pair(const char* lhs, const char* rhs, const device::Mismatch& m) {
  return fmt::format("i = {}: {} = {}, {} = {}", m.index, lhs, m.expected, rhs, m.actual);
}

void compare_with_host(Report& r, const AnyLayout& l, const std::string& name) {
  const Verdict v = device::compare_offsets(r.options(), l, [&](const device::OffsetBlocks& sink) { stream_offset_values(l, sink); });
  r.verdict(fmt::format("{}: host offsets == independent evaluation", name), v,
            [](const device::Mismatch& m) { return show_pair("host", "independent", m); }, Report::Weight::Hard);
}

// Every layout in a result: the result itself, or each layout of a tile.
void collect_layouts(const Value& v, std::vector<AnyLayout>& out) {
  if (v.kind == Value::Kind::Tuple && !v.is_int_tuple()) {
    for (const auto& e : v.elems) collect_layouts(e, out);
    return;
  }
  out.push_back(require_layout(v, "check"));
}

// The operands of the outermost operation, evaluated from their text.
struct Operands {
  std::string name;  // "composition" for an `o` chain
  std::vector<std::string> texts;
  std::vector<Value> values;
  // The original text with operand 0 replaced (for the identity re-indexing).
  std::string with_first(const std::string& replacement) const { return head + replacement + tail; }
  std::string head, tail;
};

bool is_layout_value(const Value& v) { return v.kind == Value::Kind::Layout || v.is_int_tuple(); }

// In a chain, "Sw o off o ... o L" is one composed layout: the last operand
// takes the stages before it. Returns the index of its first part.
std::size_t last_unit(const std::vector<Value>& parts) {
  std::size_t k = parts.size() - 1;
  if (!is_layout_value(parts[k])) return k;
  while (k >= 2 && parts[k - 2].kind == Value::Kind::Swizzle && parts[k - 1].kind == Value::Kind::Integer) k -= 2;
  return k;
}

std::optional<Operands> operands_of(const std::string& text, const LanguageOptions& lo) {
  const Outline o = outline_expression(text, lo);
  if (o.kind == Outline::Kind::Other || o.operands.empty()) return std::nullopt;
  auto slice = [&](std::size_t b, std::size_t e) { return text.substr(b, e - b); };
  Operands ops;
  if (o.kind == Outline::Kind::Call) {
    ops.name = o.name;
    for (const auto& s : o.operands) ops.texts.push_back(slice(s.begin, s.end));
    ops.head = text.substr(0, o.operands[0].begin);
    ops.tail = text.substr(o.operands[0].end);
  } else {
    std::vector<Value> parts;
    for (const auto& s : o.operands) parts.push_back(evaluate_expression(slice(s.begin, s.end), lo));
    const std::size_t k = last_unit(parts);
    if (k == 0) return std::nullopt;  // a composed layout written out, no composition
    ops.name = "composition";
    ops.texts = {slice(o.operands[0].begin, o.operands[k - 1].end), slice(o.operands[k].begin, o.operands.back().end)};
  }
  for (const auto& t : ops.texts) ops.values.push_back(evaluate_expression(t, lo));
  return ops;
}

// A swizzle as a layout-like function: Sw o 0 o 1:1 (the last mode extends, so 1:1 is the identity).
AnyLayout swizzle_function(const Swizzle& sw) { return ComposedLayout{sw, static_int(0), Layout{static_int(1), static_int(1)}, {}}; }

std::optional<AnyLayout> as_function(const Value& v) {
  if (v.kind == Value::Kind::Swizzle) return swizzle_function(v.swizzle);
  if (v.kind == Value::Kind::Integer) return AnyLayout{Layout{v.integer, static_int(1)}};
  if (v.is_layout_like()) return v.as_any_layout();
  if (v.is_int_tuple()) return AnyLayout{make_layout(v.as_int_tuple())};
  return std::nullopt;
}

void size_must_match(Report& r, const AnyLayout& result, Int expected, const std::string& of) {
  if (size(result).value != expected.value)
    r.broken(fmt::format("size(R) = {} but {} = {}", size(result).value, of, expected.value));
}

void check_composition(Report& r, const AnyLayout& result, const Operands& ops) {
  const auto a = as_function(ops.values[0]);
  const Value& b = ops.values[1];
  if (!a) return r.skipped("composition: the left operand is not a layout; property not checked");
  const auto show = [](const device::Mismatch& m) { return show_pair("R(i)", "A(B(i))", m); };
  if (b.kind == Value::Kind::Tuple) {
    // By mode: one tile layout per mode of A; `_` and missing modes keep A's mode.
    const Layout& inner = inner_layout(*a);
    const int rank_a = inner.shape.is_leaf() ? 1 : inner.shape.rank();
    if (static_cast<int>(b.elems.size()) > rank_a) return r.skipped("composition: the tile has more modes than A");
    // Modes of A past the tile are kept where the result has them.
    const Layout& inner_r = inner_layout(result);
    const int rank_r = inner_r.shape.is_leaf() ? 1 : inner_r.shape.rank();
    const int modes = std::clamp(rank_r, static_cast<int>(b.elems.size()), rank_a);
    std::vector<Layout> tile;
    Int total = static_int(1);
    for (int m = 0; m < modes; ++m) {
      const Layout mode_a = inner.shape.is_leaf() ? inner : get(inner, m);
      const Value* e = m < static_cast<int>(b.elems.size()) ? &b.elems[m] : nullptr;
      if (!e || e->kind == Value::Kind::Underscore)
        tile.push_back(make_layout(mode_a.shape));
      else if (e->kind == Value::Kind::Integer)
        tile.push_back(Layout{e->integer, static_int(1)});
      else if (e->kind == Value::Kind::Layout)
        tile.push_back(e->layout);
      else
        return r.skipped("composition: a tile with nested modes; property not checked");
      total = total * size(tile.back());
    }
    size_must_match(r, result, total, "the tile's size");
    return r.verdict("composition: R(c) == A(B_0(c_0), B_1(c_1), ...) by mode",
                     device::check_composition(r.options(), result, *a, tile), show);
  }
  const auto fb = as_function(b);
  if (!fb) return r.skipped("composition: the right operand is not a layout; property not checked");
  if (b.kind != Value::Kind::Swizzle) size_must_match(r, result, size(*fb), "size(B)");
  r.verdict("composition: R(i) == A(B(i))", device::check_composition(r.options(), result, *a, *fb), show);
}

void check_complement(Report& r, const AnyLayout& result, const Operands& ops) {
  const auto a = as_function(ops.values[0]);
  if (!a || ops.values[0].kind == Value::Kind::Swizzle) return r.skipped("complement: property not checked");
  const AnyLayout inner{inner_layout(*a)};
  const Verdict ordered = device::check_ordered(r.options(), result);
  r.verdict("complement: R is ordered, R(i) < R(i+1)", ordered,
            [](const device::Mismatch& m) { return show_pair("R(i)", "R(i+1)", m); });
  if (ordered.failures) return r.skipped("complement: disjointness needs an ordered R; not checked");
  r.verdict("complement: A and R share no offset but 0", device::check_disjoint(r.options(), inner, result),
            [](const device::Mismatch& m) { return fmt::format("A({}) = {} = R({})", m.index, m.expected, m.actual); });
}

// Whether A's offsets are distinct, counted on the device over 0..cosize(A)-1
// (a swizzle permutes offsets, so A's inner layout decides); unknown with
// negative strides or a codomain past 2^32.
std::optional<bool> injective(Report& r, const AnyLayout& a) {
  const Layout& l = inner_layout(a);
  for (Int d : leaves(l.stride))
    if (d.value < 0) return std::nullopt;
  const std::int64_t n = size(l).value, co = cosize(l).value;
  if (n <= 0 || co <= 0 || static_cast<std::uint64_t>(co) > device::kMaxPoints) return std::nullopt;
  const device::Bijection b = device::check_bijection(r.options(), AnyLayout{l}, co);
  return b.outside.failures == 0 && static_cast<std::uint64_t>(co) - b.missing.failures == static_cast<std::uint64_t>(n);
}

void check_inverse(Report& r, const AnyLayout& result, const Operands& ops, bool right) {
  if (!ops.values[0].is_layout_like() && !ops.values[0].is_int_tuple())
    return r.skipped(fmt::format("{}: the operand is not a layout; property not checked", ops.name));
  const AnyLayout a = *as_function(ops.values[0]);
  if (right)
    r.verdict("right_inverse: A(R(i)) == i", device::check_inverse(r.options(), a, result),
              [](const device::Mismatch& m) { return fmt::format("i = {}: A(R(i)) = {}", m.index, m.actual); });
  else if (injective(r, a) == false)
    r.note("left_inverse: A is not injective, so it has no left inverse; R(A(i)) == i not checked");
  else
    r.verdict("left_inverse: R(A(i)) == i", device::check_inverse(r.options(), result, a),
              [](const device::Mismatch& m) { return fmt::format("i = {}: R(A(i)) = {}", m.index, m.actual); });
}

// The re-indexing D: the same operation on the identity layout of A's shape.
std::optional<AnyLayout> reindexing(const Operands& ops, const LanguageOptions& lo) {
  const Value d = evaluate_expression(ops.with_first("make_layout(shape(" + ops.texts[0] + "))"), lo);
  return as_function(d);
}

IntTuple widen_last(const IntTuple& t, Int k) {
  if (t.is_leaf()) return IntTuple(t.value() * k);
  if (t.rank() == 0) return t;
  std::vector<IntTuple> e = t.elems();
  e.back() = widen_last(e.back(), k);
  return IntTuple(std::move(e));
}

// A tile divides A mode by mode, and a tile mode may reach past its mode of
// A, which then extends. So the identity gives each mode a field wide enough
// for that reach (no carry into the next mode), and A is widened to match:
// the last leaf of each mode extends over the field.
struct Fields {
  Layout identity;
  AnyLayout base;
};

std::optional<Fields> fields_by_mode(const AnyLayout& a, const Value& tile) {
  const Layout& inner = inner_layout(a);
  std::vector<Layout> modes;
  if (inner.shape.is_leaf())
    modes.push_back(inner);
  else
    for (int m = 0; m < inner.shape.rank(); ++m) modes.push_back(get(inner, m));
  if (tile.elems.size() > modes.size()) return std::nullopt;
  std::vector<IntTuple> strides, wide_shapes, wide_strides;
  Int field = static_int(1);
  for (std::size_t m = 0; m < modes.size(); ++m) {
    const Int s = size(modes[m]);
    if (s.value <= 0) return std::nullopt;
    Int width = s;
    if (m < tile.elems.size() && tile.elems[m].kind != Value::Kind::Underscore) {
      const auto t = as_tiler(tile.elems[m]);
      if (!t) return std::nullopt;
      width = max(s, cosize(logical_divide(make_layout(modes[m].shape), *t)));
    }
    strides.push_back(compact_col_major(modes[m].shape, field));
    wide_shapes.push_back(widen_last(modes[m].shape, ceil_div(width, s)));
    wide_strides.push_back(modes[m].stride);
    field = field * s * ceil_div(width, s);
  }
  Fields f;
  if (inner.shape.is_leaf()) {
    f.identity = Layout{inner.shape, strides[0]};
    f.base = Layout{wide_shapes[0], wide_strides[0]};
  } else {
    f.identity = Layout{inner.shape, IntTuple(strides)};
    f.base = Layout{IntTuple(wide_shapes), IntTuple(wide_strides)};
  }
  if (const auto* c = std::get_if<ComposedLayout>(&a)) f.base = on_inner(*c, [&](const Layout&) { return std::get<Layout>(f.base); });
  return f;
}

void check_divide(Report& r, const AnyLayout& result, const Operands& ops, const LanguageOptions& lo) {
  const Value& t = ops.values[1];
  const auto a = ops.values[0].kind == Value::Kind::Swizzle ? std::nullopt : as_function(ops.values[0]);
  const auto compact = a ? reindexing(ops, lo) : std::nullopt;
  if (!a || !compact) return r.skipped(ops.name + ": property not checked");
  std::optional<AnyLayout> base = *a, d = compact;
  if (t.kind == Value::Kind::Tuple) {
    std::optional<Fields> f;
    try {
      f = fields_by_mode(*a, t);
    } catch (const Error&) {
      f.reset();  // fields too wide for 64 bits
    }
    if (!f) return r.skipped(ops.name + ": the tile's reach is too wide to check");
    base = f->base;
    d = as_function(evaluate_expression(ops.with_first(to_text(f->identity)), lo));
    if (!d) return r.skipped(ops.name + ": property not checked");
  }
  size_must_match(r, result, size(*d), "size(D)");
  const std::string what = fmt::format("{}: R(i) == A(D(i)), D = {}", ops.name, text_of(*d));
  r.verdict(what, device::check_composition(r.options(), result, *base, *d),
            [](const device::Mismatch& m) { return show_pair("R(i)", "A(D(i))", m); });
  // Where the tiler does not partition A (it reaches past A, or overlaps),
  // the result is still CuTe's: it extends A. Worth a note, not an error.
  const std::int64_t n = size(*a).value;
  const device::Bijection b = device::check_bijection(r.options(), *compact, n);
  const std::string onto = fmt::format("the tiler partitions A: {} re-indexes 0..{}", text_of(*compact), n - 1);
  r.verdict(onto + " (none outside)", b.outside,
            [](const device::Mismatch& m) { return fmt::format("D({}) = {}", m.index, m.actual); }, Report::Weight::Note);
  r.verdict(onto + " (none left out)", b.missing,
            [](const device::Mismatch& m) { return fmt::format("no index reaches {}", m.index); }, Report::Weight::Note);
}

// The layout of a block's offsets and its tile origins: (A, complement(A, size(A) * cosize(T))).
Layout block_and_origins(const Layout& block, const Layout& tiler) {
  return make_layout(std::vector<Layout>{block, complement(block, IntTuple(size(block) * cosize(tiler)))});
}

Layout tiler_layout(const Value& t) {
  if (t.kind == Value::Kind::Layout) return t.layout;
  if (t.kind == Value::Kind::Integer) return Layout{t.integer, static_int(1)};
  return make_layout(t.as_int_tuple());
}

// logical_product by a tile, mode by mode: R_m(i) == Base_m(D_m(i)) with D_m
// the product of A_m's identity layout; modes of A past the tile are kept.
void check_product_by_mode(Report& r, const AnyLayout& result, const AnyLayout& a, const Value& tile,
                           const std::function<AnyLayout(const Layout&)>& swizzled) {
  const Layout& block = inner_layout(a);
  std::vector<Layout> modes;
  if (block.shape.is_leaf())
    modes.push_back(block);
  else
    for (int m = 0; m < block.shape.rank(); ++m) modes.push_back(get(block, m));
  const Layout& inner_r = inner_layout(result);
  const std::size_t rank_r = inner_r.shape.is_leaf() ? 1 : inner_r.shape.rank();
  if (tile.elems.size() > modes.size()) return r.skipped("logical_product: the tile has more modes than A");
  std::vector<Layout> base, reindex;
  for (std::size_t m = 0; m < std::max(tile.elems.size(), std::min(rank_r, modes.size())); ++m) {
    const Value* t = m < tile.elems.size() ? &tile.elems[m] : nullptr;
    if (t && t->kind != Value::Kind::Layout && !t->is_int_tuple())
      return r.skipped("logical_product by a tile with nested or '_' modes: property not checked");
    if (!t) {
      base.push_back(modes[m]);
      reindex.push_back(make_layout(modes[m].shape));
      continue;
    }
    const Layout tm = tiler_layout(*t);
    base.push_back(block_and_origins(modes[m], tm));
    reindex.push_back(logical_product(make_layout(modes[m].shape), Tiler::of(tm)));
  }
  r.verdict("logical_product: R(c) == Base_m(D_m(c_m)) by mode, Base_m = (A_m, complement(A_m, size(A_m) * cosize(T_m)))",
            device::check_composition(r.options(), result, swizzled(make_layout(base)), reindex),
            [](const device::Mismatch& m) { return show_pair("R(c)", "Base(D(c))", m); });
}

// R(i) == Base(D(i)): D is the product of A's identity layout, whose offsets
// a + size(A) * k split into A's offset a and the k-th tile origin.
void check_product(Report& r, const AnyLayout& result, const Operands& ops, const LanguageOptions& lo) {
  const Value& av = ops.values[0];
  const Value& t = ops.values[1];
  const auto a = av.kind == Value::Kind::Swizzle ? std::nullopt : as_function(av);
  if (!a || !(t.kind == Value::Kind::Layout || t.kind == Value::Kind::Tuple || t.is_int_tuple()))
    return r.skipped(ops.name + ": property not checked");
  // A swizzled block's product is the product of its layout, under the same swizzle.
  const auto swizzled = [&](const Layout& l) -> AnyLayout {
    if (const auto* c = std::get_if<ComposedLayout>(&*a)) return on_inner(*c, [&](const Layout&) { return l; });
    return l;
  };
  const bool by_layout = ops.name == "blocked_product" || ops.name == "raked_product" || t.kind == Value::Kind::Layout;
  if (!by_layout) {
    if (ops.name == "logical_product" && t.kind == Value::Kind::Tuple) return check_product_by_mode(r, result, *a, t, swizzled);
    return r.skipped(ops.name + " by a tile: property not checked");
  }
  const Layout block = inner_layout(*a);
  const Layout tiler = tiler_layout(t);
  const AnyLayout base = swizzled(block_and_origins(block, tiler));
  const auto d = reindexing(ops, lo);
  if (!d) return r.skipped(ops.name + ": property not checked");
  size_must_match(r, result, size(*d), "size(D)");
  const std::string what = fmt::format("{}: R(i) == (A, complement(A, {}))(D(i)), D = {}", ops.name,
                                       to_text(size(block) * cosize(tiler)), text_of(*d));
  r.verdict(what, device::check_composition(r.options(), result, base, *d),
            [](const device::Mismatch& m) { return show_pair("R(i)", "Base(D(i))", m); });
}

void check_same_function(Report& r, const AnyLayout& result, const Operands& ops) {
  if (!ops.values[0].is_layout_like()) return r.skipped(ops.name + ": property not checked");
  const AnyLayout a = ops.values[0].as_any_layout();
  size_must_match(r, result, size(a), "size(A)");
  const AnyLayout identity{Layout{size(a), static_int(1)}};
  r.verdict(ops.name + ": R(i) == A(i)", device::check_composition(r.options(), result, a, identity),
            [](const device::Mismatch& m) { return show_pair("R(i)", "A(i)", m); });
}

void check_operation(Report& r, const AnyLayout& result, const std::string& text, const LanguageOptions& lo) {
  const auto ops = operands_of(text, lo);
  Diagnostics::current().clear();  // the operands' warnings were reported with the whole expression's
  if (!ops) return;
  const std::string& f = ops->name;
  const std::size_t n = ops->values.size();
  if (f == "composition" && n == 2) return check_composition(r, result, *ops);
  if (f == "complement" && n >= 1) return check_complement(r, result, *ops);
  if (f == "right_inverse" && n == 1) return check_inverse(r, result, *ops, true);
  if (f == "left_inverse" && n == 1) return check_inverse(r, result, *ops, false);
  if ((f == "logical_divide" || f == "zipped_divide" || f == "tiled_divide" || f == "flat_divide") && n == 2)
    return check_divide(r, result, *ops, lo);
  if ((f == "logical_product" || f == "zipped_product" || f == "tiled_product" || f == "flat_product" ||
       f == "blocked_product" || f == "raked_product") &&
      n == 2)
    return check_product(r, result, *ops, lo);
  if ((f == "coalesce" || f == "flatten") && n >= 1) return check_same_function(r, result, *ops);
}

// A property that cannot be evaluated (offsets past 64 bits, negative
// extents) is reported as not checked; the host comparison still counts.
void check_property(Report& r, const AnyLayout& result, const std::string& text, const LanguageOptions& lo) {
  try {
    check_operation(r, result, text, lo);
  } catch (const Error& e) {
    Diagnostics::current().clear();
    r.skipped(fmt::format("property not checked: {}", e.what()));
  }
}

int check_expression(const Settings& s, const CheckSettings& cs, const std::string& text) {
  Diagnostics& diag = Diagnostics::current();
  diag.clear();
  const Value v = evaluate_expression(text, s.language);
  const bool warned = !diag.warnings().empty();
  for (const auto& w : diag.warnings()) report_warning(w.message);
  diag.clear();

  if (v.kind == Value::Kind::Swizzle) {
    out(fmt::format("check {}\n  R = {}\n  --    a swizzle alone has no domain: nothing to evaluate\n", text, to_text(v)));
    return kOk;
  }
  std::vector<AnyLayout> layouts;
  collect_layouts(v, layouts);
  Report r(cs, warned);
  for (std::size_t k = 0; k < layouts.size(); ++k)
    compare_with_host(r, layouts[k], layouts.size() == 1 ? std::string("R") : fmt::format("R[{}]", k));
  if (layouts.size() == 1 && v.kind != Value::Kind::Tuple) check_property(r, layouts[0], text, s.language);

  out(fmt::format("check {}\n  R = {}\n{}", text, to_text(v), r.text()));
  if (r.failed()) {
    flush_out();
    report_error(fmt::format("check failed for {}", text), text, 0, false);
    return kRejected;
  }
  return kOk;
}

int run_check(const Settings& s, const CheckSettings& cs, const std::vector<std::string>& expressions) {
  if (cs.on_gpu) {
    const std::string why = device::gpu_unavailable_reason();
    if (!why.empty()) {
      report_error(fmt::format("check --device: {}", why), "", 0, false);
      return kRejected;
    }
    out(fmt::format("device: {}\n", device::gpu_description()));
  }
  return for_each_expression_text(s, expressions,
                                  [&](std::string_view expr) { return check_expression(s, cs, std::string(expr)); });
}

}  // namespace

Command register_check(CLI::App& app, Settings& s) {
  auto* sub = app.add_subcommand(
      "check", "Cross-check each result: the host's offsets against an independent evaluator, and the defining "
               "property of the outermost operation (composition, inverses, complement, divides, products) at "
               "every point; up to 2^32 points");
  auto exprs = std::make_shared<std::vector<std::string>>();
  auto cs = std::make_shared<CheckSettings>();
  sub->add_flag("--device", cs->on_gpu, "Run the independent evaluator on the CUDA GPU (else the same code on the CPU)");
  sub->add_option("--first", cs->first, "Failures listed per property (default 5)")->check(CLI::Range(1, 64));
  add_expressions(sub, *exprs);
  return {sub, [&s, exprs, cs] { return run_check(s, *cs, *exprs); }};
}

}  // namespace layoutx::cli
