// The integers at a tuple's leaves, in order (CuTe's flatten_to_tuple), held
// inline up to kInline of them: coalesce, filter and complement walk a
// layout's leaves without a vector per walk for the small layouts nearly
// every expression has.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "layoutx/int_tuple.hpp"
#include "layoutx/layout.hpp"

namespace layoutx {

class LeafList {
 public:
  static constexpr std::size_t kInline = 8;

  std::size_t size() const { return size_; }
  LeafList() {}  // the inline elements are written before they are read
  LeafList(const LeafList& o) : heap_(o.heap_), size_(o.size_), spilled_(o.spilled_) {
    if (!spilled_) std::copy(o.inline_, o.inline_ + size_, inline_);
  }
  LeafList& operator=(const LeafList& o) {
    heap_ = o.heap_;
    size_ = o.size_;
    spilled_ = o.spilled_;
    if (!spilled_) std::copy(o.inline_, o.inline_ + size_, inline_);
    return *this;
  }

  Int& operator[](std::size_t i) { return data()[i]; }
  const Int& operator[](std::size_t i) const { return data()[i]; }
  Int& back() { return data()[size_ - 1]; }
  const Int* begin() const { return data(); }
  const Int* end() const { return data() + size_; }

  void push_back(Int x) {
    if (!spilled_ && size_ < kInline) {
      inline_[size_++] = x;
      return;
    }
    push_back_spilled(x);
  }
  void reverse() {
    Int* d = data();
    for (std::size_t i = 0, j = size_; i + 1 < j; ++i, --j) std::swap(d[i], d[j - 1]);
  }
  void erase(std::size_t i) {
    Int* d = data();
    for (std::size_t j = i + 1; j < size_; ++j) d[j - 1] = d[j];
    --size_;
    if (spilled_) heap_.pop_back();
  }

 private:
  // Out of line: the inline case above is the one nearly every list takes.
  [[gnu::noinline]] void push_back_spilled(Int x) {
    if (!spilled_) spilled_ = true, heap_.assign(inline_, inline_ + size_);
    heap_.push_back(x);
    ++size_;
  }

  Int* data() { return spilled_ ? heap_.data() : inline_; }
  const Int* data() const { return spilled_ ? heap_.data() : inline_; }

  union {
    Int inline_[kInline];
  };
  std::vector<Int> heap_;
  std::size_t size_ = 0;
  bool spilled_ = false;
};

inline void append_leaves(const IntTuple& t, LeafList& out) {
  if (t.is_leaf()) {
    out.push_back(t.value());
    return;
  }
  for (const IntTuple& e : t.elems()) {
    if (e.is_leaf())  // no call for the integers of a tuple, nearly every leaf
      out.push_back(e.value());
    else
      append_leaves(e, out);
  }
}

inline LeafList leaf_list(const IntTuple& t) {
  LeafList out;
  append_leaves(t, out);
  return out;
}

// The list as a flat tuple (one element is a one-element tuple), as traces show modes.
inline IntTuple flat_tuple(const LeafList& l) { return IntTuple(std::vector<IntTuple>(l.begin(), l.end())); }

// CuTe's coalesce of the layout whose flat modes are s:d (coalesce.cpp): its
// modes front first into shape and stride (the trivial layout as _1:_0).
void coalesce_modes(const LeafList& s, const LeafList& d, LeafList& shape, LeafList& stride);
// The layout of flat modes: one mode is a plain integer pair, more a flat tuple.
Layout layout_of_modes(const LeafList& shape, const LeafList& stride);
// The two above: coalesce of the layout whose flat modes are s:d.
Layout coalesce_leaves(const LeafList& s, const LeafList& d);
// coalesce_x(l) as its flat modes, front first.
void coalesce_x_modes(const Layout& l, LeafList& shape, LeafList& stride);
// CuTe's filter(l) as its flat modes, front first.
void filter_modes(const Layout& l, LeafList& shape, LeafList& stride);

}  // namespace layoutx
