// The streamed offset table against a reference built the slow way: the
// engine's evaluate for each index and idx2crd for each coordinate, in every
// format, on random layouts (hierarchical, negative and zero strides, extent-1
// leaves, long runs, swizzles with offsets and nested stages, offsets past
// 10^16), plus the decimal primitives the fast path is made of.
#include <doctest/doctest.h>

#include <algorithm>
#include <charconv>
#include <random>
#include <string>

#include "layout_of.hpp"
#include "layoutx/language.hpp"
#include "layoutx/render.hpp"
#include "render/decimal.hpp"
#include "test_support.hpp"

namespace layoutx {
namespace {

void coordinate_text(std::string& s, const IntTuple& c, char open, char close) {
  if (c.is_leaf()) {
    s += std::to_string(c.value().value);
    return;
  }
  s += open;
  for (int i = 0; i < c.rank(); ++i) {
    if (i) s += ',';
    coordinate_text(s, c[i], open, close);
  }
  s += close;
}

// The table by definition, one evaluate() per index.
std::string reference_table(const AnyLayout& l, OffsetFormat f) {
  const std::int64_t n = size(l).value;
  const IntTuple& shape = inner_layout(l).shape;
  std::string out;
  if (f == OffsetFormat::Csv) out += "index,coordinate,offset\n";
  if (f == OffsetFormat::Tsv) out += "index\tcoordinate\toffset\n";
  if (f == OffsetFormat::Json) out += "[\n";
  if (f == OffsetFormat::CsvSplit || f == OffsetFormat::TsvSplit) {
    // One column per leaf of the shape (one empty column for the empty tuple).
    const std::string sep = f == OffsetFormat::CsvSplit ? "," : "\t";
    const std::size_t leaf_count = leaves(shape).size();
    out += "index";
    for (std::size_t k = 0; k < std::max<std::size_t>(leaf_count, 1); ++k)
      out += sep + (leaf_count ? "coord" + std::to_string(k) : std::string("coord"));
    out += sep + "offset\n";
  }
  for (std::int64_t i = 0; i < n; ++i) {
    const std::string off = std::to_string(evaluate(l, IntTuple(static_int(i))).value);
    const IntTuple crd = idx2crd(static_int(i), shape);
    std::string c;
    switch (f) {
      case OffsetFormat::Plain: out += off + "\n"; break;
      case OffsetFormat::Csv:
        coordinate_text(c, crd, '(', ')');
        out += std::to_string(i) + ",\"" + c + "\"," + off + "\n";
        break;
      case OffsetFormat::Tsv:
        coordinate_text(c, crd, '(', ')');
        out += std::to_string(i) + "\t" + c + "\t" + off + "\n";
        break;
      case OffsetFormat::CsvSplit:
      case OffsetFormat::TsvSplit: {
        const std::string sep = f == OffsetFormat::CsvSplit ? "," : "\t";
        out += std::to_string(i) + sep;
        const std::vector<Int> parts = leaves(crd);
        for (std::size_t k = 0; k < parts.size(); ++k) out += (k ? sep : "") + std::to_string(parts[k].value);
        out += sep + off + "\n";
        break;
      }
      case OffsetFormat::Json:
      case OffsetFormat::Jsonl:
        coordinate_text(c, crd, '[', ']');
        if (f == OffsetFormat::Json) out += i ? ",\n  " : "  ";
        out += "{\"index\":" + std::to_string(i) + ",\"coord\":" + c + ",\"offset\":" + off + "}";
        if (f == OffsetFormat::Jsonl) out += "\n";
        break;
    }
  }
  if (f == OffsetFormat::Json) out += n ? "\n]\n" : "]\n";
  return out;
}

std::string streamed_table(const AnyLayout& l, OffsetFormat f, int* chunks = nullptr) {
  std::string out;
  render_offsets(l, f, [&](std::string_view chunk) {
    out += chunk;
    if (chunks) ++*chunks;
  });
  return out;
}

using test::layout_of;

constexpr OffsetFormat kFormats[] = {OffsetFormat::Plain,   OffsetFormat::Csv,   OffsetFormat::Tsv,
                                     OffsetFormat::Json,    OffsetFormat::Jsonl, OffsetFormat::CsvSplit,
                                     OffsetFormat::TsvSplit};

// A random shape of depth <= 3 and a congruent stride, as text.
struct RandomLayouts {
  std::mt19937_64 rng{20240521};

  std::int64_t pick(std::initializer_list<std::int64_t> xs) {
    return *(xs.begin() + std::uniform_int_distribution<std::size_t>(0, xs.size() - 1)(rng));
  }
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }

  void mode(int depth, std::string& shape, std::string& stride) {
    if (depth == 0 || chance(0.45)) {
      shape += std::to_string(pick({1, 1, 2, 3, 4, 5, 8, 13}));
      stride += std::to_string(pick({0, 1, 2, 3, -1, -5, 7, 16, 1000, 123456789, 99999999, -100000000}));
      return;
    }
    shape += '(';
    stride += '(';
    const int r = static_cast<int>(pick({1, 2, 2, 3}));
    for (int i = 0; i < r; ++i) {
      if (i) {
        shape += ',';
        stride += ',';
      }
      mode(depth - 1, shape, stride);
    }
    shape += ')';
    stride += ')';
  }

  std::string layout() {
    std::string shape, stride;
    mode(3, shape, stride);
    return shape + ":" + stride;
  }

  std::string any() {
    const std::string l = layout();
    switch (pick({0, 0, 1, 2, 3})) {
      case 1:
        return "Sw<" + std::to_string(pick({1, 2, 3})) + "," + std::to_string(pick({0, 1, 4})) + ",3> o " +
               std::to_string(pick({0, 5, -7, 64})) + " o " + l;
      case 2:  // a nested composed layout: both sides swizzled
        return "composition(Sw<2,1,3> o (8,16):(16,1), Sw<1,0,2> o 0 o (4,4):(4,1))";
      case 3:  // offsets past 10^16, where the decimal columns give way to the general formatter
        return "(3,(2,4)):(" + std::to_string(pick({4999999999999999, 1, -3})) + ",(9999999999999999,1))";
      default: return l;
    }
  }
};

TEST_CASE("offsets stream: every format equals evaluate() index by index on random layouts") {
  RandomLayouts gen;
  test::Mismatches mismatches;
  int tested = 0;
  while (tested < 400) {
    const std::string text = gen.any();
    AnyLayout l;
    try {
      l = layout_of(text);
      if (size(l).value > 20000) continue;  // keep the reference quick
    } catch (const Error&) {
      continue;  // a size past 64 bits
    }
    ++tested;
    for (OffsetFormat f : kFormats) {
      const std::string got = streamed_table(l, f), want = reference_table(l, f);
      if (got != want && mismatches.report()) CHECK_MESSAGE(got == want, text << " format " << static_cast<int>(f));
    }
  }
  CHECK(mismatches.count() == 0);
}

TEST_CASE("offsets stream: layouts with special runs") {
  const char* cases[] = {
      "1:0",                          // one row
      "(1,1,1):(5,6,7)",              // only extent-1 leaves
      "((1,1),(1,9)):((3,3),(3,2))",  // the fast leaf comes last
      "(5000,2):(3,1)",               // a run longer than the listed digits
      "(70000,3):(1,70000)",          // several blocks: the rows straddle flushes
      "(2,0):(1,2)",                  // size 0: the header and footer only
      "(0):(1)",                      //
      "(-2,-3):(1,2)",                // negative extents: the engine's evaluate decides
      "Sw<3,4,3> o 0 o ((8,2),(4,16)):((2,64),(16,128))",
      "Sw<2,0,2> o 9 o (4,(2,8)):(-8,(1,64))",
  };
  for (const char* text : cases) {
    const AnyLayout l = layout_of(text);
    for (OffsetFormat f : kFormats) CHECK_MESSAGE(streamed_table(l, f) == reference_table(l, f), text);
  }
}

TEST_CASE("offsets stream: large tables leave in megabyte chunks") {
  const AnyLayout l = layout_of("(1024,1024):(1024,1)");
  int chunks = 0;
  const std::string table = streamed_table(l, OffsetFormat::Plain, &chunks);
  CHECK(table.size() > (std::size_t{6} << 20));
  CHECK(chunks >= 6);
  CHECK(chunks <= 16);
}

TEST_CASE("offsets stream: an offset past 64 bits is an error before any output") {
  const char* cases[] = {
      "Sw<3,4,3> o 9223372036854775800 o 16:1",
      "(4,3):(4611686018427387904,1)",
      "(2,2):(9223372036854775807,1)",
  };
  for (const char* text : cases) {
    const AnyLayout l = layout_of(text);
    for (OffsetFormat f : kFormats) {
      int chunks = 0;
      CHECK_THROWS_AS(streamed_table(l, f, &chunks), Error);
      CHECK_MESSAGE(chunks == 0, text);
    }
  }
}

TEST_CASE("offsets stream: offsets near the 64-bit limit are exact") {
  const char* cases[] = {
      "(2,2):(4611686018427387903,1)",
      "(3,2):(-3074457345618258602,1)",
      "Sw<1,0,2> o -9223372036854775800 o 4:1",
  };
  for (const char* text : cases) {
    const AnyLayout l = layout_of(text);
    for (OffsetFormat f : kFormats) CHECK_MESSAGE(streamed_table(l, f) == reference_table(l, f), text);
  }
}

std::string formatted(std::int64_t v) {
  char buf[render_detail::kMaxIntChars + render_detail::kBlock];
  return std::string(buf, render_detail::put_int(buf, v));
}

TEST_CASE("decimal: put_int equals to_chars at every length boundary") {
  std::vector<std::int64_t> values = {0, 1, -1, 9, 10, 99, 100, INT64_MAX, INT64_MIN, INT64_MIN + 1};
  std::int64_t p = 1;
  for (int i = 0; i < 18; ++i) {
    p *= 10;
    for (std::int64_t v : {p - 1, p, p + 1}) {
      values.push_back(v);
      values.push_back(-v);
    }
  }
  std::mt19937_64 rng(7);
  for (int i = 0; i < 10000; ++i) values.push_back(static_cast<std::int64_t>(rng() >> (rng() % 64)));
  for (std::int64_t v : values) {
    char want[32];
    const auto end = std::to_chars(want, want + sizeof want, v).ptr;
    REQUIRE(formatted(v) == std::string(want, end));
  }
}

TEST_CASE("decimal: BcdNumber counts and steps like integers, across the word boundary") {
  using render_detail::BcdNumber;
  struct Case {
    std::uint64_t start, step;
    int count;
  };
  const Case cases[] = {
      {0, 1, 1000},     {99999990, 1, 30},        {99999999, 99999999, 50}, {12345678, 87654321, 100},
      {0, 131072, 200}, {999999999999990, 1, 20}, {1, 9999999999999, 900},  {9999999999999990ULL, 1, 9},
      {5, 0, 3},
  };
  for (const Case& c : cases) {
    BcdNumber text(c.start);
    const BcdNumber step(c.step);
    std::uint64_t v = c.start;
    for (int i = 0; i < c.count; ++i, v += c.step, text.add(step)) {
      char buf[64];
      const std::string got(buf, text.put(buf));
      REQUIRE_MESSAGE(got == std::to_string(v), "start " << c.start << " step " << c.step << " i " << i);
    }
  }
}

TEST_CASE("decimal: a Piece copies exactly its text at every length") {
  for (std::size_t len : {0, 1, 15, 16, 17, 31, 32, 33, 100}) {
    const std::string text(len, 'x');
    const render_detail::Piece piece(text);
    char buf[256];
    std::memset(buf, '-', sizeof buf);
    char* end = piece.view().put(buf);
    CHECK(static_cast<std::size_t>(end - buf) == len);
    CHECK(std::string(buf, end) == text);
  }
}

}  // namespace
}  // namespace layoutx
