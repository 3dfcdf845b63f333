// Engine helpers in small tables: int tuple arithmetic, compact strides,
// coordinates, cosize, swizzles and checked 64-bit arithmetic. Expected values
// are CuTe's (int_tuple.hpp, stride.hpp, swizzle.hpp), worked out by hand.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>

#include "layoutx/notation.hpp"
#include "layoutx/swizzle.hpp"
#include "test_support.hpp"

namespace layoutx::test {

namespace {

using T = IntTuple;
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

T s(std::int64_t v) { return static_int(v); }
T tup(std::initializer_list<T> elems) { return T::tuple(elems); }

// Texts without marks, so a table row reads like the CuTe print it stands for.
std::string plain(const T& t) { return to_text(t); }

struct Binary {
  T a, b;
  const char* want;
};

}  // namespace

TEST_CASE("engine: shape_div divides the leading modes first") {
  const Binary rows[] = {
      {s(12), s(4), "3"},
      {s(4), s(12), "1"},   // |a| < |b|: (a + b - 1) / b is 1
      {s(-2), s(8), "0"},   // and 0 for a negative a, (-2 + 8 - 1) / 8
      {s(-8), s(2), "-3"},  // C++ division truncates (-8 + 2 - 1) / 2 towards zero
      {tup({s(4), s(3)}), s(2), "(2,3)"},
      {tup({s(2), s(8)}), s(8), "(1,2)"},
      {tup({s(4), s(3)}), tup({s(2), s(3)}), "(2,1)"},
      {s(12), tup({s(2), s(3)}), "2"},
  };
  Diagnostics diag;
  for (const Binary& r : rows) {
    CAPTURE(r.want);
    CHECK(plain(shape_div(r.a, r.b, diag)) == r.want);
  }
  CHECK(diag.warnings().empty());
  CHECK_THROWS_AS(shape_div(s(6), s(4), diag), Error);  // "Divisibility Condition"
  CHECK_THROWS_AS(shape_div(tup({s(4), s(3)}), tup({s(2)}), diag), Error);
}

TEST_CASE("engine: ceil_div rounds up and pads missing modes with 1") {
  const Binary rows[] = {
      {s(10), s(4), "3"},
      {s(8), s(4), "2"},
      {tup({s(4), s(3)}), s(3), "(2,3)"},
      {tup({s(8), s(4)}), s(2), "(4,4)"},
      {tup({s(4), s(3)}), tup({s(3), s(2)}), "(2,2)"},
      {tup({s(4), s(3), s(2)}), tup({s(3)}), "(2,3,2)"},
  };
  for (const Binary& r : rows) {
    CAPTURE(r.want);
    CHECK(plain(ceil_div(r.a, r.b)) == r.want);
  }
}

TEST_CASE("engine: compact strides") {
  const T flat = tup({s(2), s(3), s(4)});
  const T nested = tup({tup({s(2), s(3)}), s(4)});
  CHECK(plain(compact_col_major(flat)) == "(1,2,6)");
  CHECK(plain(compact_col_major(nested)) == "((1,2),6)");
  CHECK(plain(compact_row_major(flat)) == "(12,4,1)");
  CHECK(plain(compact_row_major(nested)) == "((12,4),1)");
  // A static size-1 mode gets stride _0, as CuTe's compact_major writes it.
  CHECK(plain(compact_col_major(tup({s(1), s(4)}))) == "(0,1)");
  CHECK(plain(compact_row_major(tup({s(2), s(1), s(4)}))) == "(4,0,1)");
  CHECK(plain(compact_col_major(s(8), static_int(3))) == "3");
  // compact_order: the mode with the smallest order gets stride 1.
  CHECK(plain(compact_order(flat, tup({s(1), s(0), s(2)}))) == "(3,1,6)");
  CHECK(plain(compact_order(flat, tup({s(2), s(1), s(0)}))) == "(12,4,1)");
}

TEST_CASE("engine: crd2idx and idx2crd") {
  const T shape = tup({s(4), s(3)}), stride = tup({s(3), s(1)});
  const T nshape = tup({tup({s(2), s(2)}), s(3)}), nstride = tup({tup({s(1), s(2)}), s(4)});
  struct Row {
    T coord, shape, stride;
    std::int64_t want;
  };
  const Row rows[] = {
      {tup({s(1), s(2)}), shape, stride, 5},
      {s(5), shape, stride, 4},  // 5 -> (1,1)
      {tup({tup({s(1), s(1)}), s(2)}), nshape, nstride, 11},
      {tup({s(3), s(2)}), nshape, nstride, 11},  // 3 in mode (2,2) is (1,1)
      {s(3), nshape, nstride, 3},
      {s(12), shape, stride, 3},  // beyond the domain: the last mode extends, (0,3)
  };
  for (const Row& r : rows) {
    CAPTURE(plain(r.coord));
    CHECK(crd2idx(r.coord, r.shape, r.stride).value == r.want);
  }
  CHECK(plain(idx2crd(5, shape)) == "(1,1)");
  CHECK(plain(idx2crd(11, nshape)) == "((1,1),2)");
  // Past the size the last mode extends, as crd2idx of a 1-D index does in the table.
  CHECK(plain(idx2crd(12, shape)) == "(0,3)");
  CHECK(plain(idx2crd(7, s(8))) == "7");
  CHECK(coordinate_in_domain(tup({s(3), s(2)}), shape));
  CHECK_FALSE(coordinate_in_domain(s(12), shape));
}

TEST_CASE("engine: cosize is the last offset plus one") {
  struct Row {
    Layout l;
    std::int64_t want;
  };
  const Row rows[] = {
      {make_layout(tup({s(4), s(3)}), tup({s(3), s(1)})), 12},
      {make_layout(tup({s(2), s(2)}), tup({s(0), s(1)})), 2},
      {make_layout(s(8), s(0)), 1},
      {make_layout(tup({s(2), tup({s(3), s(4)})}), tup({s(12), tup({s(1), s(3)})})), 24},
      {make_layout(tup({s(4), s(3)})), 12},
  };
  for (const Row& r : rows) {
    CAPTURE(to_text(r.l));
    CHECK(cosize(r.l).value == r.want);
  }
  CHECK_THROWS_AS(make_layout(tup({s(2), s(3)}), tup({s(1)})), Error);
}

TEST_CASE("engine: Swizzle::apply XORs the YYY bits onto the ZZZ bits") {
  struct Row {
    Swizzle sw;
    std::int64_t in, out;
  };
  const Row rows[] = {
      {Swizzle::make(3, 4, 3), 0x80, 0x90},   {Swizzle::make(3, 4, 3), 0x3ff, 0x38f}, {Swizzle::make(3, 4, 3), 15, 15},
      {Swizzle::make(2, 0, -2), 1, 5},        {Swizzle::make(1, 0, 1), 2, 3},         {Swizzle::make(1, 0, 1), 3, 2},
      {Swizzle::make(0, 4, 3), 0x3ff, 0x3ff},
  };
  for (const Row& r : rows) {
    CAPTURE(to_text(r.sw));
    CAPTURE(r.in);
    CHECK(r.sw.apply(r.in) == r.out);
    CHECK(r.sw.apply(r.sw.apply(r.in)) == r.in);  // a swizzle is an involution
  }
  CHECK(Swizzle::make(3, 4, 3).yyy_mask() == 0x380);
  CHECK(Swizzle::make(3, 4, 3).zzz_mask() == 0x70);
  CHECK_THROWS_AS(Swizzle::make(3, 4, 2), Error);   // |S| < B
  CHECK_THROWS_AS(Swizzle::make(-1, 4, 3), Error);  // negative B
  CHECK_THROWS_AS(Swizzle::make(1, -1, 3), Error);  // negative M
}

TEST_CASE("engine: make_swizzle finds the swizzle with the given masks") {
  CHECK(make_swizzle(0x380, 0x70) == Swizzle::make(3, 4, 3));
  CHECK(make_swizzle(0b11, 0b1100) == Swizzle::make(2, 0, -2));
  CHECK(make_swizzle(0b10, 0b1) == Swizzle::make(1, 0, 1));
  CHECK_THROWS_AS(make_swizzle(0b11, 0b100), Error);       // different bit counts
  CHECK_THROWS_AS(make_swizzle(0b1010000, 0b101), Error);  // not contiguous fields
  CHECK_THROWS_AS(make_swizzle(0b110, 0b11), Error);       // overlapping fields
}

TEST_CASE("engine: arithmetic is checked and keeps CuTe's static rules") {
  CHECK_THROWS_AS(checked_mul(kMax, 2, "test"), Error);
  CHECK_THROWS_AS(checked_add(kMax, 1, "test"), Error);
  CHECK_THROWS_AS(checked_sub(-kMax - 1, 1, "test"), Error);
  CHECK(checked_mul(std::int64_t{1} << 31, std::int64_t{1} << 31, "test") == std::int64_t{1} << 62);
  CHECK_THROWS_AS(static_int(kMax) * static_int(2), Error);
  CHECK_THROWS_AS(static_int(7) / static_int(0), Error);
  CHECK_THROWS_AS(product(tup({s(4294967296), s(4294967296)})), Error);
  CHECK_THROWS_AS(evaluate(make_layout(tup({s(2), s(2)}), tup({s(kMax), s(1)})), tup({s(1), s(1)})), Error);
  CHECK(product(tup({s(4294967296), s(2147483647)})).value == 4294967296LL * 2147483647LL);

  // Static when both are; x * _0 and _0 / x stay static, as CuTe's C<0> overloads return.
  CHECK((static_int(3) * static_int(4)) == static_int(12));
  CHECK((static_int(3) * dynamic_int(4)) == dynamic_int(12));
  CHECK((dynamic_int(5) * static_int(0)) == static_int(0));
  CHECK((static_int(0) / dynamic_int(5)) == static_int(0));
  CHECK(ceil_div(static_int(10), static_int(4)) == static_int(3));
}

}  // namespace layoutx::test
