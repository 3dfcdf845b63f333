// What an expression evaluates to: an integer, a tuple (an int tuple, or a
// tile when it holds layouts), a layout, a swizzle, a composed layout, `_`,
// the LayoutLeft / LayoutRight tags, a shared-memory pointer flag (the
// middle of a canonical smem layout atom, read from its printed form), or an
// object the libraries above the core define (a TiledMMA, a TiledCopy, an atom),
// or a tensor or pointer (tensor.hpp).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "layoutx/swizzle_algebra.hpp"

namespace layoutx {

// A value whose meaning lives above the core: what CuTe calls its type and
// how CuTe's print(x) writes it (possibly several lines).
struct ValueObject {
  virtual ~ValueObject() = default;
  virtual std::string type_name() const = 0;
  virtual std::string print(Notation n) const = 0;
  // Whether CuTe's print ends the text with a newline (the multi-line prints of
  // atoms and tiled operations do); print() leaves it out either way.
  virtual bool print_ends_line() const { return false; }
};

struct Value {
  enum class Kind {
    Integer,
    Tuple,
    Layout,
    Swizzle,
    Composed,
    Underscore,
    LayoutLeft,
    LayoutRight,
    PointerFlag,
    Object,
    Tensor,
    Pointer
  };

  Kind kind = Kind::Underscore;
  Int integer;
  std::vector<Value> elems;
  Layout layout;
  Swizzle swizzle;
  SmemPtrFlag pointer_flag;
  std::shared_ptr<const ValueObject> object;  // Kind::Object, Kind::Tensor (a Tensor), Kind::Pointer (a Pointer)

  // Kind::Composed. Held apart, as it is rare and large: a value that
  // carried one inline would cost as much to move and drop as four layouts.
  const ComposedLayout& composed() const;

  static Value of(Int i);
  static Value of(const IntTuple& t);
  static Value of(const Layout& l);
  static Value of(Layout&& l);
  static Value of(const Swizzle& s);
  static Value of(const ComposedLayout& c);
  static Value of(ComposedLayout&& c);
  static Value of(const AnyLayout& l);
  static Value of(AnyLayout&& l);
  static Value of(const SmemPtrFlag& f);
  static Value of(std::shared_ptr<const ValueObject> o);
  static Value tuple(std::vector<Value> elems);
  static Value tag(Kind k);

  bool is_int_tuple() const;        // an integer, or a tuple of int tuples
  bool is_layout_like() const;      // a Layout or a ComposedLayout
  IntTuple as_int_tuple() const;    // @pre is_int_tuple()
  AnyLayout as_any_layout() const;  // @pre is_layout_like()
  // The value as a layout: a layout or composed layout as it is, a bare shape
  // (an int tuple) its compact column-major layout, as make_layout(shape) is.
  // Nothing for other kinds: each caller says what it needed.
  std::optional<AnyLayout> as_layout() const;
  // The same without swizzles: nothing for a composed layout either.
  std::optional<Layout> as_plain_layout() const;

 private:
  std::shared_ptr<const ComposedLayout> composed_;  // never changed: copies of the value share it
};

// The value as a tiler (a layout, an integer, `_`, or a tuple of them); nullopt for other kinds.
std::optional<Tiler> as_tiler(const Value& v);
// The same, refusing other kinds with an Error that names the value in `n`.
Tiler to_tiler(const Value& v, Notation n);

// CuTe's print of the value; a kind name for messages ("layout", "int tuple", ...).
std::string to_text(const Value& v, Notation n = {});
std::string kind_name(const Value& v);
// The kind with its article, for messages: "an int tuple", "a layout".
std::string a_kind_name(const Value& v);

// The value as a layout (as_layout), or the Error "WHAT needs a layout, got ..."
// (`what`: the command or option that needed it).
AnyLayout require_layout(const Value& v, std::string_view what, Notation n);

}  // namespace layoutx
