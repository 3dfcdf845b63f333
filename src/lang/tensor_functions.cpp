// CuTe's tensors in the language (tensor_impl.hpp, pointer.hpp): making them,
// and the tensor overloads of the layout functions, which answer about the
// tensor's layout (size, shape, ...) or keep its iterator with a new layout
// (logical_divide, coalesce, ...).
#include "tensor_functions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "layoutx/algebra.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/tensor.hpp"
#include "builtins.hpp"

namespace layoutx::lang {

namespace {

const Tensor& tensor_of(const Value& v) { return as_tensor(v); }
const Iterator& pointer_of(const Value& v) { return as_pointer(v); }

bool is_tensor(const Value& v) { return v.kind == Value::Kind::Tensor; }

Value layout_value(const AnyLayout& l) { return Value::of(l); }

// The element type written as the call's template argument I: its name and
// width. A register array may hold bools (predicates), 1 bit each in CuTe.
std::pair<std::string, int> element_type(const Call& c, std::size_t i, bool register_array = false) {
  const std::int64_t bits = c.targ_bits(i);
  const auto& types = c.node.template_types();
  const std::string name = i < types.size() && !types[i].empty() ? types[i] : fmt::format("{}-bit", bits);
  if (register_array && name == "bool") return {name, 1};
  if (bits < 8 || bits % 8 != 0 || bits > 1024)
    c.fail(fmt::format("a tensor of {} ({} bits) is not supported: layoutx addresses whole bytes", name, bits));
  return {name, static_cast<int>(bits)};
}

// A register array: CuTe's make_tensor<T>(layout), which needs a static layout.
Value register_tensor(const Call& c, const std::string& element, int bits, const Layout& l) {
  try {
    Tensor t = make_register_tensor(bits, element, l);
    return tensor_value(std::move(t.iterator), std::move(t.layout));
  } catch (const SourceError&) {
    throw;
  } catch (const Error& e) {
    c.fail(e);
  }
}

Value pointer(const Call& c, Memory memory) {
  c.expect_args(1, 1);
  if (c.node.template_args().empty() &&
      c.args[0].kind == Value::Kind::Pointer) {  // make_gmem_ptr(p) of a typed pointer p
    Iterator it = pointer_of(c.args[0]);
    it.memory = memory;
    return pointer_value(std::move(it));
  }
  c.expect_template_args(1, 1);
  const auto [element, bits] = element_type(c, 0);
  const Value& a = c.args[0];
  if (a.kind != Value::Kind::Integer || a.integer.is_scaled_basis())
    c.fail_arg(0, fmt::format("expected an address (nullptr or an integer), got {} {}", a_kind_name(a), c.text(a)));
  Iterator it;
  it.memory = memory;
  it.position = IntTuple(dynamic_int(0));
  it.bits = bits;
  it.element = element;
  it.base = a.integer.value;
  return pointer_value(std::move(it));
}

// make_tensor(ptr, layout), make_tensor(ptr, shape[, stride]) and the register forms make_tensor<T>(...).
AnyLayout layout_argument(const Call& c, std::size_t first) {
  if (c.args.size() == first + 2) {
    // make_tensor(ptr, shape, LayoutLeft{}) is make_layout(shape, LayoutLeft{}): a tag names the strides.
    if (c.args[first + 1].kind == Value::Kind::LayoutLeft) return make_layout(c.int_tuple(first));
    if (c.args[first + 1].kind == Value::Kind::LayoutRight) return make_layout_right(c.int_tuple(first));
    return make_layout(c.int_tuple(first), c.int_tuple(first + 1));
  }
  if (c.args[first].kind == Value::Kind::LayoutLeft || c.args[first].kind == Value::Kind::LayoutRight)
    c.fail_arg(first, "expected a layout or a shape");
  return c.any_layout(first);
}

// The answer of a layout function on the tensor's layout, for the functions
// whose tensor form answers about the layout.
bool answers_about_layout(std::string_view name) {
  for (const char* f : {"size", "shape", "stride", "rank", "depth", "layout", "cosize", "coshape", "max_common_vector",
                        "max_common_layout", "max_alignment"})
    if (name == f) return true;
  return false;
}

// The functions whose tensor form is make_tensor(t.data(), f(t.layout(), ...)).
bool keeps_iterator(std::string_view name) {
  for (const char* f : {"flatten", "coalesce", "filter_zeros", "filter", "group", "group_modes", "take", "composition",
                        "logical_divide", "zipped_divide", "tiled_divide", "flat_divide"})
    if (name == f) return true;
  return false;
}

// The functions that take tensors themselves.
bool takes_tensors(std::string_view name) {
  for (const char* f : {"local_tile", "local_partition", "inner_partition", "outer_partition", "make_fragment_like",
                        "make_tensor_like", "group_modes"})
    if (name == f) return true;
  return false;
}

Call with_args(const Call& c, std::vector<Value> args) { return Call{c.node, std::move(args), c.options, c.diag}; }

// The partition functions answer (layout, origin) of make_coord_tensor(L);
// on a tensor the origin moves its iterator.
Value partitioned(const Call& c, const Builtin& f) {
  const Value& a = c.args.at(0);
  Tensor t = is_tensor(a) ? tensor_of(a) : Tensor(Iterator{}, {});
  if (!is_tensor(a)) {
    if (a.kind == Value::Kind::Composed || !a.as_plain_layout()) return f(c);  // its message
    t = make_coord_tensor(*a.as_plain_layout());
  }
  std::vector<Value> args = c.args;
  args[0] = Value::of(plain_layout(t, c.name()));
  const Call inner = with_args(c, std::move(args));
  const Value pair = f(inner);
  if (pair.kind != Value::Kind::Tuple || pair.elems.size() != 2) return pair;
  c.template_args_read = c.template_args_read || inner.template_args_read;
  return tensor_value(moved(t.iterator, pair.elems.at(1).as_int_tuple()), pair.elems.at(0).layout);
}

Value recast_tensor(const Call& c, const Tensor& t) {
  c.expect_args(1, 1);
  c.expect_template_args(1, 1);
  if (t.iterator.memory == Memory::Coordinate)
    c.fail_arg(0, "recast<T> of a coordinate tensor: its elements are coordinates, not values of a type");
  const auto [element, bits] = element_type(c, 0);
  Iterator it = t.iterator;
  it.element = element;
  it.bits = bits;
  if (bits == t.iterator.bits) return tensor_value(std::move(it), t.layout);
  if (const auto* composed = std::get_if<ComposedLayout>(&t.layout))
    return tensor_value(std::move(it), recast_layout(*composed, t.iterator.bits, bits, c.diag));
  const Layout& old = std::get<Layout>(t.layout);
  const Layout l = recast_layout(old, t.iterator.bits, bits, c.diag);
  // An upcast of a layout with negative strides starts where its lowest element is.
  Int offset = static_int(0);
  if (bits > t.iterator.bits) {
    const std::vector<Int> old_shape = leaves(old.shape), new_shape = leaves(l.shape), stride = leaves(old.stride);
    for (std::size_t i = 0; i < old_shape.size() && i < new_shape.size(); ++i)
      offset = offset + min((old_shape[i] - new_shape[i]) * stride[i], static_int(0));
  }
  // The old element offset, in new elements (recast_ptr keeps the address).
  const Int old_position = it.position.value() + offset;
  it.position = IntTuple(Int{old_position.value * t.iterator.bits / bits, false});
  return tensor_value(std::move(it), l);
}

Value fragment_like(const Call& c, const Value& a, std::string element, int bits) {
  const bool tensor = is_tensor(a);
  if (tensor && tensor_of(a).iterator.memory == Memory::Coordinate && !tensor_of(a).iterator.bound)
    c.fail_arg(0, "make_fragment_like of a coordinate tensor does not compile in CuTe (its elements are coordinates)");
  const AnyLayout l = tensor ? tensor_of(a).layout : AnyLayout{c.layout(0)};
  const Layout& inner = std::holds_alternative<Layout>(l) ? std::get<Layout>(l) : std::get<ComposedLayout>(l).layout;
  return register_tensor(c, element, bits, make_fragment_like(inner, c.diag));
}

}  // namespace

Value fn_make_identity_tensor(const Call& c) {
  c.expect_args(1, 1);
  c.expect_template_args(0, 0);
  Tensor t = make_identity_tensor(c.int_tuple(0));
  return tensor_value(std::move(t.iterator), std::move(t.layout));
}

Value fn_make_coord_tensor(const Call& c) {
  c.expect_args(1, 1);
  c.expect_template_args(0, 0);
  if (c.args[0].kind == Value::Kind::Composed)
    c.fail_arg(0, "make_coord_tensor of a swizzled layout does not compile in CuTe");
  Tensor t = make_coord_tensor(c.layout(0));
  return tensor_value(std::move(t.iterator), std::move(t.layout));
}

Value fn_make_tensor(const Call& c) {
  c.expect_args(1, 3);
  if (!c.node.template_args().empty()) {
    c.expect_template_args(1, 1);
    const auto [element, bits] = element_type(c, 0, true);
    const AnyLayout l = layout_argument(c, 0);
    if (!std::holds_alternative<Layout>(l)) c.fail_arg(0, "a register tensor of a swizzled layout is not supported");
    return register_tensor(c, element, bits, std::get<Layout>(l));
  }
  c.expect_template_args(0, 0);
  const Value& p = c.args[0];
  if (p.kind != Value::Kind::Pointer)
    c.fail_arg(0, fmt::format("expected a pointer (make_gmem_ptr<T>(p), make_smem_ptr<T>(p)), got {} {}",
                              a_kind_name(p), c.text(p)));
  if (c.args.size() < 2) c.fail("make_tensor(ptr, layout) takes a layout (or a shape) after the pointer");
  if (c.options.global_as_coordinates && pointer_of(p).memory == Memory::Global) {
    const AnyLayout l = layout_argument(c, 1);
    const IntTuple& shape =
        std::holds_alternative<Layout>(l) ? std::get<Layout>(l).shape : std::get<ComposedLayout>(l).layout.shape;
    Tensor t = make_identity_tensor(shape);
    t.iterator.bound = shape;
    t.iterator.bits = pointer_of(p).bits;
    t.iterator.element = pointer_of(p).element;
    return tensor_value(std::move(t.iterator), std::move(t.layout));
  }
  return make_pointer_tensor(pointer_of(p), layout_argument(c, 1));
}

Value fn_make_gmem_ptr(const Call& c) { return pointer(c, Memory::Global); }
Value fn_make_smem_ptr(const Call& c) { return pointer(c, Memory::Shared); }

Value fn_make_tensor_like(const Call& c) {
  c.expect_args(1, 1);
  const Value& a = c.args[0];
  std::string element;
  int bits = 0;
  if (!c.node.template_args().empty()) {
    c.expect_template_args(1, 1);
    std::tie(element, bits) = element_type(c, 0, true);
  } else if (is_tensor(a) && (tensor_of(a).iterator.memory != Memory::Coordinate || tensor_of(a).iterator.bound)) {
    element = tensor_of(a).iterator.element;
    bits = tensor_of(a).iterator.bits;
  } else {
    c.fail("make_tensor_like takes the element type: make_tensor_like<T>(layout)");
  }
  if (is_tensor(a) && tensor_of(a).iterator.memory == Memory::Coordinate && !tensor_of(a).iterator.bound)
    c.fail_arg(0, "make_tensor_like of a coordinate tensor does not compile in CuTe (its elements are coordinates)");
  return register_tensor(c, element, bits,
                         make_layout_like(is_tensor(a) ? plain_layout(tensor_of(a), "make_tensor_like") : c.layout(0)));
}

// group_modes<B,E>(t): CuTe defines it for tensors only (group<B,E> groups a layout's modes).
Value fn_group_modes(const Call& c) {
  c.expect_args(1, 1);
  if (!is_tensor(c.args[0]))
    c.fail_arg(0, fmt::format("CuTe's group_modes takes a tensor, not {} (group<B,E>(x) groups a layout's modes)",
                              a_kind_name(c.args[0])));
  const Tensor& t = tensor_of(c.args[0]);
  const Call inner = with_args(c, {layout_value(t.layout)});
  const Value v = tuples::fn_group(inner);
  c.template_args_read = c.template_args_read || inner.template_args_read;
  return tensor_value(t.iterator, v.as_any_layout());
}

Builtin tensor_partition(Builtin f) {
  return [f](const Call& c) { return partitioned(c, f); };
}

Builtin fragment_form(Builtin f) {
  return [f](const Call& c) {
    const Value& a = c.args.empty() ? Value() : c.args[0];
    if (!c.node.template_args().empty()) {
      c.expect_args(1, 1);
      c.expect_template_args(1, 1);
      const auto [element, bits] = element_type(c, 0, true);
      return fragment_like(c, a, element, bits);
    }
    if (!is_tensor(a)) return f(c);
    c.expect_args(1, 1);
    return fragment_like(c, a, tensor_of(a).iterator.element, tensor_of(a).iterator.bits);
  };
}

bool has_tensor(const std::vector<Value>& args) { return std::any_of(args.begin(), args.end(), is_tensor); }

Value call_with_tensors(const Call& c, const Builtin& f) {
  const std::string_view name = c.name();
  if (takes_tensors(name)) return f(c);
  const auto first = std::find_if(c.args.begin(), c.args.end(), is_tensor);
  if (name == "recast" && first == c.args.begin()) return recast_tensor(c, tensor_of(*first));
  if (name == "domain_offset" && c.args.size() == 2 && is_tensor(c.args[1])) {
    const Tensor& t = tensor_of(c.args[1]);
    const IntTuple offset = offset_at(plain_layout(t, "domain_offset"), c.int_tuple(0));
    return tensor_value(moved(t.iterator, offset), t.layout);
  }
  if (name == "layout" && c.node.template_args().empty() && c.args.size() == 1)
    return Value::of(tensor_of(c.args[0]).layout);
  const bool about_layout = answers_about_layout(name);
  if (!about_layout && !(keeps_iterator(name) && first == c.args.begin()))
    c.fail_arg(
        static_cast<std::size_t>(first - c.args.begin()),
        fmt::format("{} takes no tensor here (CuTe has no tensor form of it); pass the tensor's layout: layout(t)",
                    name));
  std::vector<Value> args = c.args;
  for (Value& a : args)
    if (is_tensor(a)) a = layout_value(tensor_of(a).layout);
  const Call inner = with_args(c, std::move(args));
  Value v = f(inner);
  c.template_args_read = c.template_args_read || inner.template_args_read;
  if (about_layout) return v;
  return tensor_value(tensor_of(*first).iterator, v.as_any_layout());
}

Value tensor_at(const Value& tensor, const Value& coord, Notation n) {
  const Tensor& t = tensor_of(tensor);
  if (has_underscore(coord)) {
    Tensor s = slice(t, coord, n);
    return tensor_value(std::move(s.iterator), std::move(s.layout));
  }
  if (!coord.is_int_tuple())
    throw Error(
        fmt::format("a coordinate is an integer or an int tuple, got {} {}", a_kind_name(coord), to_text(coord, n)));
  return Value::of(element(t, coord.as_int_tuple(), n));
}

}  // namespace layoutx::lang
