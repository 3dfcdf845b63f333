#include "layoutx/int_tuple.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "crd2idx.hpp"
#include "layoutx/notation.hpp"

namespace layoutx {

void IntTuple::copy_elements(const IntTuple& o) { elems_ = o.elems_; }

void IntTuple::destroy_elements() { elems_.clear(); }

const IntTuple& IntTuple::element_or_throw(int i) const {
  if (is_leaf_) {
    if (i != 0)
      throw naming_values([&](Notation shown) {
        return fmt::format("Index out of range: get<{}> of the integer {}", i, to_text(*this, shown));
      });
    return *this;
  }
  if (i < 0 || i >= static_cast<int>(elems_.size()))
    throw naming_values([&](Notation shown) {
      return fmt::format("Index out of range: get<{}> of {} (rank {})", i, to_text(*this, shown), elems_.size());
    });
  return elems_[i];
}

bool IntTuple::operator==(const IntTuple& o) const {
  if (is_leaf_ != o.is_leaf_) return false;
  if (is_leaf_) return value_ == o.value_;
  return elems_ == o.elems_;
}

IntTuple select_element(const IntTuple& t, int i, Diagnostics& diag) {
  if (t.is_tuple() || t.value().is_static) return t[i];
  if (i >= 3)
    throw Error(
        fmt::format("Index out of range: select<{}> of the integer {} (CuTe reads it as a dim3)", i, t.value().value));
  if (i > 0) return dynamic_int(1);
  const Int v = t.value();
  const auto as_uint32 = static_cast<std::int64_t>(static_cast<std::uint32_t>(v.value));
  if (as_uint32 != v.value)
    diag.warn("Integer conversion",
              fmt::format("select<0> of the dynamic integer {} is {}: CuTe reads it as a dim3, whose "
                          "coordinates are 32-bit unsigned",
                          v.value, as_uint32));
  return dynamic_int(as_uint32);
}

int depth(const IntTuple& t) {
  if (t.is_leaf()) return 0;
  int d = 0;
  for (const auto& e : t.elems()) d = std::max(d, depth(e));
  return 1 + d;
}

Int product(const IntTuple& t) {
  if (t.is_leaf()) return t.value();
  Int p = static_int(1);
  for (const auto& e : t.elems()) p = p * product(e);
  return p;
}

static void collect_leaves(const IntTuple& t, std::vector<Int>& out) {
  if (t.is_leaf()) {
    out.push_back(t.value());
    return;
  }
  for (const auto& e : t.elems()) collect_leaves(e, out);
}

std::size_t leaf_count(const IntTuple& t) {
  if (t.is_leaf()) return 1;
  std::size_t n = 0;
  for (const auto& e : t.elems()) n += leaf_count(e);
  return n;
}

std::vector<Int> leaves(const IntTuple& t) {
  std::vector<Int> out;
  out.reserve(leaf_count(t));  // one block, not one per doubling
  collect_leaves(t, out);
  return out;
}

IntTuple flatten(const IntTuple& t) {
  if (t.is_leaf()) return t;
  std::vector<IntTuple> out;
  for (Int i : leaves(t)) out.emplace_back(i);
  return IntTuple(std::move(out));
}

IntTuple wrap(const IntTuple& t) { return t.is_leaf() ? IntTuple::tuple({t}) : t; }

IntTuple unwrap(const IntTuple& t) {
  if (t.is_tuple() && t.rank() == 1) return unwrap(t.elems()[0]);
  return t;
}

IntTuple append(const IntTuple& t, const IntTuple& x) {
  IntTuple r = wrap(t);
  r.elems().push_back(x);
  return r;
}

IntTuple prepend(const IntTuple& t, const IntTuple& x) {
  IntTuple r = wrap(t);
  r.elems().insert(r.elems().begin(), x);
  return r;
}

IntTuple append_to_rank(const IntTuple& t, int n, const IntTuple& x) {
  if (t.rank() >= n) return t;
  IntTuple r = wrap(t);
  while (r.rank() < n) r.elems().push_back(x);
  return r;
}

IntTuple take(const IntTuple& t, int b, int e) {
  const IntTuple w = wrap(t);
  return IntTuple(std::vector<IntTuple>(w.elems().begin() + b, w.elems().begin() + e));
}

IntTuple remove_at(const IntTuple& t, int i) {
  IntTuple r = wrap(t);
  r.elems().erase(r.elems().begin() + i);
  return r;
}

bool is_static(const IntTuple& t) {
  for (Int i : leaves(t))
    if (!i.is_static) return false;
  return true;
}

bool congruent(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf() || b.is_leaf()) return a.is_leaf() == b.is_leaf();
  if (a.rank() != b.rank()) return false;
  for (int i = 0; i < a.rank(); ++i)
    if (!congruent(a.elems()[i], b.elems()[i])) return false;
  return true;
}

bool has_constant(const IntTuple& t, std::int64_t n) {
  for (Int i : leaves(t))
    if (i.is_constant(n)) return true;
  return false;
}

IntTuple transform_leaf(const IntTuple& t, const std::function<Int(Int)>& f) {
  if (t.is_leaf()) return f(t.value());
  std::vector<IntTuple> out;
  for (const auto& e : t.elems()) out.push_back(transform_leaf(e, f));
  return IntTuple(std::move(out));
}

IntTuple transform_leaf(const IntTuple& a, const IntTuple& b, const std::function<Int(Int, Int)>& f) {
  if (a.is_leaf() && b.is_leaf()) return f(a.value(), b.value());
  if (a.is_leaf() || b.is_leaf() || a.rank() != b.rank())
    throw naming_values([&](Notation shown) {
      return fmt::format("Mismatched ranks: {} and {}", to_text(a, shown), to_text(b, shown));
    });
  std::vector<IntTuple> out;
  for (int i = 0; i < a.rank(); ++i) out.push_back(transform_leaf(a.elems()[i], b.elems()[i], f));
  return IntTuple(std::move(out));
}

IntTuple repeat_like(const IntTuple& t, Int x) {
  return transform_leaf(t, [x](Int) { return x; });
}

IntTuple product_each(const IntTuple& t) {
  std::vector<IntTuple> out;
  const IntTuple w = wrap(t);
  for (const auto& e : w.elems()) out.emplace_back(product(e));
  return IntTuple(std::move(out));
}

Int inner_product(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf() || b.is_leaf()) {
    if (a.is_leaf() && b.is_leaf()) return a.value() * b.value();
    throw naming_values([&](Notation shown) {
      return fmt::format("Mismatched ranks: {} and {}", to_text(a, shown), to_text(b, shown));
    });
  }
  if (a.rank() != b.rank())
    throw naming_values([&](Notation shown) {
      return fmt::format("Mismatched ranks: {} and {}", to_text(a, shown), to_text(b, shown));
    });
  Int sum = static_int(0);
  for (int i = 0; i < a.rank(); ++i) sum = sum + inner_product(a.elems()[i], b.elems()[i]);
  return sum;
}

// shape_div on integers: CuTe enforces a % b == 0 || b % a == 0 when both are
// static and returns ceil_div(a, b), (a + b - 1) / b, for every operand kind.
static Int shape_div_int(Int a, Int b, Diagnostics& diag) {
  if (b.value == 0) throw Error(fmt::format("shape_div: division of {} by zero", a.value));
  if ((a % b).value != 0 && (a.value == 0 || (b % a).value != 0)) {  // Int's % is safe for INT64_MIN % -1
    const std::string msg =
        fmt::format("Divisibility Condition: neither of {} and {} divides the other", a.value, b.value);
    if (a.is_static && b.is_static) throw Error(msg);
    diag.warn("Divisibility condition", msg + "; CuTe computes the dynamic quotient as (a + b - 1) / b");
  }
  return ceil_div(a, b);
}

IntTuple shape_div(const IntTuple& a, const IntTuple& b, Diagnostics& diag) {
  if (a.is_tuple()) {
    if (b.is_tuple()) {
      if (a.rank() != b.rank())
        throw Error(fmt::format("Mismatched ranks in shape_div: {} and {}", to_text(a, diag.notation()),
                                to_text(b, diag.notation())));
      std::vector<IntTuple> out;
      for (int i = 0; i < a.rank(); ++i) out.push_back(shape_div(a.elems()[i], b.elems()[i], diag));
      return IntTuple(std::move(out));
    }
    std::vector<IntTuple> out;
    IntTuple rest = b;
    for (const auto& ai : a.elems()) {
      out.push_back(shape_div(ai, rest, diag));
      rest = shape_div(rest, ai, diag);
    }
    return IntTuple(std::move(out));
  }
  if (b.is_tuple()) return shape_div(a, IntTuple(product(b)), diag);
  return shape_div_int(a.value(), b.value(), diag);
}

IntTuple ceil_div(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple()) {
    if (b.is_tuple()) {
      if (a.rank() < b.rank())
        throw naming_values([&](Notation shown) {
          return fmt::format("Mismatched ranks in ceil_div: {} and {}", to_text(a, shown), to_text(b, shown));
        });
      std::vector<IntTuple> out;
      for (int i = 0; i < a.rank(); ++i)
        // Missing modes of b are a static 1, still divided by: a tuple mode of a then
        // folds a dynamic remainder through its later elements, as CuTe's does.
        out.push_back(ceil_div(a.elems()[i], i < b.rank() ? b.elems()[i] : IntTuple(static_int(1))));
      return IntTuple(std::move(out));
    }
    std::vector<IntTuple> out;
    IntTuple rest = b;
    for (const auto& ai : a.elems()) {
      out.push_back(ceil_div(ai, rest));
      rest = ceil_div(rest, ai);
    }
    return IntTuple(std::move(out));
  }
  if (b.is_tuple()) return ceil_div(a, IntTuple(product(b)));
  return ceil_div(a.value(), b.value());
}

IntTuple coalesce_shape(const IntTuple& shape) {
  if (shape.is_leaf()) return shape;
  std::vector<Int> flat = leaves(shape);
  if (flat.empty()) return shape;
  std::vector<IntTuple> out{IntTuple(flat[0])};
  for (size_t i = 1; i < flat.size(); ++i) {
    Int back = out.back().value();
    if (back.is_static == flat[i].is_static)
      out.back() = IntTuple(back * flat[i]);
    else
      out.emplace_back(flat[i]);
  }
  // fold_first over a one-element tuple returns the element itself.
  return out.size() == 1 ? out[0] : IntTuple(std::move(out));
}

// zip(t) transposes ((a,b,...),(x,y,...),...) into ((a,x,...),(b,y,...),...);
// a tuple whose first element is an integer is wrapped whole, an integer stays.
IntTuple zip(const IntTuple& t) {
  if (t.is_leaf()) return t;
  if (t.rank() == 0) throw Error("zip of the empty tuple: it has no first element to transpose by");
  const IntTuple& first = t.elems()[0];
  if (first.is_leaf()) return IntTuple::tuple({t});
  for (const auto& e : t.elems())
    if (e.is_leaf() || e.rank() != first.rank())
      throw naming_values([&](Notation shown) {
        return fmt::format("Mismatched Ranks in zip: {} and {} of {}", to_text(first, shown), to_text(e, shown),
                           to_text(t, shown));
      });
  std::vector<IntTuple> out;
  for (int j = 0; j < first.rank(); ++j) {
    std::vector<IntTuple> column;
    for (const auto& e : t.elems()) column.push_back(e.elems()[j]);
    out.emplace_back(std::move(column));
  }
  return IntTuple(std::move(out));
}

// zip((a, b)) without building (a, b) first: the pairs (a_j, b_j).
IntTuple zip(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf() || b.is_leaf() || a.rank() != b.rank()) return zip(IntTuple::tuple({a, b}));
  std::vector<IntTuple> out;
  out.reserve(a.rank());
  for (int j = 0; j < a.rank(); ++j) out.push_back(IntTuple::pair(a.elems()[j], b.elems()[j]));
  return IntTuple(std::move(out));
}

static void check_zip2_mode(const IntTuple& t) {
  if (t.rank() != 2 || t.is_leaf())
    throw naming_values([&](Notation shown) {
      return fmt::format("Mismatched rank: zip2_by needs a rank-2 mode, got {}", to_text(t, shown));
    });
}

IntTuple zip2_by(const IntTuple& t, const IntTuple& guide) {
  if (guide.is_leaf()) {
    check_zip2_mode(t);
    return t;
  }
  if (t.is_leaf() || t.rank() < guide.rank())
    throw naming_values([&](Notation shown) {
      return fmt::format("Mismatched ranks: {} against the tiler profile", to_text(t, shown));
    });
  std::vector<IntTuple> firsts, seconds;
  firsts.reserve(guide.rank());
  seconds.reserve(t.rank());
  for (int i = 0; i < guide.rank(); ++i) {
    const IntTuple& mode = t.elems()[i];
    if (guide.elems()[i].is_leaf()) {  // the mode itself is the split: its elements, not a copy of it
      check_zip2_mode(mode);
      firsts.push_back(mode.elems()[0]);
      seconds.push_back(mode.elems()[1]);
      continue;
    }
    IntTuple split = zip2_by(mode, guide.elems()[i]);
    firsts.push_back(std::move(split.elems()[0]));
    seconds.push_back(std::move(split.elems()[1]));
  }
  for (int i = guide.rank(); i < t.rank(); ++i) seconds.push_back(t.elems()[i]);
  return IntTuple::pair(IntTuple(std::move(firsts)), IntTuple(std::move(seconds)));
}

// detail::compact: returns the stride for `shape` and advances `current`.
static IntTuple compact(const IntTuple& shape, Int& current, bool left) {
  if (shape.is_leaf()) {
    if (shape.value().is_constant(1)) return static_int(0);
    Int stride = current;
    current = current * shape.value();
    return stride;
  }
  std::vector<IntTuple> out(shape.elems().size());
  const int n = shape.rank();
  for (int k = 0; k < n; ++k) {
    const int i = left ? k : n - 1 - k;
    out[i] = compact(shape.elems()[i], current, left);
  }
  return IntTuple(std::move(out));
}

IntTuple compact_col_major(const IntTuple& shape, Int current) { return compact(shape, current, true); }

IntTuple compact_row_major(const IntTuple& shape, Int current) { return compact(shape, current, false); }

// product_like(shape, order): the size of the shape at each leaf of the order.
static void products_at_leaves(const IntTuple& shape, const IntTuple& order, std::vector<Int>& out) {
  if (order.is_leaf()) {
    out.push_back(product(shape));
    return;
  }
  if (shape.is_leaf() || shape.rank() != order.rank())
    throw naming_values([&](Notation shown) {
      return fmt::format("Need equal rank of shape and order: {} against {}", to_text(shape, shown),
                         to_text(order, shown));
    });
  for (int i = 0; i < order.rank(); ++i) products_at_leaves(shape[i], order[i], out);
}

static IntTuple compact_order_impl(const IntTuple& shape, const IntTuple& order, const std::vector<Int>& ref_shape,
                                   const std::vector<Int>& ref_order, std::size_t& leaf) {
  if (order.is_tuple()) {
    std::vector<IntTuple> out;
    for (int i = 0; i < order.rank(); ++i)
      out.push_back(compact_order_impl(shape[i], order[i], ref_shape, ref_order, leaf));
    return IntTuple(std::move(out));
  }
  // The starting stride: the sizes of every mode ordered before this one.
  const Int mine = ref_order[leaf++];
  Int start = static_int(1);
  for (std::size_t i = 0; i < ref_shape.size(); ++i)
    if (ref_order[i].value < mine.value) start = start * ref_shape[i];
  return compact_col_major(shape, start);
}

IntTuple compact_order(const IntTuple& shape, const IntTuple& order) {
  std::vector<Int> ref_shape;
  products_at_leaves(shape, order, ref_shape);
  // Dynamic orders count as larger than every static one, in left-to-right order.
  std::vector<Int> ref_order = leaves(order);
  std::int64_t max_order = 0;
  for (Int o : ref_order)
    if (o.is_static && o.value > max_order) max_order = o.value;
  for (std::size_t i = 0; i < ref_order.size(); ++i)
    if (!ref_order[i].is_static) ref_order[i] = static_int(max_order + 1 + static_cast<std::int64_t>(i));
  std::size_t leaf = 0;
  return compact_order_impl(shape, order, ref_shape, ref_order, leaf);
}

Int crd2idx(const IntTuple& coord, const IntTuple& shape, const IntTuple& stride) {
  return crd2idx_walk<Int>(coord, shape, stride, [](Int sum, Int x) { return sum + x; });
}

// crd2idx(c, S): an integer is already an index; a coordinate is read with
// Horner's method over the sizes of S at the coordinate's leaves,
// c0 + s0 * (c1 + s1 * (...)), the last size unused.
Int crd2idx(const IntTuple& coord, const IntTuple& shape) {
  if (coord.is_leaf()) return coord.value();
  if (shape.is_leaf())
    throw naming_values([&](Notation shown) {
      return fmt::format("Invalid parameters: coordinate {} is a tuple but the shape {} is an integer",
                         to_text(coord, shown), to_text(shape, shown));
    });
  if (coord.rank() != shape.rank() || coord.rank() == 0)
    throw naming_values([&](Notation shown) {
      return fmt::format("Mismatched Ranks: coordinate {} against shape {}", to_text(coord, shown),
                         to_text(shape, shown));
    });
  const std::vector<Int> c = leaves(coord);
  std::vector<Int> s;
  products_at_leaves(shape, coord, s);
  Int idx = c.back();
  for (std::size_t i = c.size() - 1; i-- > 0;) idx = c[i] + s[i] * idx;
  return idx;
}

// The index splits colexicographically as crd2idx reads it back: each mode but
// the last takes it modulo its size, the last mode takes the rest, so an index
// past the size extends the last mode instead of wrapping.
static IntTuple split_index(Int idx, const IntTuple& shape) {
  if (shape.is_leaf()) return idx;
  const int n = shape.rank();
  if (n == 0) throw Error("idx2crd: the empty shape () has no coordinates");
  std::vector<IntTuple> out;
  for (int i = 0; i + 1 < n; ++i) {
    const Int m = product(shape.elems()[i]);
    out.push_back(split_index(idx % m, shape.elems()[i]));
    idx = idx / m;
  }
  out.push_back(split_index(idx, shape.elems()[n - 1]));
  return IntTuple(std::move(out));
}

IntTuple idx2crd(const IntTuple& idx, const IntTuple& shape) {
  if (idx.is_leaf()) return split_index(idx.value(), shape);
  if (shape.is_leaf())
    throw naming_values([&](Notation shown) {
      return fmt::format("Invalid parameters: the index {} is a tuple but the shape {} is an integer",
                         to_text(idx, shown), to_text(shape, shown));
    });
  if (idx.rank() != shape.rank())
    throw naming_values([&](Notation shown) {
      return fmt::format("Mismatched Ranks: index {} against shape {}", to_text(idx, shown), to_text(shape, shown));
    });
  std::vector<IntTuple> out;
  for (int i = 0; i < idx.rank(); ++i) out.push_back(idx2crd(idx.elems()[i], shape.elems()[i]));
  return IntTuple(std::move(out));
}

IntTuple idx2crd(Int idx, const IntTuple& shape) { return split_index(idx, shape); }

bool coordinate_in_domain(const IntTuple& coord, const IntTuple& shape) {
  if (coord.is_leaf()) {
    const std::int64_t c = coord.value().value;
    return c >= 0 && c < product(shape).value;
  }
  if (shape.is_leaf() || coord.rank() != shape.rank()) return false;
  for (int i = 0; i < coord.rank(); ++i)
    if (!coordinate_in_domain(coord.elems()[i], shape.elems()[i])) return false;
  return true;
}

}  // namespace layoutx
