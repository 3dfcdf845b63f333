// CuTe's tensors (tensor_impl.hpp) as values: printing, slicing, elements.
#include "layoutx/tensor.hpp"

#include <fmt/format.h>

#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/swizzle_slice.hpp"
#include "layoutx/tensor_partition.hpp"

namespace layoutx {

namespace {

const char* memory_prefix(Memory m) {
  switch (m) {
    case Memory::Global: return "gmem_";
    case Memory::Shared: return "smem_";
    default: return "";
  }
}

// printf("%p"): glibc writes a null pointer as (nil). A subbyte pointer
// (CuTe's subbyte_iterator) adds the element's first bit in its byte.
std::string address_text(const Iterator& it) {
  if (it.bits < 8) {
    const std::int64_t bit = checked_mul(it.position.value().value, it.bits, "a pointer's bit offset");
    const std::int64_t byte = checked_add(it.base, bit / 8, "a pointer's address");
    return fmt::format("0x{:x}.{}", static_cast<std::uint64_t>(byte), bit % 8);
  }
  const std::int64_t offset_bytes = checked_mul(it.position.value().value, it.bits / 8, "a pointer's byte offset");
  const auto address = static_cast<std::uint64_t>(checked_add(it.base, offset_bytes, "a pointer's address"));
  if (address == 0 && it.known_base) return "(nil)";
  return fmt::format("0x{:x}", address);
}

// CuTe's pretty_print of one element: a run-time int right-aligned in 5, anything else after two spaces.
void append_pretty(std::string& out, const IntTuple& e, Notation n) {
  if (e.is_leaf() && !e.value().is_static && !e.value().is_scaled_basis()) {
    out += fmt::format("{:>5}", e.value().value);
    return;
  }
  out += "  ";
  out += to_text(e, n);
}

int rank_of(const AnyLayout& l) {
  const IntTuple& shape =
      std::holds_alternative<Layout>(l) ? std::get<Layout>(l).shape : std::get<ComposedLayout>(l).layout.shape;
  return shape.is_leaf() ? 1 : shape.rank();
}

Value underscores_then(int rank, int last) {
  std::vector<Value> c(static_cast<std::size_t>(rank), Value::tag(Value::Kind::Underscore));
  c.back() = Value::of(dynamic_int(last));
  return Value::tuple(std::move(c));
}

void append_tensor_rows(std::string& out, const Tensor& t, Notation n) {
  const Layout& l = plain_layout(t, "print_tensor");
  const int r = rank_of(t.layout);
  if (r == 1) {
    for (std::int64_t m = 0; m < product(l.shape).value; ++m) {
      append_pretty(out, element(t, IntTuple(dynamic_int(m)), n), n);
      out += '\n';
    }
  } else if (r == 2) {
    for (std::int64_t m = 0; m < product(l.shape[0]).value; ++m) {
      for (std::int64_t k = 0; k < product(l.shape[1]).value; ++k)
        append_pretty(out, element(t, IntTuple::pair(dynamic_int(m), dynamic_int(k)), n), n);
      out += '\n';
    }
  } else {
    const std::int64_t count = product(l.shape[r - 1]).value;
    const std::string rule(static_cast<std::size_t>(5 * product(l.shape[1]).value), r == 3 ? '-' : '=');
    for (std::int64_t k = 0; k < count; ++k) {
      if (k) out += rule + '\n';
      append_tensor_rows(out, slice(t, underscores_then(r, static_cast<int>(k)), n), n);
    }
  }
}

}  // namespace

std::string to_text(const Iterator& it, Notation n) {
  if (it.memory == Memory::Coordinate) return "ArithTuple" + to_text(it.position, n);
  if (it.memory == Memory::GmmaDescriptor) return "GMMA::DescriptorIterator";
  const std::string swizzle = it.swizzle ? to_text(*it.swizzle) + "_" : "";
  return fmt::format("{}{}{}ptr[{}b]({})", swizzle, memory_prefix(it.memory), it.bits < 8 ? "sub" : "", it.bits,
                     address_text(it));
}

std::string Tensor::print(Notation n) const { return to_text(iterator, n) + " o " + to_text(layout, n); }

std::string Pointer::print(Notation n) const { return to_text(iterator, n); }

Value tensor_value(Iterator it, AnyLayout l) {
  Value v = Value::of(std::make_shared<const Tensor>(std::move(it), std::move(l)));
  v.kind = Value::Kind::Tensor;
  return v;
}

Value make_pointer_tensor(Iterator it, AnyLayout l) {
  const auto* c = std::get_if<ComposedLayout>(&l);
  if (!c || !c->pointer || !c->nested.empty()) return tensor_value(std::move(it), std::move(l));
  if (it.memory != Memory::Shared)
    throw Error(
        fmt::format("static_assert: Expected smem.: a layout with a smem_ptr_flag ({}) takes a shared-memory "
                    "pointer (make_smem_ptr)",
                    to_text(l, Notation{true})));
  if (c->pointer->bits != it.bits)
    throw Error(
        fmt::format("static_assert: Expected a B-bit pointer type.: the layout's smem_ptr_flag is of {}-bit "
                    "elements, the pointer's of {}-bit ones",
                    c->pointer->bits, it.bits));
  // make_smem_ptr(p, Swizzle<0,M,S>) is the plain pointer.
  if (c->swizzle.bits != 0) it.swizzle = c->swizzle;
  return tensor_value(std::move(it), c->layout);
}

Value pointer_value(Iterator it) {
  Value v = Value::of(std::make_shared<const Pointer>(std::move(it)));
  v.kind = Value::Kind::Pointer;
  return v;
}

Value raw_pointer(std::string element, int bits, std::int64_t address) {
  Iterator it;
  it.memory = Memory::Register;
  it.position = IntTuple(dynamic_int(0));
  it.bits = bits;
  it.element = std::move(element);
  it.base = address;
  return pointer_value(std::move(it));
}

Tensor make_identity_tensor(const IntTuple& shape) { return make_coord_tensor(make_identity_layout(shape)); }

Tensor make_coord_tensor(const Layout& l) {
  Iterator it;
  it.position = codomain_zero(l);
  return Tensor(std::move(it), l);
}

Tensor with_layout(const Tensor& t, AnyLayout l) { return Tensor(t.iterator, std::move(l)); }

Iterator moved(const Iterator& it, const IntTuple& offset) {
  Iterator out = it;
  out.position = coordinate_sum(it.position, offset);
  return out;
}

const Tensor& as_tensor(const Value& v) { return static_cast<const Tensor&>(*v.object); }
const Iterator& as_pointer(const Value& v) { return static_cast<const Pointer&>(*v.object).iterator; }

Tensor make_register_tensor(int bits, std::string element, const Layout& l) {
  if (!is_static(l.shape) || !is_static(l.stride))
    throw StaticRequiredError(
        fmt::format("static_assert: Dynamic owning tensors not supported (the layout {} is not static)",
                    to_text(l, Notation{true})));
  Iterator it;
  it.memory = Memory::Register;
  it.position = IntTuple(dynamic_int(0));
  it.bits = bits;
  it.element = std::move(element);
  it.known_base = false;
  it.elements = std::make_shared<RegisterElements>();
  return Tensor(std::move(it), l);
}

const Layout& plain_layout(const Tensor& t, std::string_view what) {
  if (const auto* l = std::get_if<Layout>(&t.layout)) return *l;
  throw Error(fmt::format("{} of a tensor with a swizzled layout is not supported yet", what));
}

Tensor slice(const Tensor& t, const Value& coord, Notation n) {
  if (const auto* composed = std::get_if<ComposedLayout>(&t.layout)) {
    Diagnostics diag(false, n);
    SlicedLayout s = slice_and_offset(coord, *composed, diag);
    return Tensor(moved(t.iterator, IntTuple(s.offset)), std::move(s.layout));
  }
  const TensorSlice s = tensor_slice(t.iterator.position, plain_layout(t, "slicing"), coord, n);
  Iterator it = t.iterator;
  it.position = s.origin;
  return Tensor(std::move(it), s.layout);
}

namespace {

// The offset of t(coord) in its register array.
std::int64_t register_offset(const Tensor& t, const IntTuple& coord) {
  const IntTuple at = coordinate_sum(t.iterator.position, offset_at(plain_layout(t, "an element"), coord));
  if (!at.is_leaf()) throw Error("a register array's element is at an integer offset");
  return at.value().value;
}

}  // namespace

void store_element(const Tensor& t, const IntTuple& coord, std::int64_t value, Notation n) {
  if (!t.iterator.elements)
    throw Error(
        fmt::format("layoutx writes the elements of register arrays (make_tensor<T>) only, not of {}", t.print(n)));
  const std::string& type = t.iterator.element;
  if (type == "bool") value = value != 0;
  t.iterator.elements->values[register_offset(t, coord)] = value;
}

IntTuple element(const Tensor& t, const IntTuple& coord, Notation n) {
  if (t.iterator.elements) {
    const auto it = t.iterator.elements->values.find(register_offset(t, coord));
    if (it == t.iterator.elements->values.end())
      throw Error(
          fmt::format("the element {} of {} was not written before it is read (layoutx knows a register "
                      "array's bool and integer elements once the program writes them)",
                      to_text(coord, n), t.print(n)));
    return IntTuple(dynamic_int(it->second));
  }
  if (t.iterator.memory != Memory::Coordinate)
    throw Error(
        fmt::format("the element of {} is data that layoutx does not have (only a coordinate tensor's elements, "
                    "its coordinates, are known)",
                    t.print(n)));
  return coordinate_sum(t.iterator.position, offset_at(plain_layout(t, "an element"), coord));
}

std::string print_tensor_text(const Tensor& t, Notation n) {
  if (t.iterator.memory != Memory::Coordinate)
    throw Error(
        fmt::format("print_tensor prints a tensor's data, which layoutx does not have for {} (only a coordinate "
                    "tensor's elements are known)",
                    t.print(n)));
  const int r = rank_of(t.layout);
  if (r > 4) throw Error(fmt::format("print_tensor prints tensors of rank 1 to 4, not {}", r));
  std::string out = t.print(n) + ":\n";
  append_tensor_rows(out, t, n);
  return out;
}

}  // namespace layoutx
