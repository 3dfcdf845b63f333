#include "layoutx/value.hpp"

#include <fmt/format.h>

#include "layoutx/error.hpp"
#include "layoutx/notation.hpp"

namespace layoutx {

Value Value::of(Int i) {
  Value v;
  v.kind = Kind::Integer;
  v.integer = i;
  return v;
}

Value Value::of(const IntTuple& t) {
  if (t.is_leaf()) return of(t.value());
  std::vector<Value> elems;
  for (const auto& e : t.elems()) elems.push_back(of(e));
  return tuple(std::move(elems));
}

Value Value::of(const Layout& l) {
  Value v;
  v.kind = Kind::Layout;
  v.layout = l;
  return v;
}

Value Value::of(Layout&& l) {
  Value v;
  v.kind = Kind::Layout;
  v.layout = std::move(l);
  return v;
}

Value Value::of(const Swizzle& s) {
  Value v;
  v.kind = Kind::Swizzle;
  v.swizzle = s;
  return v;
}

Value Value::of(const ComposedLayout& c) {
  Value v;
  v.kind = Kind::Composed;
  v.composed_ = std::make_shared<const ComposedLayout>(c);
  return v;
}

Value Value::of(ComposedLayout&& c) {
  Value v;
  v.kind = Kind::Composed;
  v.composed_ = std::make_shared<const ComposedLayout>(std::move(c));
  return v;
}

const ComposedLayout& Value::composed() const {
  static const ComposedLayout none;
  return composed_ ? *composed_ : none;
}

Value Value::of(const AnyLayout& l) {
  if (const auto* p = std::get_if<Layout>(&l)) return of(*p);
  return of(std::get<ComposedLayout>(l));
}

Value Value::of(AnyLayout&& l) {
  if (auto* p = std::get_if<Layout>(&l)) return of(std::move(*p));
  return of(std::move(std::get<ComposedLayout>(l)));
}

Value Value::of(const SmemPtrFlag& f) {
  Value v;
  v.kind = Kind::PointerFlag;
  v.pointer_flag = f;
  return v;
}

Value Value::of(std::shared_ptr<const ValueObject> o) {
  Value v;
  v.kind = Kind::Object;
  v.object = std::move(o);
  return v;
}

Value Value::tuple(std::vector<Value> elems) {
  Value v;
  v.kind = Kind::Tuple;
  v.elems = std::move(elems);
  return v;
}

Value Value::tag(Kind k) {
  Value v;
  v.kind = k;
  return v;
}

bool Value::is_int_tuple() const {
  if (kind == Kind::Integer) return true;
  if (kind != Kind::Tuple) return false;
  for (const auto& e : elems)
    if (!e.is_int_tuple()) return false;
  return true;
}

bool Value::is_layout_like() const { return kind == Kind::Layout || kind == Kind::Composed; }

IntTuple Value::as_int_tuple() const {
  if (kind == Kind::Integer) return integer;
  std::vector<IntTuple> out;
  out.reserve(elems.size());
  for (const auto& e : elems) {
    if (e.kind == Kind::Integer)
      out.emplace_back(e.integer);
    else
      out.push_back(e.as_int_tuple());
  }
  return IntTuple(std::move(out));
}

AnyLayout Value::as_any_layout() const {
  if (kind == Kind::Composed) return composed();
  return layout;
}

std::optional<AnyLayout> Value::as_layout() const {
  if (is_layout_like()) return as_any_layout();
  if (is_int_tuple()) return AnyLayout{make_layout(as_int_tuple())};
  return std::nullopt;
}

std::optional<Layout> Value::as_plain_layout() const {
  if (kind == Kind::Layout) return layout;
  if (is_int_tuple()) return make_layout(as_int_tuple());
  return std::nullopt;
}

std::optional<Tiler> as_tiler(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Layout: return Tiler::of(v.layout);
    case Value::Kind::Integer: return Tiler::of(v.integer);
    case Value::Kind::Underscore: return Tiler::underscore();
    case Value::Kind::Tuple: {
      std::vector<Tiler> modes;
      modes.reserve(v.elems.size());
      for (const auto& e : v.elems) {
        if (e.kind == Value::Kind::Integer) {  // the most common mode, written in place
          Tiler& mode = modes.emplace_back();
          mode.kind = Tiler::Kind::Integer;
          mode.extent = e.integer;
          continue;
        }
        auto t = as_tiler(e);
        if (!t) return std::nullopt;
        modes.push_back(std::move(*t));
      }
      return Tiler::tuple(std::move(modes));
    }
    default: return std::nullopt;
  }
}

Tiler to_tiler(const Value& v, Notation n) {
  if (auto t = as_tiler(v)) return std::move(*t);
  throw Error(fmt::format("expected a tiler (a layout, a shape, '_' or a tuple of them), got {} {}", a_kind_name(v),
                          to_text(v, n)));
}

namespace {

// CuTe's print of an object takes several lines; in a message or inside a
// tuple it is its first two: "TiledMMA (ThrLayoutVMNK: (32,2,2,1):(1,32,64,0))".
std::string object_summary(const std::string& print) {
  const std::size_t first = print.find('\n');
  if (first == std::string::npos) return print;
  std::size_t second = print.find('\n', first + 1);
  if (second == std::string::npos) second = print.size();
  std::string detail = print.substr(first + 1, second - first - 1);
  const std::size_t lead = detail.find_first_not_of(' ');
  detail = lead == std::string::npos ? "" : detail.substr(lead);
  for (std::size_t gap = detail.find("  "); gap != std::string::npos; gap = detail.find("  ")) detail.erase(gap, 1);
  return print.substr(0, first) + " (" + detail + ")";
}

}  // namespace

std::string to_text(const Value& v, Notation n) {
  switch (v.kind) {
    case Value::Kind::Integer: return to_text(v.integer, n);
    case Value::Kind::Tuple: {
      std::string out = "(";
      for (size_t i = 0; i < v.elems.size(); ++i) {
        if (i) out += ',';
        out += to_text(v.elems[i], n);
      }
      return out + ")";
    }
    case Value::Kind::Layout: return to_text(v.layout, n);
    case Value::Kind::Swizzle: return to_text(v.swizzle);
    case Value::Kind::Composed: return to_text(v.composed(), n);
    case Value::Kind::Underscore: return "_";
    case Value::Kind::LayoutLeft: return "LayoutLeft";
    case Value::Kind::LayoutRight: return "LayoutRight";
    case Value::Kind::PointerFlag: return to_text(v.pointer_flag);
    case Value::Kind::Object: return object_summary(v.object->print(n));
    case Value::Kind::Tensor:
    case Value::Kind::Pointer: return v.object->print(n);
  }
  return "?";
}

std::string kind_name(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Integer: return "integer";
    case Value::Kind::Tuple: return v.is_int_tuple() ? "int tuple" : "tile";
    case Value::Kind::Layout: return "layout";
    case Value::Kind::Swizzle: return "swizzle";
    case Value::Kind::Composed: return "composed layout";
    case Value::Kind::Underscore: return "'_'";
    case Value::Kind::LayoutLeft:
    case Value::Kind::LayoutRight: return "layout tag";
    case Value::Kind::PointerFlag: return "pointer flag";
    case Value::Kind::Object:
    case Value::Kind::Tensor:
    case Value::Kind::Pointer: return v.object->type_name();
  }
  return "value";
}

std::string a_kind_name(const Value& v) {
  const std::string kind = kind_name(v);
  const bool vowel = kind.find_first_of("aeiou") == 0;
  return (vowel ? "an " : "a ") + kind;
}

AnyLayout require_layout(const Value& v, std::string_view what, Notation n) {
  if (const auto l = v.as_layout()) return *l;
  throw Error(fmt::format("{} needs a layout, got {} {}", what, a_kind_name(v), to_text(v, n)));
}

}  // namespace layoutx
