// Pictures, coloured grids, thread-value views and the atom catalogue.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "golden_cases.hpp"
#include "layout_of.hpp"
#include "layoutx/atoms.hpp"
#include "layoutx/language.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/render_picture.hpp"
#include "layoutx/tiled_mma.hpp"
#include "test_support.hpp"
#include "xml_wellformed.hpp"

namespace layoutx {
namespace {

Value eval(const std::string& text) { return evaluated(text, LanguageOptions{}); }
// A shape stands for its compact layout, as on the command line.
using test::layout_of;
Layout plain_layout_of(const std::string& text) { return std::get<Layout>(layout_of(text)); }

// The text without its SGR colour sequences (ESC [ digits/semicolons m).
std::string strip_ansi(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '[') {
      std::size_t j = i + 2;
      while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == ';')) ++j;
      if (j < s.size() && s[j] == 'm') {
        i = j;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

// The offsets L(i) of every 1-D index i of a shape and stride, from their
// leaves: written apart from the engine, so that the checks below do not lean
// on the code they check.
std::vector<std::int64_t> offsets(const IntTuple& shape, const IntTuple& stride) {
  const std::vector<Int> s = leaves(shape), d = leaves(stride);
  std::vector<std::int64_t> out{0};
  for (std::size_t k = 0; k < s.size(); ++k) {
    const std::size_t n = out.size();
    for (std::int64_t j = 1; j < s[k].value; ++j)
      for (std::size_t i = 0; i < n; ++i) out.push_back(out[i] + j * d[k].value);
  }
  return out;
}

// One mode of a layout (an integer shape is a layout of one mode; its mode 1 is 1:0).
std::vector<std::int64_t> mode_offsets(const Layout& l, int mode) {
  if (l.shape.is_leaf()) return mode == 0 ? offsets(l.shape, l.stride) : std::vector<std::int64_t>{0};
  return offsets(l.shape[mode], l.stride[mode]);
}

// The label print_latex_tv puts in each tile index: the first (thread, value)
// in thread-major order that reaches it.
std::map<std::int64_t, std::string> expected_labels(const Layout& tv, const Layout& thr_id) {
  const auto threads = mode_offsets(tv, 0), values = mode_offsets(tv, 1),
             numbers = offsets(thr_id.shape, thr_id.stride);
  std::map<std::int64_t, std::string> labels;
  std::set<std::int64_t> thread_seen;  // threads at one offset reach the same cells
  for (std::size_t t = 0; t < threads.size(); ++t) {
    if (!thread_seen.insert(threads[t]).second) continue;
    for (std::size_t v = 0; v < values.size(); ++v)
      labels.emplace(threads[t] + values[v], fmt::format("T{}V{}", numbers[t], v));
  }
  return labels;
}

// The cells of render_tv_grid's text, row by row.
std::vector<std::vector<std::string>> grid_cells(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    // Rows are "NN  | a | b |" (the row number widens past 99, as in print_layout).
    const std::size_t first = line.find('|');
    if (first == std::string::npos || line.find_first_not_of(" 0123456789") != first) continue;
    std::vector<std::string> cells;
    std::size_t at = first + 1;
    for (std::size_t bar; (bar = line.find('|', at)) != std::string::npos; at = bar + 1) {
      std::string cell = line.substr(at, bar - at);
      cell.erase(0, cell.find_first_not_of(' '));
      cell.erase(cell.find_last_not_of(' ') + 1);
      cells.push_back(cell);
    }
    rows.push_back(cells);
  }
  return rows;
}

// Every cell of the text grid shows the owner that evaluating the TV layout
// gives for the cell's index (tile(m, n)); with `full`, every cell has one
// (an MMA reads all of A and B and writes all of C).
void check_tv_grid(const TvView& view, const std::string& what, bool full = false) {
  const auto expected = expected_labels(view.tv, view.thr_id);
  const auto cells = grid_cells(render_tv_grid(view, PictureOptions{}));
  const auto rows = mode_offsets(view.tile, 0), cols = mode_offsets(view.tile, 1);
  REQUIRE_MESSAGE(cells.size() == rows.size(), what);
  int wrong = 0;
  for (std::size_t m = 0; m < cells.size(); ++m) {
    REQUIRE_MESSAGE(cells[m].size() == cols.size(), what);
    for (std::size_t n = 0; n < cells[m].size(); ++n) {
      const std::int64_t index = rows[m] + cols[n];
      const auto it = expected.find(index);
      const std::string want = it == expected.end() ? "" : it->second;
      if (full && want.empty() && ++wrong <= 3) FAIL_CHECK(what << ": no thread holds cell (" << m << "," << n << ")");
      if (cells[m][n] != want && ++wrong <= 3)
        FAIL_CHECK(what << ": cell (" << m << "," << n << ") shows '" << cells[m][n] << "', evaluating gives '" << want
                        << "'");
    }
  }
  CHECK_MESSAGE(wrong == 0, what);
}

TvView operand_view(const OperandTv& op, bool transposed) {
  return {"", op.tv, op.thr_id, make_layout(IntTuple::tuple({op.rows, op.cols})), transposed};
}

// tv_owners through the TiledMMA path (make_tiled_mma of the atom alone)
// agrees with the atom's own TV layout.
void check_tiled_owners(const OperandTv& op, const Layout& tv, const Layout& thr_id, const std::string& what) {
  const auto expected = expected_labels(tv, thr_id);
  const auto owners = tv_owners(operand_view(op, false), PictureOptions{});
  const std::int64_t rows = op.rows.value, cols = op.cols.value;
  int wrong = 0;
  for (std::int64_t m = 0; m < rows; ++m)
    for (std::int64_t n = 0; n < cols; ++n) {
      const TvOwner& o = owners[static_cast<std::size_t>(m * cols + n)];
      const std::string got = o.owned() ? fmt::format("T{}V{}", o.thread, o.value) : "";
      const auto it = expected.find(m + n * rows);
      if (got != (it == expected.end() ? "" : it->second) && ++wrong <= 3)
        FAIL_CHECK(what << ": tiled owner of (" << m << "," << n << ") is '" << got << "'");
    }
  CHECK_MESSAGE(wrong == 0, what);
}

TEST_CASE("every atom's layouts parse and fit its shape") {
  const auto& atoms = atom_catalogue();
  CHECK(atoms.size() >= 300);
  int printed = 0;
  for (const Atom& a : atoms) {
    CAPTURE(a.name);
    printed += a.origin == "printed by CuTe";
    if (a.kind == Atom::Kind::Mma) {
      const std::vector<Int> mnk = leaves(a.mma.shape_mnk);
      REQUIRE(mnk.size() == 3);
      const std::int64_t threads = size(a.mma.thr_id).value;
      const std::pair<const Layout*, std::int64_t> operands[] = {{&a.mma.a, mnk[0].value * mnk[2].value},
                                                                 {&a.mma.b, mnk[1].value * mnk[2].value},
                                                                 {&a.mma.c, mnk[0].value * mnk[1].value}};
      for (const auto& [tv, cells] : operands) {
        REQUIRE(tv->shape.rank() == 2);
        CHECK(size(get(*tv, 0)).value == threads);
        CHECK(cosize(*tv).value <= cells);
      }
    } else {
      for (const Layout* l : {&a.copy.src, &a.copy.dst, &a.copy.ref}) {
        REQUIRE(l->shape.rank() == 2);
        CHECK(size(get(*l, 0)).value == size(a.copy.thr_id).value);
      }
    }
  }
  CHECK(printed == static_cast<int>(atoms.size()));  // scripts/atoms/generate_atoms.py had CuTe print every line
}

// The grids of the whole catalogue are many: the two tests below check them
// in shards (doctest subcases "shard i of N"), which ctest runs side by side;
// tests/CMakeLists.txt sets N and adds one ctest per shard.
constexpr int kGridShards = LAYOUTX_GRID_SHARDS;

std::string shard_name(int shard) { return fmt::format("shard {} of {}", shard, kGridShards); }

// An operand's grid depends only on the atom's shape, ThrID and that operand's
// TV layout: value-type variants, sparse and dense, SS and RS atoms share most
// of them, and each distinct grid is checked once (C, A, B of one atom at a time).
struct MmaGrids {
  const Atom* atom;
  bool c, a, b;
};

std::vector<MmaGrids> distinct_mma_grids() {
  std::vector<MmaGrids> out;
  std::set<std::string> seen;
  for (const Atom& a : atom_catalogue()) {
    if (a.kind != Atom::Kind::Mma) continue;
    const MmaAtom& m = a.mma;
    const std::string atom_key = to_text(m.shape_mnk) + to_text(m.thr_id);
    const MmaGrids g{&a, seen.insert("C" + atom_key + to_text(m.c)).second,
                     seen.insert("A" + atom_key + to_text(m.a)).second,
                     seen.insert("B" + atom_key + to_text(m.b)).second};
    if (g.c || g.a || g.b) out.push_back(g);
  }
  return out;
}

// The cells an atom's checked grids hold: what checking them costs.
std::int64_t checked_cells(const MmaGrids& g) {
  const std::vector<Int> mnk = leaves(g.atom->mma.shape_mnk);
  const std::int64_t m = mnk[0].value, n = mnk[1].value, k = mnk[2].value;
  return (g.c ? m * n : 0) + (g.a ? m * k : 0) + (g.b ? n * k : 0);
}

// Each grid's shard, the largest first to the least loaded shard, so the
// shards take about the same time.
std::vector<int> balanced_shards(const std::vector<MmaGrids>& grids) {
  std::vector<std::size_t> order(grids.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return checked_cells(grids[x]) > checked_cells(grids[y]); });
  std::vector<int> shard(grids.size());
  std::vector<std::int64_t> load(kGridShards, 0);
  for (std::size_t i : order) {
    const int least = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
    shard[i] = least;
    load[static_cast<std::size_t>(least)] += checked_cells(grids[i]);
  }
  return shard;
}

void check_mma_grids(const MmaGrids& g, Diagnostics& diag) {
  const Atom& a = *g.atom;
  const MmaAtom& m = a.mma;
  const Int M = m.shape_mnk[0].value(), N = m.shape_mnk[1].value(), K = m.shape_mnk[2].value();
  auto tile = [](Int r, Int c) { return make_layout(IntTuple::tuple({r, c})); };
  const TiledMma alone =
      make_tiled_mma(m, make_layout(IntTuple::tuple({static_int(1), static_int(1), static_int(1)})), {}, diag);
  if (g.c) {
    check_tv_grid({"", m.c, m.thr_id, tile(M, N), false}, a.name + " C", true);
    check_tiled_owners(operand_C(alone, diag), m.c, m.thr_id, a.name + " C");
  }
  if (g.a) {
    check_tv_grid({"", m.a, m.thr_id, tile(M, K), false}, a.name + " A", true);
    check_tiled_owners(operand_A(alone, diag), m.a, m.thr_id, a.name + " A");
  }
  if (g.b) {
    check_tv_grid({"", m.b, m.thr_id, tile(N, K), false}, a.name + " B", true);
    check_tiled_owners(operand_B(alone, diag), m.b, m.thr_id, a.name + " B");
  }
}

TEST_CASE("every MMA atom's A, B and C grids agree with evaluating its TV layouts") {
  const std::vector<MmaGrids> grids = distinct_mma_grids();
  CHECK(grids.size() >= 300);
  const std::vector<int> shard_of = balanced_shards(grids);
  for (int shard = 0; shard < kGridShards; ++shard) SUBCASE(shard_name(shard).c_str()) {
      Diagnostics diag;
      for (std::size_t i = 0; i < grids.size(); ++i)
        if (shard_of[i] == shard) check_mma_grids(grids[i], diag);
    }
}

void check_copy_grids(const Atom& a, Diagnostics& diag) {
  for (int bits : {8, 16, 32}) {
    if (std::min<std::int64_t>(128, cosize(a.copy.ref).value) % bits != 0) continue;  // UniversalCopy<uint8_t>
    const CopyElements e = copy_elements(a.copy, bits, diag);
    CHECK(size(e.tile).value >= cosize(e.ref).value);
    CHECK(size(e.tile).value - cosize(e.ref).value < size(get(e.tile, 1)).value);  // less than a row beyond
    check_tv_grid({"Src", e.src, a.copy.thr_id, e.tile, false}, a.name + " Src " + std::to_string(bits));
    check_tv_grid({"Dst", e.dst, a.copy.thr_id, e.tile, false}, a.name + " Dst " + std::to_string(bits));
  }
}

TEST_CASE("every copy atom's source and destination grids agree with evaluating its layouts") {
  std::vector<const Atom*> distinct;
  std::set<std::string> seen;
  for (const Atom& a : atom_catalogue())
    if (a.kind == Atom::Kind::Copy &&
        seen.insert(to_text(a.copy.thr_id) + to_text(a.copy.src) + to_text(a.copy.dst) + to_text(a.copy.ref)).second)
      distinct.push_back(&a);
  CHECK(distinct.size() >= 12);
  for (int shard = 0; shard < kGridShards; ++shard) SUBCASE(shard_name(shard).c_str()) {
      Diagnostics diag;
      for (std::size_t i = static_cast<std::size_t>(shard); i < distinct.size(); i += kGridShards)
        check_copy_grids(*distinct[i], diag);
    }
}

TEST_CASE("atoms are found by CuTe's spelling and suggested when misspelled") {
  REQUIRE(find_atom("SM80_16x8x16_F16F16F16F16_TN") != nullptr);
  CHECK(find_atom("cute::SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>")->name ==
        "SM90_64x128x16_F32F16F16_SS");
  CHECK(find_atom("sm75_u32x4_ldsm_n")->kind == Atom::Kind::Copy);
  CHECK(find_atom("SM80_16x8x16_F16F16F16F16") == nullptr);
  const auto near = similar_atom_names("SM80_16x8x16_F16F16F16F16", 3);
  REQUIRE(!near.empty());
  CHECK(near.front() == "SM80_16x8x16_F16F16F16F16_TN");
  CHECK(filter_atoms("sm80 tf32").size() == 2);
  CHECK(filter_atoms("").size() == atom_catalogue().size());
  // The 64xNx16 GMMA family: every N from 8 to 256 in steps of 8, SS and RS.
  for (int n = 8; n <= 256; n += 8)
    for (const char* kind : {"SS", "RS"})
      CHECK(find_atom("SM90_64x" + std::to_string(n) + "x16_F32F16F16_" + kind) != nullptr);
}

TEST_CASE("templated and namespaced atoms are found by their C++ spelling") {
  // What was typed -> the catalogue entry it names ("" for none).
  const std::pair<const char*, const char*> cases[] = {
      {"UniversalCopy<uint128_t>", "UniversalCopy<uint128_t>"},
      {"cute::UniversalCopy<cute::uint128_t, cute::uint128_t>", "UniversalCopy<uint128_t>"},
      {"SM80_CP_ASYNC_CACHEALWAYS<uint64_t>", "SM80_CP_ASYNC_CACHEALWAYS<uint64_t>"},
      {"SM80_CP_ASYNC_CACHEGLOBAL<uint32_t>", ""},  // cp.async.cg moves 16 bytes only
      {"UniversalCopy", ""},
      {"SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::MN>",
       "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256>"},
      {"SM100_MMA_F16BF16_SS<half_t,half_t,float,128,72>", ""},
      {"SM90::GMMA::SPARSE::GMMA_64x8x32_F16F16F16_SS<GMMA::Major::K, GMMA::Major::K>",
       "SM90::GMMA::SPARSE::GMMA_64x8x32_F16F16F16_SS"},
      {"GMMA_64x8x32_F16F16F16_SS", "SM90::GMMA::SPARSE::GMMA_64x8x32_F16F16F16_SS"},
      {"SM100_TMEM_LOAD_32dp32b1x", "SM100_TMEM_LOAD_32dp32b1x"},
      {"SM90_U32x4_STSM_N", "SM90_U32x4_STSM_N"},
  };
  for (const auto& [typed, name] : cases) {
    CAPTURE(typed);
    const Atom* a = find_atom(typed);
    CHECK((a ? a->name : std::string()) == name);
  }
}

TEST_CASE("atoms are filtered by architecture and value type") {
  const std::pair<const char*, const char*> archs[] = {
      {"sm100", "SM100"}, {"90", "SM90"}, {"SM75", "SM75"}, {"hopper", ""}, {"sm", ""}};
  for (const auto& [typed, arch] : archs) CHECK(arch_name(typed) == arch);
  const std::pair<const char*, const char*> types[] = {
      {"half_t", "F16"}, {"f16", "F16"},        {"bfloat16_t", "BF16"}, {"cute::float_e4m3_t", "E4M3"},
      {"float", "F32"},  {"uint128_t", "U128"}, {"tf32", "TF32"},       {"halfx", ""}};
  for (const auto& [typed, letters] : types) CHECK(value_type_letters(typed) == letters);
  const std::pair<const char*, std::vector<std::string>> atoms[] = {
      {"SM90_64x8x32_F32E4M3E4M3_SS_TN", {"F32", "E4M3"}},
      {"SM80_16x8x16_F32BF16BF16F32_TN", {"F32", "BF16"}},
      {"SM75_U32x4_LDSM_N", {"U32"}},
      {"UniversalCopy<uint128_t>", {"U128"}},
      {"SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256>", {"F16", "BF16", "F32"}},
  };
  for (const auto& [name, expected] : atoms) {
    CAPTURE(name);
    const Atom* a = find_atom(name);
    REQUIRE(a != nullptr);
    CHECK(atom_value_types(a->name) == expected);
  }
  CHECK(atom_arch(find_atom("SM90::GMMA::SPARSE::GMMA_64x8x32_F16F16F16_SS")->name) == "SM90");
  CHECK(atom_arch(find_atom("UniversalCopy<uint8_t>")->name).empty());
}

TEST_CASE("TiledMMA layouts are CuTe's") {
  const Notation marks{.static_marks = true};
  Diagnostics diag;
  const MmaAtom tf32 = find_atom("SM80_16x8x8_F32TF32TF32F32_TN")->mma;
  // CuTe's printed get_layout{A,B,C}_TV() for this atom tiled 1x1x1, 2x1x1 and 2x2x1.
  const struct {
    const char *tile, *a, *b, *c;
  } cases[] = {
      {"(1,1,1)", "((_4,_8),((_2,_2),(_1,_1))):((_16,_1),((_8,_64),(_0,_0)))",
       "((_4,_8),(_2,(_1,_1))):((_8,_1),(_32,(_0,_0)))", "((_4,_8),((_2,_2),(_1,_1))):((_32,_1),((_16,_8),(_0,_0)))"},
      {"(2,1,1)", "((_4,_8,_2),((_2,_2),(_1,_1))):((_32,_1,_16),((_8,_128),(_0,_0)))",
       "((_4,_8,_2),(_2,(_1,_1))):((_8,_1,_0),(_32,(_0,_0)))",
       "((_4,_8,_2),((_2,_2),(_1,_1))):((_64,_1,_16),((_32,_8),(_0,_0)))"},
      {"(2,2,1)", "((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_32,_1,_16,_0),((_8,_128),(_0,_0)))",
       "((_4,_8,_2,_2),(_2,(_1,_1))):((_16,_1,_0,_8),(_64,(_0,_0)))",
       "((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_64,_1,_16,_256),((_32,_8),(_0,_0)))"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.tile);
    const TiledMma mma = make_tiled_mma(tf32, make_layout(eval(c.tile).as_int_tuple()), {}, diag);
    CHECK(to_text(layout_A_TV(mma, diag), marks) == c.a);
    CHECK(to_text(layout_B_TV(mma, diag), marks) == c.b);
    CHECK(to_text(layout_C_TV(mma, diag), marks) == c.c);
  }
  const MmaAtom f16 = find_atom("SM80_16x8x16_F16F16F16F16_TN")->mma;
  const TiledMma mma =
      make_tiled_mma(f16, make_layout(eval("(2,2,1)").as_int_tuple()),
                     {Tiler::of(static_int(32)), Tiler::of(static_int(32)), Tiler::of(static_int(16))}, diag);
  CHECK(to_text(mma.thr_layout_vmnk, marks) == "(_32,_2,_2,_1):(_1,_32,_64,_0)");
  CHECK(to_text(tile_shape(mma), marks) == "(_32,_32,_16)");
}

TEST_CASE("a tiled MMA's grid agrees with its get_layoutC_TV") {
  Diagnostics diag;
  const MmaAtom f16 = find_atom("SM80_16x8x16_F16F16F16F16_TN")->mma;
  const TiledMma mma =
      make_tiled_mma(f16, make_layout(eval("(2,2,1)").as_int_tuple()),
                     {Tiler::of(static_int(32)), Tiler::of(static_int(32)), Tiler::of(static_int(16))}, diag);
  const OperandTv c = operand_C(mma, diag);
  const auto owners = tv_owners(operand_view(c, false), PictureOptions{});
  const Layout tv = layout_C_TV(mma, diag);
  const auto threads = mode_offsets(tv, 0), values = mode_offsets(tv, 1);
  for (std::int64_t t = 0; t < static_cast<std::int64_t>(threads.size()); ++t)
    for (std::int64_t v = 0; v < static_cast<std::int64_t>(values.size()); ++v) {
      const std::int64_t index = threads[static_cast<std::size_t>(t)] + values[static_cast<std::size_t>(v)];
      const TvOwner& o = owners[static_cast<std::size_t>((index % c.rows.value) * c.cols.value + index / c.rows.value)];
      CHECK(o.thread == t);
      CHECK(o.value == v);
    }
}

TEST_CASE("coloured print_layout is print_layout once the colours are removed") {
  int compared = 0;
  for (const auto& gc : test::golden_cases()) {
    if (gc.error || !gc.print_layout) continue;
    const Value v = eval(gc.expr);
    for (ColorBy by : {ColorBy::Offset, ColorBy::Thread, ColorBy::Value, ColorBy::Bank}) {
      const std::string colored = render_grid_color(v, GridOptions{}, {by, 16});
      CHECK_MESSAGE(strip_ansi(colored) == test::unmark(*gc.print_layout), gc.expr);
      if (colored.find('|') != std::string::npos) CHECK_MESSAGE(colored.find('\x1b') != std::string::npos, gc.expr);
    }
    ++compared;
  }
  CHECK(compared > 500);
  for (const char* other : {"8:2", "(3):(1)", "(2,3,4)", "((2,2),3,(2,2)):((1,4),16,(2,8))"}) {
    const Value v = eval(other);
    CHECK(strip_ansi(render_grid_color(v, GridOptions{}, {})) == render_grid(v, GridOptions{}));
  }
}

TEST_CASE("pictures are well-formed XML and hold every cell") {
  Diagnostics diag;
  const char* layouts[] = {"8:1",
                           "(4,3):(3,1)",
                           "((2,2),(2,4)):((1,8),(2,4))",
                           "(2,3,4)",
                           "((2,3),(2,2),2):((1,2),(6,12),24)",
                           "Sw<3,4,3> o (8,64):(64,1)",
                           "(4,8):(-1,4)"};
  for (const char* text : layouts) {
    CAPTURE(text);
    PictureOptions options;
    options.color_by = ColorBy::Bank;
    const AnyLayout l = layout_of(text);
    const Picture p = layout_picture(l, options);
    REQUIRE(p.panels.size() == 1);
    CHECK(static_cast<std::int64_t>(p.panels[0].cells.size()) == size(l).value);
    const std::string svg = render_svg(p);
    CHECK(test::xml_problem(svg) == "");
    const std::string html = render_html(p, text);
    const auto begin = html.find("<svg"), end = html.find("</svg>");
    REQUIRE(end != std::string::npos);
    CHECK(test::xml_problem(html.substr(begin, end + 6 - begin)) == "");
    const std::string tikz = render_tikz(p);
    CHECK(tikz.find("\\begin{tikzpicture}") != std::string::npos);
    CHECK(tikz.rfind("\\end{document}\n") == tikz.size() - 15);
  }
  const Atom* ldsm = find_atom("SM75_U32x4_LDSM_N");
  const CopyElements e = copy_elements(ldsm->copy, 16, diag);
  const Picture copy = copy_picture({"Src", e.src, ldsm->copy.thr_id, e.tile, false},
                                    {"Dst", e.dst, ldsm->copy.thr_id, e.tile, false}, PictureOptions{});
  CHECK(test::xml_problem(render_svg(copy)) == "");
  const TiledMma mma = make_tiled_mma(find_atom("SM70_8x8x4_F32F16F16F32_NT")->mma,
                                      make_layout(eval("(2,2,1)").as_int_tuple()), {}, diag);
  const Picture mma_pic =
      mma_picture(operand_view(operand_C(mma, diag), false), operand_view(operand_A(mma, diag), false),
                  operand_view(operand_B(mma, diag), true), PictureOptions{});
  CHECK(test::xml_problem(render_svg(mma_pic)) == "");
  CHECK(mma_pic.panels[0].cells.size() == 16u * 16u);
}

TEST_CASE("hierarchical modes are drawn as nested blocks with their coordinates") {
  const Picture p = layout_picture(plain_layout_of("((2,2),(2,4)):((1,8),(2,4))"), PictureOptions{});
  const PicturePanel& panel = p.panels[0];
  CHECK(panel.row_labels == std::vector<std::string>{"(0,0)", "(1,0)", "(0,1)", "(1,1)"});
  CHECK(panel.col_labels[3] == "(1,1)");
  int across = 0, down = 0;
  for (const auto& r : panel.rules) (r.horizontal ? across : down) += 1;
  CHECK(across == 1);  // between rows 1 and 2
  CHECK(down == 3);    // every second column
  // A flat layout gets print_latex's plain picture: no rules, 0.. labels.
  const Picture flat = layout_picture(plain_layout_of("(4,3):(3,1)"), PictureOptions{});
  CHECK(flat.panels[0].rules.empty());
  CHECK(flat.panels[0].col_labels == std::vector<std::string>{"0", "1", "2"});
}

TEST_CASE("pictures refuse past their cell limit, naming the option") {
  PictureOptions options;
  options.max_cells = 100;
  CHECK_THROWS_WITH_AS(layout_picture(plain_layout_of("(20,20)"), options), doctest::Contains("--max-picture-cells"),
                       Error);
  options.grid_max_cells = 50;
  CHECK_THROWS_WITH_AS(layout_picture(plain_layout_of("(20,20)"), options), doctest::Contains("--max-cells"), Error);
  CHECK_THROWS_WITH_AS(layout_picture(plain_layout_of("(1000000000,1000000000)"), PictureOptions{}),
                       doctest::Contains("more than the limit"), Error);
}

TEST_CASE("a TV layout that leaves its tile is refused") {
  const TvView view{"", plain_layout_of("(4,2):(1,4)"), plain_layout_of("4:1"), plain_layout_of("(2,2):(1,2)"), false};
  CHECK_THROWS_WITH_AS(tv_owners(view, PictureOptions{}), doctest::Contains("no cell of the tile"), Error);
  const TvView rank1{"", plain_layout_of("8:1"), plain_layout_of("8:1"), plain_layout_of("(8,1)"), false};
  CHECK_THROWS_WITH_AS(tv_owners(rank1, PictureOptions{}), doctest::Contains("two modes"), Error);
}

TEST_CASE("the inverse view lists each thread's cells") {
  const TvView view{"", plain_layout_of("((4,8),(2,2)):((32,1),(16,8))"), plain_layout_of("32:1"),
                    plain_layout_of("(16,8)"), false};
  const std::string text = render_tv_threads(view, PictureOptions{});
  CHECK(text.find("\nT0: (0,0) (0,1) (8,0) (8,1)\n") != std::string::npos);
  CHECK(text.find("\nT5: (1,2) (1,3) (9,2) (9,3)\n") != std::string::npos);
}

}  // namespace
}  // namespace layoutx

namespace layoutx::test {

TEST_CASE("copy atoms name the shared-memory access the bank model takes") {
  // atom, as a store?, the access it issues (or, after '!', words of the refusal).
  const struct {
    const char* atom;
    bool store;
    const char* expected;
  } cases[] = {
      {"SM75_U32x1_LDSM_N", false, "ldsm1"},
      {"SM75_U32x4_LDSM_N", false, "ldsm4"},
      {"SM75_U16x2_LDSM_T", false, "ldsm1t"},
      {"SM75_U16x8_LDSM_T", false, "ldsm4t"},
      {"SM90_U32x2_STSM_N", true, "stsm2"},
      {"SM90_U16x8_STSM_T", true, "stsm4t"},
      {"SM90_U16x2_STSM_T", true, "!no stsm1t"},
      {"SM75_U32x4_LDSM_N", true, "!reads shared memory"},
      {"UniversalCopy<uint128_t>", false, "ld128"},
      {"UniversalCopy<uint32_t>", true, "st32"},
      {"UniversalCopy<uint8_t>", false, "!no 8-bit"},
      {"SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", true, "st128"},
      {"SM80_CP_ASYNC_CACHEALWAYS<uint64_t>", false, "!cp.async writes shared memory"},
      {"SM100_TMEM_LOAD_32dp32b1x", false, "!tensor memory"},
      {"SM80_16x8x16_F16F16F16F16_TN", false, "!matrix descriptors"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.atom);
    const Atom* a = find_atom(c.atom);
    REQUIRE(a != nullptr);
    const std::string expected = c.expected;
    if (expected[0] == '!') {
      CHECK_THROWS_WITH_AS(shared_access_of(*a, c.store), doctest::Contains(expected.substr(1).c_str()), Error);
    } else {
      CHECK(access_info(shared_access_of(*a, c.store)).name == expected);
    }
  }
}

}  // namespace layoutx::test
