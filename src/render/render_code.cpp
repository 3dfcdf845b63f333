// Source code that builds a value, in CuTe's C++ and in CuTe's Python DSL.
#include "layoutx/render_code.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "layoutx/arithmetic_tuple.hpp"

namespace layoutx {
namespace {

constexpr std::int64_t kIntMin = std::numeric_limits<std::int32_t>::min();
constexpr std::int64_t kIntMax = std::numeric_limits<std::int32_t>::max();

bool fits_int(std::int64_t v) { return v >= kIntMin && v <= kIntMax; }

// A 64-bit constant as C++ source: -2^63 has no literal of its own.
std::string int64_literal(std::int64_t v) {
  if (v == std::numeric_limits<std::int64_t>::min()) return "-9223372036854775807-1";
  return std::to_string(v);
}

std::string join(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? separator : "") + parts[i];
  return out;
}

// CuTe's integers: Int<N> is C<int(N)>; a value beyond int needs C<int64_t(N)>. A dynamic
// integer is an int, as CuTe code holds run-time extents, or int64_t beyond int's range.
std::string int_type(Int i);
std::string int_expression(Int i);

// CuTe's ScaledBasis<T, Ns...>, the stride of a coordinate layout: a unit
// static basis has its alias E<Ns...>.
std::string basis_modes(const Basis& b) {
  std::string modes;
  for (int k = 0; k < b.rank; ++k) modes += fmt::format(", {}", b.modes[static_cast<std::size_t>(k)]);
  return modes;
}

std::string scaled_basis_type(Int i) {
  const Int scale{i.value, i.is_static};
  if (scale.is_constant(1)) return fmt::format("E<{}>", basis_modes(i.basis).substr(2));
  return fmt::format("ScaledBasis<{}{}>", int_type(scale), basis_modes(i.basis));
}

// A static basis is its type's value; a run-time scale is given to the constructor.
std::string scaled_basis_expression(Int i) {
  if (i.is_static) return scaled_basis_type(i) + "{}";
  return fmt::format("{}({})", scaled_basis_type(i), int_expression(Int{i.value, false}));
}

std::string int_type(Int i) {
  if (i.is_scaled_basis()) return scaled_basis_type(i);
  if (i.is_static)
    return fits_int(i.value) ? fmt::format("Int<{}>", i.value) : fmt::format("C<int64_t({})>", int64_literal(i.value));
  return fits_int(i.value) ? "int" : "int64_t";
}

std::string int_expression(Int i) {
  if (i.is_scaled_basis()) return scaled_basis_expression(i);
  if (i.is_static) return int_type(i) + "{}";
  if (i.value == kIntMin) return fmt::format("int({})", i.value);  // -2147483648 alone is a long
  return fits_int(i.value) ? std::to_string(i.value) : fmt::format("int64_t({})", int64_literal(i.value));
}

// The DSL's Python ints are static; a dynamic value is a typed scalar.
std::string int_python(Int i) {
  if (i.is_scaled_basis())
    throw Error("a scaled-basis stride (of a coordinate layout) has no counterpart here in CuTe's Python DSL");
  if (i.is_static) return std::to_string(i.value);
  return fmt::format("cutlass.{}({})", fits_int(i.value) ? "Int32" : "Int64", i.value);
}

// An int tuple under the name CuTe gives it where it stands (Shape, Stride, tuple).
std::string tuple_type(const IntTuple& t, const char* name) {
  if (t.is_leaf()) return int_type(t.value());
  std::vector<std::string> parts;
  for (const auto& e : t.elems()) parts.push_back(tuple_type(e, name));
  return fmt::format("{}<{}>", name, join(parts, ", "));
}

std::string tuple_expression(const IntTuple& t, const char* maker) {
  if (t.is_leaf()) return int_expression(t.value());
  std::vector<std::string> parts;
  for (const auto& e : t.elems()) parts.push_back(tuple_expression(e, maker));
  return fmt::format("{}({})", maker, join(parts, ", "));
}

// Python's one-element tuple needs its trailing comma: (4,).
std::string python_tuple(const std::vector<std::string>& parts) {
  std::string s(1, '(');
  s += join(parts, ", ");
  s += parts.size() == 1 ? ",)" : ")";
  return s;
}

std::string tuple_python(const IntTuple& t) {
  if (t.is_leaf()) return int_python(t.value());
  std::vector<std::string> parts;
  for (const auto& e : t.elems()) parts.push_back(tuple_python(e));
  return python_tuple(parts);
}

std::string layout_code(const Layout& l, CodeForm form) {
  switch (form) {
    case CodeForm::CppType:
      return fmt::format("Layout<{}, {}>", tuple_type(l.shape, "Shape"), tuple_type(l.stride, "Stride"));
    case CodeForm::CppExpression:
      return fmt::format("make_layout({}, {})", tuple_expression(l.shape, "make_shape"),
                         tuple_expression(l.stride, "make_stride"));
    case CodeForm::Python:
      return fmt::format("cute.make_layout({}, stride={})", tuple_python(l.shape), tuple_python(l.stride));
  }
  return {};
}

std::string swizzle_code(const Swizzle& s, CodeForm form) {
  if (form == CodeForm::Python) return fmt::format("cute.make_swizzle({}, {}, {})", s.bits, s.base, s.shift);
  return fmt::format("Swizzle<{},{},{}>{}", s.bits, s.base, s.shift, form == CodeForm::CppExpression ? "{}" : "");
}

std::string int_code(Int i, CodeForm form) {
  switch (form) {
    case CodeForm::CppType: return int_type(i);
    case CodeForm::CppExpression: return int_expression(i);
    case CodeForm::Python: return int_python(i);
  }
  return {};
}

// CuTe's smem_ptr_flag_bits<B> (smem_sparse_ptr_flag_bits<S,B>): the offset
// of a canonical shared-memory layout atom. The Python DSL spells no such type.
std::string pointer_flag_code(const SmemPtrFlag& f, CodeForm form) {
  if (form == CodeForm::Python) throw Error(fmt::format("{} has no counterpart in CuTe's Python DSL", to_text(f)));
  const std::string type = f.sparsity != 0 ? fmt::format("smem_sparse_ptr_flag_bits<{},{}>", f.sparsity, f.bits)
                                           : fmt::format("smem_ptr_flag_bits<{}>", f.bits);
  return form == CodeForm::CppExpression ? type + "{}" : type;
}

// swizzle o offset o inner, the inner part itself composed for nested stages.
std::string composed_code(const Swizzle& swizzle, const std::string& off, const std::string& inner, CodeForm form) {
  const std::string sw = swizzle_code(swizzle, form);
  switch (form) {
    case CodeForm::CppType: return fmt::format("ComposedLayout<{}, {}, {}>", sw, off, inner);
    case CodeForm::CppExpression: return fmt::format("make_composed_layout({}, {}, {})", sw, off, inner);
    case CodeForm::Python: return fmt::format("cute.make_composed_layout({}, {}, {})", sw, off, inner);
  }
  return {};
}

std::string composed_code(const ComposedLayout& c, CodeForm form) {
  std::string code = layout_code(c.layout, form);
  for (auto it = c.nested.rbegin(); it != c.nested.rend(); ++it)
    code = composed_code(it->swizzle, int_code(it->offset, form), code, form);
  const std::string offset = c.pointer ? pointer_flag_code(*c.pointer, form) : int_code(c.offset, form);
  return composed_code(c.swizzle, offset, code, form);
}

bool holds_int_tuple_only(const Value& v) { return v.is_int_tuple(); }

std::string value_code(const Value& v, CodeForm form);

// A tuple: an int tuple is a plain tuple; one holding layouts (or `_`) is a tile.
std::string tuple_code(const Value& v, CodeForm form) {
  std::vector<std::string> parts;
  for (const auto& e : v.elems) parts.push_back(value_code(e, form));
  const bool tile = !holds_int_tuple_only(v);
  switch (form) {
    case CodeForm::CppType: return fmt::format("{}<{}>", tile ? "Tile" : "tuple", join(parts, ", "));
    case CodeForm::CppExpression: return fmt::format("{}({})", tile ? "make_tile" : "make_tuple", join(parts, ", "));
    case CodeForm::Python: return python_tuple(parts);
  }
  return {};
}

std::string tag_code(const char* name, CodeForm form) {
  if (form == CodeForm::Python) throw Error(fmt::format("{} has no counterpart in CuTe's Python DSL", name));
  return form == CodeForm::CppType ? name : std::string(name) + "{}";
}

std::string value_code(const Value& v, CodeForm form) {
  switch (v.kind) {
    case Value::Kind::Integer: return int_code(v.integer, form);
    case Value::Kind::Tuple: return tuple_code(v, form);
    case Value::Kind::Layout: return layout_code(v.layout, form);
    case Value::Kind::Swizzle: return swizzle_code(v.swizzle, form);
    case Value::Kind::Composed: return composed_code(v.composed(), form);
    case Value::Kind::Underscore:
      return form == CodeForm::Python ? "None" : form == CodeForm::CppType ? "Underscore" : "_";
    case Value::Kind::LayoutLeft: return tag_code("LayoutLeft", form);
    case Value::Kind::LayoutRight: return tag_code("LayoutRight", form);
    case Value::Kind::PointerFlag: return pointer_flag_code(v.pointer_flag, form);
    case Value::Kind::Object:
    case Value::Kind::Tensor:
    case Value::Kind::Pointer:
      throw Error(fmt::format("a {} has no code form here; emit its layouts", v.object->type_name()));
  }
  return {};
}

}  // namespace

std::string render_code(const Value& v, CodeForm form) { return value_code(v, form); }

bool has_python_form(const Value& v) {
  switch (v.kind) {
    case Value::Kind::LayoutLeft:
    case Value::Kind::LayoutRight:
    case Value::Kind::PointerFlag:
    case Value::Kind::Object:
    case Value::Kind::Tensor:
    case Value::Kind::Pointer: return false;
    case Value::Kind::Integer: return !v.integer.is_scaled_basis();
    case Value::Kind::Layout: return !has_basis(v.layout.stride);
    case Value::Kind::Composed: return !v.composed().pointer && !has_basis(v.composed().layout.stride);
    case Value::Kind::Tuple:
      return std::all_of(v.elems.begin(), v.elems.end(), [](const Value& e) { return has_python_form(e); });
    default: return true;
  }
}

}  // namespace layoutx
