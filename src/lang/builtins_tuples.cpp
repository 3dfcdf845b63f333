// The language's functions on tuples and its queries: get, select, take,
// size, shape, rank, ..., CuTe's int_tuple.hpp relations and products, and
// its tuple algorithms (front, back, reverse, remove, replace, unflatten),
// to which a layout is no tuple.
#include <fmt/format.h>
#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "builtins.hpp"
#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/limits.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/profile_relations.hpp"

namespace layoutx::lang::tuples {

namespace {

Value get_value(const Call& c, const Value& v, int i) {
  switch (v.kind) {
    case Value::Kind::Layout: return Value::of(get(v.layout, i));
    case Value::Kind::Composed: return Value::of(on_inner(v.composed(), [&](const Layout& l) { return get(l, i); }));
    case Value::Kind::Integer:
      if (i != 0) c.fail(fmt::format("Index out of range: get<{}> of the integer {}", i, c.text(v)));
      return v;
    case Value::Kind::Tuple:
      if (i >= static_cast<int>(v.elems.size()))
        c.fail(fmt::format("Index out of range: get<{}> of {} (rank {})", i, c.text(v), v.elems.size()));
      return v.elems[i];
    default: c.fail_arg(0, fmt::format("cannot take get<{}> of {}", i, a_kind_name(v)));
  }
}

// The sub-value at the template indices, as size<1>(L) / shape<0,1>(L) select it.
Value sub_value(const Call& c) {
  Value v = c.args.at(0);
  if (v.kind != Value::Kind::Layout && v.kind != Value::Kind::Composed && !v.is_int_tuple())
    c.fail_arg(0, fmt::format("expected a layout or an int tuple, got {} {}", a_kind_name(v), c.text(v)));
  for (int i : c.targ_indices()) v = get_value(c, v, i);
  return v;
}

IntTuple shape_of(const Value& v) {
  if (v.kind == Value::Kind::Layout) return v.layout.shape;
  if (v.kind == Value::Kind::Composed) return v.composed().layout.shape;
  return v.as_int_tuple();
}

// CuTe's generic tuple functions take any value: a swizzle or `_` is no tuple,
// so flatten and shape return it and its depth is _0.
bool is_opaque(const Value& v) { return v.kind == Value::Kind::Swizzle || v.kind == Value::Kind::Underscore; }

// CuTe's append/prepend of two layouts is the layout operation; of anything
// else (an int tuple, a tile, a composed layout, a swizzle) the tuple one: a
// tuple gains x as its last (first) element, any other value becomes (a, x).
Value tuple_extended(const Value& a, const Value& x, bool at_front) {
  std::vector<Value> elems = a.kind == Value::Kind::Tuple ? a.elems : std::vector<Value>{a};
  if (elems.size() + 1 > kMaxValueIntegers) throw Error("append: the tuple would be larger than layoutx builds");
  elems.insert(at_front ? elems.begin() : elems.end(), x);
  return Value::tuple(std::move(elems));
}

// CuTe's generic zip(t) of a tuple of any values: a tuple of tuples is
// transposed, a tuple whose first element is no tuple is wrapped whole.
Value zip_tuple(const Call& c, const Value& t) {
  if (t.elems.empty()) c.fail("zip of the empty tuple: it has no first element to transpose by");
  const Value& first = t.elems[0];
  if (first.kind != Value::Kind::Tuple) return Value::tuple({t});
  for (const Value& e : t.elems)
    if (e.kind != Value::Kind::Tuple || e.elems.size() != first.elems.size())
      c.fail(fmt::format("Mismatched Ranks in zip: {} and {} of {}", c.text(first), c.text(e), c.text(t)));
  std::vector<Value> out;
  for (std::size_t j = 0; j < first.elems.size(); ++j) {
    std::vector<Value> column;
    for (const Value& e : t.elems) column.push_back(e.elems[j]);
    out.push_back(Value::tuple(std::move(column)));
  }
  return Value::tuple(std::move(out));
}

bool layout_or_int_tuple(const Value& v) { return v.kind == Value::Kind::Layout || v.is_int_tuple(); }

// The shape where a relation of profiles takes a layout (CuTe's shape(a)).
IntTuple profile_of(const Call& c, std::size_t i) {
  if (c.args.at(i).kind == Value::Kind::Layout) return c.args[i].layout.shape;
  if (c.args[i].kind == Value::Kind::Composed) return c.args[i].composed().layout.shape;
  return c.int_tuple(i);
}

Value truth(bool b) { return Value::of(static_int(b ? 1 : 0)); }

// N of remove<N> / replace<N>, refused where no tuple has that element.
int element_index(const Call& c, const char* what) {
  const std::int64_t n = c.targ(0);
  if (n < 0 || n > std::numeric_limits<int>::max())
    c.fail(fmt::format("Index out of range: {}<{}> of {}", what, n, c.text(c.args[0])));
  return static_cast<int>(n);
}

// The tuple a remove<N> / replace<N> works on. N may be its rank: CuTe's
// construct then keeps every element (remove) or appends x (replace); past
// that it reads an element the tuple does not have.
const Value& tuple_arg(const Call& c, int n, const char* what) {
  const Value& t = c.args[0];
  if (t.kind != Value::Kind::Tuple)
    c.fail_arg(0, fmt::format("{}<{}> takes a tuple; {} is {}", what, n, c.text(t), a_kind_name(t)));
  if (n < 0 || n > static_cast<int>(t.elems.size()))
    c.fail(fmt::format("Index out of range: {}<{}> of {} (rank {})", what, n, c.text(t), t.elems.size()));
  return t;
}

// CuTe's replace<N>(t, x) on int tuples: element N of a tuple (appended when N
// is its rank); an integer is replaced whole (N must be 0).
IntTuple replaced(const Call& c, const IntTuple& t, int n, const IntTuple& x) {
  if (t.is_leaf()) {
    if (n != 0) c.fail(fmt::format("static_assert(N == 0): replace<{}> of {}, which is no tuple", n, c.text(t)));
    return x;
  }
  if (n < 0 || n > t.rank())
    c.fail(fmt::format("Index out of range: replace<{}> of {} (rank {})", n, c.text(t), t.rank()));
  std::vector<IntTuple> elems = t.elems();
  if (n == t.rank())
    elems.push_back(x);
  else
    elems[n] = x;
  return IntTuple(std::move(elems));
}

// unflatten(flat, profile): consumes the flat tuple's elements in order, one
// for each integer of the profile; returns the result and what is left.
std::pair<Value, Value> unflatten_from(const Call& c, const Value& flat, const IntTuple& profile) {
  if (profile.is_tuple()) {
    std::vector<Value> result;
    Value rest = flat;
    for (const auto& p : profile.elems()) {
      auto [sub, left] = unflatten_from(c, rest, p);
      result.push_back(std::move(sub));
      rest = std::move(left);
    }
    return {Value::tuple(std::move(result)), rest};
  }
  if (flat.kind != Value::Kind::Tuple) {
    // CuTe's leaf case asks rank(flat) by argument-dependent lookup, which a run-time int has none of.
    if (flat.kind == Value::Kind::Integer && !flat.integer.is_static)
      c.fail(
          StaticRequiredError(fmt::format("unflatten of the dynamic integer {}: CuTe's unflatten finds no rank() "
                                          "for a run-time int and compiles only with a static one",
                                          c.text(flat))));
    return {flat, Value::tuple({})};
  }
  if (flat.elems.empty())
    c.fail(fmt::format("the flat tuple has fewer elements than the profile {} has integers", c.text(c.args[1])));
  return {flat.elems.front(), Value::tuple(std::vector<Value>(flat.elems.begin() + 1, flat.elems.end()))};
}

Value unflatten_value(const Call& c, const Value& flat, const IntTuple& profile) {
  auto [result, rest] = unflatten_from(c, flat, profile);
  if (rest.kind != Value::Kind::Tuple || !rest.elems.empty())
    c.fail(fmt::format("static_assert(rank(flat_remainder) == 0): unflatten({}, {}) leaves {} unused", c.text(flat),
                       c.text(c.args[1]), c.text(rest)));
  return result;
}

}  // namespace

Value fn_get(const Call& c) {
  c.expect_args(1, 1);
  c.expect_template_args(1, 16);
  // A tuple of layouts (what append and prepend make of a composed layout) gives its elements.
  if (c.args[0].kind == Value::Kind::Tuple && !c.args[0].is_int_tuple()) {
    Value v = c.args[0];
    for (int i : c.targ_indices()) v = get_value(c, v, i);
    return v;
  }
  return sub_value(c);
}

Value fn_select(const Call& c) {
  c.expect_args(1, 1);
  c.expect_template_args(1, 64);
  const Value& v = c.args[0];
  if (v.kind == Value::Kind::Layout) return Value::of(select(v.layout, c.targ_indices(), c.diag));
  if (v.kind == Value::Kind::Composed) {  // CuTe's generic select: a tuple of the composed modes
    std::vector<Value> out;
    for (int i : c.targ_indices()) out.push_back(get_value(c, v, i));
    return Value::tuple(std::move(out));
  }
  if (v.is_int_tuple()) {
    std::vector<Value> out;
    const IntTuple t = v.as_int_tuple();
    for (int i : c.targ_indices()) out.push_back(Value::of(select_element(t, i, c.diag)));
    return Value::tuple(std::move(out));
  }
  c.fail_arg(0, fmt::format("expected a layout or an int tuple, got {} {}", a_kind_name(v), c.text(v)));
}

Value fn_take(const Call& c) {
  c.expect_args(1, 1);
  c.expect_template_args(2, 2);
  const std::vector<int> range = c.targ_indices();  // checked: a cast alone would wrap take<4294967297,...>
  return on_layout(c, 0, [&](const Layout& l) { return take(l, range[0], range[1]); });
}

Value fn_group(const Call& c) {
  c.expect_args(1, 1);
  c.expect_template_args(2, 2);
  const auto mode = [&](std::int64_t t) {  // checked: a cast alone would wrap
    if (t < 0 || t > 1'000'000) c.fail(fmt::format("template argument {} is not a mode index", t));
    return static_cast<int>(t);
  };
  const int b = mode(c.targ(0));
  const int e = c.targ(1) == -1 ? -1 : mode(c.targ(1));  // group<B,-1>: up to the last mode
  return on_layout(c, 0, [&](const Layout& l) { return group(l, b, e); });
}

Value fn_flatten(const Call& c) {
  c.expect_args(1, 1);
  if (is_opaque(c.args[0])) return c.args[0];
  if (c.args[0].kind == Value::Kind::Tuple && c.args[0].is_int_tuple())
    return Value::of(flatten(c.args[0].as_int_tuple()));
  return on_layout(c, 0, [](const Layout& l) { return flatten(l); });
}

Value fn_size(const Call& c) {
  c.expect_args(1, 1);
  const Value v = sub_value(c);
  return Value::of(product(shape_of(v)));
}

Value fn_cosize(const Call& c) {
  c.expect_args(1, 1);
  const Value v = sub_value(c);
  if (v.is_int_tuple()) c.fail_arg(0, "cosize needs a layout");
  if (v.kind == Value::Kind::Layout && is_coordinate_layout(v.layout)) return Value::of(coordinate_cosize(v.layout));
  return Value::of(cosize(v.as_any_layout()));
}

Value fn_rank(const Call& c) {
  c.expect_args(1, 1);
  return Value::of(static_int(shape_of(sub_value(c)).rank()));
}

Value fn_depth(const Call& c) {
  c.expect_args(1, 1);
  if (is_opaque(c.args[0]) && c.node.template_args().empty()) return Value::of(static_int(0));
  return Value::of(static_int(depth(shape_of(sub_value(c)))));
}

Value fn_shape(const Call& c) {
  c.expect_args(1, 1);
  if (is_opaque(c.args[0]) && c.node.template_args().empty()) return c.args[0];
  return Value::of(shape_of(sub_value(c)));
}

Value fn_stride(const Call& c) {
  c.expect_args(1, 1);
  const Value v = sub_value(c);
  if (v.kind != Value::Kind::Layout)
    c.fail_arg(0, fmt::format("stride needs a layout (CuTe defines no stride for {})", a_kind_name(v)));
  return Value::of(v.layout.stride);
}

Value fn_coshape(const Call& c) {
  c.expect_args(1, 1);
  const Layout l = c.layout(0);
  if (is_coordinate_layout(l)) return Value::of(coordinate_coshape(l));
  return Value::of(coshape(l));
}

Value fn_append(const Call& c) {
  c.expect_args(1, 2);
  if (c.args.size() == 1) {
    c.expect_template_args(1, 1);
    // append<N> allocates N modes: bound it like any other value (and never wrap N through a cast).
    constexpr auto kMaxRank = static_cast<std::int64_t>(kMaxValueIntegers / 2);
    if (c.targ(0) > kMaxRank) c.fail(fmt::format("append<{}>: layoutx builds at most {} modes", c.targ(0), kMaxRank));
    const int n = static_cast<int>(std::max<std::int64_t>(c.targ(0), 0));
    if (c.args[0].kind == Value::Kind::Composed)
      c.fail_arg(0, "CuTe has no append<N> of a composed layout (append<N> takes a layout)");
    const Layout l = c.layout(0);
    // append<N> extends to rank N: N below the rank is CuTe's static_assert(N > tuple_size<T>::value).
    if (n < rank(l))
      c.fail(fmt::format("static_assert(N > tuple_size<T>::value): append<{}> of {}, whose rank is already {}", n,
                         c.text(l), rank(l)));
    return Value::of(append_to_rank(l, n));
  }
  if (c.args[0].kind == Value::Kind::Layout && c.args[1].kind == Value::Kind::Layout)
    return Value::of(append(c.args[0].layout, c.args[1].layout));
  return tuple_extended(c.args[0], c.args[1], false);
}

Value fn_prepend(const Call& c) {
  c.expect_args(2, 2);
  if (c.args[0].kind == Value::Kind::Layout && c.args[1].kind == Value::Kind::Layout)
    return Value::of(prepend(c.args[0].layout, c.args[1].layout));
  return tuple_extended(c.args[0], c.args[1], true);
}

Value fn_zip(const Call& c) {
  c.expect_args(1, 2);
  // CuTe's zip of int tuples is a tuple, not a layout.
  if (std::all_of(c.args.begin(), c.args.end(), [](const Value& v) { return v.is_int_tuple(); }))
    return Value::of(c.args.size() == 2 ? zip(c.int_tuple(0), c.int_tuple(1)) : zip(c.int_tuple(0)));
  // Only zip(Layout) and zip(Layout, Layout) are CuTe's layout zips (and a
  // composed layout's, on its inner layout); anything else is the tuple zip:
  // zip(a, b) = zip((a, b)), and a value that is no tuple is its own zip.
  if (c.args.size() == 2 && !(layout_or_int_tuple(c.args[0]) && layout_or_int_tuple(c.args[1])))
    return zip_tuple(c, Value::tuple(c.args));
  if (c.args.size() == 1 && c.args[0].kind == Value::Kind::Tuple) return zip_tuple(c, c.args[0]);
  if (c.args.size() == 1 && !c.args[0].is_layout_like()) return c.args[0];
  if (c.args.size() == 2) return Value::of(zip(c.layout(0), c.layout(1)));
  return on_layout(c, 0, [](const Layout& l) { return zip(l); });
}

Value fn_congruent(const Call& c) {
  c.expect_args(2, 2);
  return truth(congruent(profile_of(c, 0), profile_of(c, 1)));
}

namespace {

// CuTe's elem_less: a < b leaf by leaf, a's modes against b's (a with fewer
// is less; b with fewer is not). Its result is a static _0/_1 where CuTe's
// types decide it (static leaves, a false constant in the conjunction) and a
// bool otherwise.
struct Comparison {
  bool less = true;
  bool is_static = true;
};

Comparison both(Comparison a, Comparison b) {
  if ((a.is_static && !a.less) || (b.is_static && !b.less)) return {false, true};
  return {a.less && b.less, a.is_static && b.is_static};
}

Comparison elem_less(const Call& c, const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf() && b.is_leaf()) {
    if (a.value().is_scaled_basis() || b.value().is_scaled_basis())
      c.fail("elem_less compares integers and tuples of them, not scaled basis elements");
    return {a.value().value < b.value().value, a.value().is_static && b.value().is_static};
  }
  if (a.is_leaf() || b.is_leaf())
    c.fail(fmt::format("elem_less compares a tuple with a tuple and an integer with an integer, not {} with {}",
                       to_text(a, c.diag.notation()), to_text(b, c.diag.notation())));
  Comparison out;
  for (int i = 0; i < a.rank(); ++i) out = both(out, i < b.rank() ? elem_less(c, a[i], b[i]) : Comparison{false, true});
  return out;
}

}  // namespace

Value fn_elem_less(const Call& c) {
  c.expect_args(2, 2);
  const Comparison r = elem_less(c, c.int_tuple(0), c.int_tuple(1));
  return r.is_static ? truth(r.less) : Value::of(dynamic_int(r.less ? 1 : 0));
}

Value fn_weakly_congruent(const Call& c) {
  c.expect_args(2, 2);
  return truth(weakly_congruent(profile_of(c, 0), profile_of(c, 1)));
}

Value fn_compatible(const Call& c) {
  c.expect_args(2, 2);
  return Value::of(compatible(profile_of(c, 0), profile_of(c, 1)));
}

Value fn_evenly_divides(const Call& c) {
  c.expect_args(2, 2);
  return Value::of(evenly_divides(profile_of(c, 0), c.int_tuple(1)));
}

Value fn_inner_product(const Call& c) {
  c.expect_args(2, 2);
  return Value::of(inner_product(c.int_tuple(0), c.int_tuple(1)));
}

Value fn_elem_scale(const Call& c) {
  c.expect_args(2, 2);
  return Value::of(elem_scale(c.int_tuple(0), c.int_tuple(1)));
}

Value fn_front(const Call& c) {
  c.expect_args(1, 1);
  Value v = c.args[0];
  while (v.kind == Value::Kind::Tuple) {
    if (v.elems.empty()) c.fail_arg(0, "front of the empty tuple: it has no element 0");
    Value first = v.elems.front();
    v = std::move(first);
  }
  return v;
}

Value fn_back(const Call& c) {
  c.expect_args(1, 1);
  Value v = c.args[0];
  while (v.kind == Value::Kind::Tuple) {
    if (v.elems.empty()) c.fail_arg(0, "back of the empty tuple: it has no last element");
    Value last = v.elems.back();
    v = std::move(last);
  }
  return v;
}

Value fn_reverse(const Call& c) {
  c.expect_args(1, 1);
  Value v = c.args[0];
  std::reverse(v.elems.begin(), v.elems.end());
  return v;
}

Value fn_remove(const Call& c) {
  c.expect_args(1, 1);
  c.expect_template_args(1, 1);
  const int n = element_index(c, "remove");
  Value t = tuple_arg(c, n, "remove");
  if (n < static_cast<int>(t.elems.size())) t.elems.erase(t.elems.begin() + n);
  return t;
}

// replace<N>(layout, layout) replaces a mode of the shape and of the stride; a
// value that is no tuple is replaced whole (N must be 0), as CuTe's generic replace does.
Value fn_replace(const Call& c) {
  c.expect_args(2, 2);
  c.expect_template_args(1, 1);
  const int n = element_index(c, "replace");
  const Value& x = c.args[1];
  if (c.args[0].kind == Value::Kind::Layout && x.kind == Value::Kind::Layout) {
    const Layout& l = c.args[0].layout;
    return Value::of(Layout{replaced(c, l.shape, n, x.layout.shape), replaced(c, l.stride, n, x.layout.stride)});
  }
  if (c.args[0].kind != Value::Kind::Tuple) {
    if (n != 0)
      c.fail(fmt::format("static_assert(N == 0): replace<{}> of {}, which is no tuple", n, c.text(c.args[0])));
    return x;
  }
  Value t = tuple_arg(c, n, "replace");
  if (n == static_cast<int>(t.elems.size()))
    t.elems.push_back(x);
  else
    t.elems[n] = x;
  return t;
}

Value fn_unflatten(const Call& c) {
  c.expect_args(2, 2);
  const IntTuple profile = c.int_tuple(1);
  if (c.args[0].kind == Value::Kind::Layout) {
    const Layout& l = c.args[0].layout;
    const Value shape = unflatten_value(c, Value::of(l.shape), profile);
    const Value stride = unflatten_value(c, Value::of(l.stride), profile);
    return Value::of(Layout{shape.as_int_tuple(), stride.as_int_tuple()});
  }
  return unflatten_value(c, c.args[0], profile);
}

Value fn_crd2idx(const Call& c) {
  c.expect_args(2, 3);
  if (c.args.size() == 2) return Value::of(crd2idx(c.int_tuple(0), c.int_tuple(1)));
  const IntTuple stride = c.int_tuple(2);
  if (has_basis(stride)) return Value::of(evaluate_coordinate(Layout{c.int_tuple(1), stride}, c.int_tuple(0)));
  return Value::of(crd2idx(c.int_tuple(0), c.int_tuple(1), stride));
}

Value fn_idx2crd(const Call& c) {
  c.expect_args(2, 2);
  const IntTuple index = c.int_tuple(0), shape = c.int_tuple(1);
  IntTuple crd = idx2crd(index, shape);
  if (!coordinate_in_domain(index, shape))
    c.diag.warn(
        "Index out of range",
        fmt::format(
            "idx2crd: index {} is outside the domain of shape {}; split as CuTe does, by extending the last mode",
            c.text(index), c.text(shape)));
  return Value::of(std::move(crd));
}

Value fn_ceil_div(const Call& c) {
  c.expect_args(2, 2);
  return Value::of(ceil_div(c.int_tuple(0), c.int_tuple(1)));
}

Value fn_shape_div(const Call& c) {
  c.expect_args(2, 2);
  return Value::of(shape_div(c.int_tuple(0), c.int_tuple(1), c.diag));
}

Value fn_product(const Call& c) {
  c.expect_args(1, 1);
  return Value::of(product(c.int_tuple(0)));
}

Value fn_filter_zeros(const Call& c) {
  c.expect_args(1, 2);
  if (c.args.size() == 1) {
    // CuTe's filter_zeros(t) of anything but a layout is the int-tuple function
    // filter_zeros(t, t): a tuple's static zeros become 1, any other value (a
    // composed layout, a swizzle) comes back unchanged.
    const Value& v = c.args[0];
    if (v.kind == Value::Kind::Composed || v.kind == Value::Kind::Swizzle) return v;
    if (v.is_int_tuple()) return Value::of(filter_zeros(v.as_int_tuple(), v.as_int_tuple()));
  }
  const Layout l = c.layout(0);
  const IntTuple profile = c.args.size() == 2 ? c.int_tuple(1) : l.stride;
  return Value::of(Layout{filter_zeros(profile, l.shape), l.stride});
}

Value fn_domain_distribute(const Call& c) {
  c.expect_args(2, 2);
  return Value::of(domain_distribute(c.int_tuple(0), c.integer(1)));
}

Value fn_product_each(const Call& c) {
  c.expect_args(1, 1);
  return Value::of(product_each(c.int_tuple(0)));
}

}  // namespace layoutx::lang::tuples
