// IntTuple: an integer or a tuple of IntTuples, with CuTe's int_tuple.hpp and
// stride.hpp operations (product, flatten, shape_div, compact strides, crd2idx).
#pragma once

#include <functional>
#include <initializer_list>
#include <iterator>
#include <string>
#include <vector>

#include "layoutx/error.hpp"
#include "layoutx/integer.hpp"

namespace layoutx {

class IntTuple {
 public:
  IntTuple() : is_leaf_(false) {}                 // the empty tuple ()
  IntTuple(Int i) : is_leaf_(true), value_(i) {}  // NOLINT: an integer is an IntTuple
  explicit IntTuple(std::vector<IntTuple> elems) : is_leaf_(false), elems_(std::move(elems)) {}
  static IntTuple tuple(std::initializer_list<IntTuple> elems) { return IntTuple(std::vector<IntTuple>(elems)); }

  // An integer and an empty tuple have no elements to copy or destroy: their
  // copy and destruction stay inline, and only a tuple's elements go through
  // the vector's out-of-line code (which the default members would call for
  // every integer inside a tuple, recursively).
  IntTuple(const IntTuple& o) : is_leaf_(o.is_leaf_), value_(o.value_) {
    if (!o.elems_.empty()) copy_elements(o);
  }
  IntTuple(IntTuple&&) noexcept = default;
  IntTuple& operator=(const IntTuple&) = default;
  IntTuple& operator=(IntTuple&&) noexcept = default;
  ~IntTuple() {
    if (!elems_.empty()) destroy_elements();
  }
  // (a, b), the two moved in (an initializer list would copy them once more).
  static IntTuple pair(IntTuple a, IntTuple b) {
    IntTuple two[2] = {std::move(a), std::move(b)};
    return IntTuple(std::vector<IntTuple>(std::make_move_iterator(two), std::make_move_iterator(two + 2)));
  }

  bool is_leaf() const { return is_leaf_; }
  bool is_tuple() const { return !is_leaf_; }
  Int value() const { return value_; }
  const std::vector<IntTuple>& elems() const { return elems_; }
  std::vector<IntTuple>& elems() { return elems_; }

  // CuTe's rank: 1 for an integer, the number of elements for a tuple.
  int rank() const { return is_leaf_ ? 1 : static_cast<int>(elems_.size()); }
  // CuTe's get<i>: get<0> of an integer is the integer itself. A tuple's
  // element is taken inline; the rest, and the errors, out of line.
  const IntTuple& operator[](int i) const {
    if (!is_leaf_ && i >= 0 && static_cast<std::size_t>(i) < elems_.size()) return elems_[i];
    return element_or_throw(i);
  }

  bool operator==(const IntTuple& o) const;
  bool operator!=(const IntTuple& o) const { return !(*this == o); }

 private:
  const IntTuple& element_or_throw(int i) const;
  void copy_elements(const IntTuple& o);
  void destroy_elements();

  bool is_leaf_;
  Int value_;
  std::vector<IntTuple> elems_;
};

// Element i of CuTe's select<...>(t). A dynamic integer reaches CuTe's get<I>
// for dim3 by conversion (the integer overload is declared after select), so
// select<0> gives it as a 32-bit unsigned value and select<1>, select<2> give 1.
IntTuple select_element(const IntTuple& t, int i, Diagnostics& diag);

int depth(const IntTuple& t);
Int product(const IntTuple& t);                         // CuTe's size() of a shape
IntTuple flatten(const IntTuple& t);                    // depth <= 1; an integer stays an integer
std::vector<Int> leaves(const IntTuple& t);             // flatten_to_tuple as a vector
std::size_t leaf_count(const IntTuple& t);              // how many integers `leaves` gives
IntTuple wrap(const IntTuple& t);                       // an integer becomes a one-element tuple
IntTuple unwrap(const IntTuple& t);                     // a one-element tuple becomes its element
IntTuple append(const IntTuple& t, const IntTuple& x);  // CuTe append: an integer first becomes (t)
IntTuple prepend(const IntTuple& t, const IntTuple& x);
IntTuple append_to_rank(const IntTuple& t, int n, const IntTuple& x);  // append<N>(t, x)
IntTuple take(const IntTuple& t, int b, int e);
IntTuple remove_at(const IntTuple& t, int i);
bool is_static(const IntTuple& t);
bool congruent(const IntTuple& a, const IntTuple& b);
bool has_constant(const IntTuple& t, std::int64_t n);  // some leaf is static n (has_int1 for n=1)

IntTuple transform_leaf(const IntTuple& t, const std::function<Int(Int)>& f);
IntTuple transform_leaf(const IntTuple& a, const IntTuple& b, const std::function<Int(Int, Int)>& f);
IntTuple repeat_like(const IntTuple& t, Int x);
IntTuple product_each(const IntTuple& t);
Int inner_product(const IntTuple& a, const IntTuple& b);

IntTuple shape_div(const IntTuple& a, const IntTuple& b, Diagnostics& diag);
IntTuple ceil_div(const IntTuple& a, const IntTuple& b);
IntTuple coalesce_shape(const IntTuple& shape);      // coalesce(Shape): merge neighbours of equal staticness
IntTuple zip(const IntTuple& t);                     // transpose of a tuple of equal-rank tuples
IntTuple zip(const IntTuple& a, const IntTuple& b);  // zip((a, b))
// zip2_by(t, guide): gather the rank-2 modes at the guide's terminals into ((firsts),(seconds, rest)).
IntTuple zip2_by(const IntTuple& t, const IntTuple& guide);

// compact_major<LayoutLeft/LayoutRight>(shape, current)
IntTuple compact_col_major(const IntTuple& shape, Int current = static_int(1));
IntTuple compact_row_major(const IntTuple& shape, Int current = static_int(1));
IntTuple compact_order(const IntTuple& shape, const IntTuple& order);

// crd2idx(coord, shape, stride) and idx2crd(idx, shape) (column-major, compact).
Int crd2idx(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride);
// crd2idx(coord, shape): the colexicographic index of the coordinate (an integer is one already).
Int crd2idx(const IntTuple& coord, const IntTuple& shape);
IntTuple idx2crd(Int idx, const IntTuple& shape);
// idx2crd with a tuple of indices: each index splits within its own mode.
IntTuple idx2crd(const IntTuple& idx, const IntTuple& shape);

// Coordinates are "in the domain" when every integer is in [0, extent) of its
// mode (an integer against a tuple mode is checked against the mode's size).
bool coordinate_in_domain(const IntTuple& coord, const IntTuple& shape);

}  // namespace layoutx
