// CuTe's tensors as values: an iterator (where the data starts) and a layout.
// layoutx has no data, only positions: a coordinate tensor
// (make_identity_tensor, make_coord_tensor) holds an arithmetic tuple and its
// elements are coordinates layoutx can give; a pointer tensor (global or
// shared memory, or a register array) holds an address and its elements are
// data layoutx does not have.
//
// Addresses. CuTe prints a pointer with printf's %p. A pointer made from an
// address layoutx knows (nullptr, or an integer) is printed exactly as glibc
// does: `(nil)` for 0, else 0x and the hex digits. A register array's address
// is the stack's, which no one can know before the program runs: layoutx
// places every register array at 0 and prints its address in the 0x form
// (0x0, 0x10, ...), so that a comparison which masks 0x... addresses covers it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "layoutx/value.hpp"

namespace layoutx {

// What a tensor's iterator is, as CuTe's print names it.
enum class Memory {
  Coordinate,      // ArithmeticTupleIterator: ArithTuple(...)
  Global,          // gmem_ptr[Nb](address)
  Shared,          // smem_ptr[Nb](address)
  Register,        // an owning register array, or a raw T* pointer: ptr[Nb](address)
  GmmaDescriptor,  // GMMA::DescriptorIterator: SM90 MMA operands read from shared memory
};

// The elements a program wrote into one register array, by offset: layoutx
// keeps bool and integer values (predicates, indices), written by the
// program's `t(i) = x`; every view of the array (a slice, a partition)
// shares them.
struct RegisterElements {
  std::map<std::int64_t, std::int64_t> values;
};

// Where a tensor's data starts.
struct Iterator {
  Memory memory = Memory::Coordinate;
  // Coordinate: the arithmetic tuple (an integer for a coordinate tensor of a
  // layout with integer strides). Pointers: the element offset from `base`.
  IntTuple position = IntTuple(static_int(0));
  int bits = 0;            // the element's width (pointers)
  std::string element;     // the element's type as written (pointers): "float", "half_t"
  std::int64_t base = 0;   // the address of element 0, in bytes
  bool known_base = true;  // false for register arrays (see the file's comment)
  // A shared-memory pointer that swizzles its addresses (CuTe's swizzle_ptr,
  // printed Sw<B,M,S>_smem_ptr[...]): what make_tensor makes of a layout
  // that carries a smem_ptr_flag, such as GMMA::Layout_K_SW128_Atom<T>.
  std::optional<Swizzle> swizzle;
  // A register array made by make_tensor<T>(layout): the elements written so far.
  std::shared_ptr<RegisterElements> elements;
  // A coordinate tensor standing for a global tensor (a run that checks
  // bounds): the global tensor's shape, which its coordinates must stay below.
  std::optional<IntTuple> bound;
};

struct Tensor : ValueObject {
  Iterator iterator;
  AnyLayout layout;

  Tensor(Iterator it, AnyLayout l) : iterator(std::move(it)), layout(std::move(l)) {}
  std::string type_name() const override { return "tensor"; }
  std::string print(Notation n) const override;
};

// A pointer on its own (make_gmem_ptr<float>(nullptr)), before make_tensor gives it a layout.
struct Pointer : ValueObject {
  Iterator iterator;

  explicit Pointer(Iterator it) : iterator(std::move(it)) {}
  std::string type_name() const override { return "pointer"; }
  std::string print(Notation n) const override;
};

Value tensor_value(Iterator it, AnyLayout l);
// make_tensor(ptr, layout) as CuTe makes it: a layout carrying a
// smem_ptr_flag (Sw o smem_ptr[Nb](unset) o L) moves its swizzle into the
// pointer (a shared-memory pointer of N-bit elements only), leaving L.
Value make_pointer_tensor(Iterator it, AnyLayout l);
Value pointer_value(Iterator it);
// A raw pointer T* at a known address (nullptr is 0), as `float* A = nullptr;`
// makes one: what make_gmem_ptr(A) and make_smem_ptr(A) take.
Value raw_pointer(std::string element, int bits, std::int64_t address);
// The tensor or pointer a value of kind Tensor or Pointer holds.
const Tensor& as_tensor(const Value& v);
const Iterator& as_pointer(const Value& v);

// CuTe's print of the iterator: ArithTuple(_0,_0), gmem_ptr[32b]((nil)), ...
std::string to_text(const Iterator& it, Notation n);

// make_identity_tensor(shape): ArithTuple(_0,...) o make_identity_layout(shape).
Tensor make_identity_tensor(const IntTuple& shape);
// make_coord_tensor(L): the coordinate tensor of L, starting at the zero of its codomain.
Tensor make_coord_tensor(const Layout& l);
// make_tensor<T>(L): a register array of `bits`-wide elements (bool's 1 bit
// is CuTe's sizeof_bits: a subbyte array); CuTe owns only static layouts
// (throws its static_assert's reason for a dynamic one).
Tensor make_register_tensor(int bits, std::string element, const Layout& l);

// The same iterator with another layout (what CuTe's divides and products of a tensor keep).
Tensor with_layout(const Tensor& t, AnyLayout l);
// The iterator moved by an offset of its layout's codomain: an integer for a
// pointer, a coordinate for a coordinate tensor.
Iterator moved(const Iterator& it, const IntTuple& offset);

// t(coord) with `_` in the coordinate: the slice, its iterator moved to where it starts.
Tensor slice(const Tensor& t, const Value& coord, Notation n);
// t(coord) for a coordinate tensor: the element, a coordinate (or an integer).
// For a register array, the integer the program wrote there; refused for
// other pointer tensors, whose elements are data layoutx does not have.
IntTuple element(const Tensor& t, const IntTuple& coord, Notation n);
// t(coord) = value for a register array of bool or integer elements.
void store_element(const Tensor& t, const IntTuple& coord, std::int64_t value, Notation n);

// print_tensor(t) of a coordinate tensor of rank 1 to 4, as CuTe prints it
// (print(t), ":", then the elements in rows, a line of - between the slices
// of mode 2 and of = between those of mode 3).
std::string print_tensor_text(const Tensor& t, Notation n);

// The tensor's plain layout; throws for a swizzled (composed) layout naming `what` needs a plain one.
const Layout& plain_layout(const Tensor& t, std::string_view what);

}  // namespace layoutx
