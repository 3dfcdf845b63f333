// The analyses (properties, eq, lookup, coalescing, explain's
// trace) on hand-computed tables, then against CuTe's own offsets in the
// golden cases.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "golden_cases.hpp"
#include "layout_of.hpp"
#include "layoutx/analysis.hpp"
#include "layoutx/language.hpp"
#include "layoutx/render_analysis.hpp"
#include "test_support.hpp"

namespace layoutx::test {

namespace {

using test::layout_of;

constexpr std::optional<bool> yes = true, no = false;

}  // namespace

TEST_CASE("analysis: properties of the offset function") {
  struct Row {
    const char* layout;
    std::optional<bool> injective, surjective, bijective, compact;
    std::int64_t image, min, max, vector;
  };
  const Row rows[] = {
      {"(4,3):(3,1)", yes, yes, yes, yes, 12, 0, 11, 1},
      {"(4,3):(1,4)", yes, yes, yes, yes, 12, 0, 11, 12},
      {"(4,2):(1,0)", no, yes, no, yes, 4, 0, 3, 4},    // a broadcast of a compact layout
      {"(3,3):(1,2)", no, yes, no, no, 7, 0, 6, 3},     // {0,1,2} + {0,2,4}
      {"(2,2,2):(4,1,4)", no, no, no, no, 6, 0, 9, 1},  // {0,4} + {0,1} + {0,4}
      {"(4,2):(2,1)", yes, yes, yes, yes, 8, 0, 7, 1},
      {"8:2", yes, no, no, no, 8, 0, 14, 1},
      {"4:-1", yes, no, no, no, 4, -3, 0, 1},
      {"(2,3):(-3,1)", yes, no, no, no, 6, -3, 2, 1},
      {"1:0", yes, yes, yes, yes, 1, 0, 0, 1},
      {"(1048576,1048576):(1,1048576)", yes, yes, yes, yes, std::int64_t{1} << 40, 0, (std::int64_t{1} << 40) - 1,
       std::int64_t{1} << 40},
      {"(1048576,2):(1,524288)", no, yes, no, no, 1572864, 0, 1572863, 1048576},
      {"(1024,3):(2,5)", no, no, no, no, 2053, 0, 2056, 1},  // the evens to 2056 and the odds 5..2051
      {"Sw<3,4,3> o (8,64):(64,1)", yes, yes, yes, yes, 512, 0, 511, 1},
      {"Sw<1,0,3> o 4:4", yes, no, no, no, 4, 0, 13, 1},        // {0,4,9,13}
      {"Sw<1,5,1> o 16:1", yes, yes, yes, yes, 16, 0, 15, 16},  // the swizzle moves nothing below 64
  };
  for (const Row& r : rows) {
    INFO(r.layout);
    const Properties p = properties(layout_of(r.layout));
    CHECK(p.injective == r.injective);
    CHECK(p.surjective == r.surjective);
    CHECK(p.bijective == r.bijective);
    CHECK(p.compact == r.compact);
    CHECK(p.image_size == r.image);
    CHECK(p.min_offset == r.min);
    CHECK(p.max_offset == r.max);
    CHECK(p.vector == r.vector);
  }
}

TEST_CASE("analysis: an image too irregular for the limits is unknown, not guessed") {
  PropertyLimits tight;
  tight.max_intervals = 4;
  const Properties p = properties(layout_of("(8,8):(2,3)"), tight);
  CHECK(!p.image_size);
  CHECK(!p.injective);
  CHECK(!p.unknown_reason.empty());
  // The same layout with room: {0,2,...,14} + {0,3,...,21} covers 0..35 except 1 and 34.
  const Properties q = properties(layout_of("(8,8):(2,3)"));
  CHECK(q.image_size == 34);
  CHECK(q.surjective == false);
}

TEST_CASE("analysis: per-thread contiguity of thread-value layouts") {
  struct Row {
    const char* layout;
    std::int64_t threads, values;
    std::optional<std::int64_t> vector;
    std::int64_t run, aligned, accesses;
  };
  const Row rows[] = {
      {"(32,4):(4,1)", 32, 4, 4, 4, 4, 1},
      {"(32,4):(1,32)", 32, 4, 1, 1, 1, 4},
      {"(32,(2,4)):(8,(1,2))", 32, 8, 8, 8, 8, 1},
      {"(32,8):(6,1)", 32, 8, 8, 8, 2, 4},  // thread starts 6t: only pairs stay aligned
      {"(32,(4,2)):(4,(1,128))", 32, 8, 4, 4, 4, 2},
      {"(32,(2,4)):(8,(0,1))", 32, 8, 1, 1, 1, 8},  // a broadcast value mode first: no run
      {"Sw<3,3,3> o (32,8):(8,1)", 32, 8, 8, 8, 8, 1},
      {"Sw<2,2,3> o (32,8):(8,1)", 32, 8, 4, 8, 4, 2},  // the swizzle keeps blocks of 4 together
  };
  for (const Row& r : rows) {
    INFO(r.layout);
    const ThreadValueProperties tv = thread_value_properties(layout_of(r.layout));
    CHECK(tv.threads == r.threads);
    CHECK(tv.values == r.values);
    CHECK(tv.vector == r.vector);
    CHECK(tv.run == r.run);
    CHECK(tv.aligned_vector == r.aligned);
    CHECK(tv.accesses == r.accesses);
  }
  CHECK_THROWS_AS(thread_value_properties(layout_of("(2,2,2):(1,2,4)")), Error);
}

TEST_CASE("analysis: functional equality and the first differences") {
  struct Row {
    const char* a;
    const char* b;
    bool equal;
    std::int64_t differing;
    std::vector<Difference> first;
  };
  const Row rows[] = {
      {"(4,3):(1,4)", "12:1", true, 0, {}},
      {"((2,2),3):((1,2),4)", "(4,3)", true, 0, {}},
      {"(2,(2,2)):(4,(2,1))", "(2,4):(4,1)", false, 4, {{2, 2, 1}, {3, 6, 5}, {4, 1, 2}, {5, 5, 6}}},
      {"(4,2):(1,4)", "(4,2):(2,1)", false, 6, {{1, 1, 2}, {2, 2, 4}, {3, 3, 6}, {4, 4, 1}, {5, 5, 3}, {6, 6, 5}}},
      {"(4,2)", "(3,2)", false, 0, {}},  // different domains
      {"(1048576,1048576):(1,1048576)", "1099511627776:1", true, 0, {}},
      {"Sw<1,5,1> o 16:1", "16:1", true, 0, {}},  // the swizzle moves nothing below 64
      {"Sw<3,4,3> o (8,64):(64,1)", "(8,64):(64,1)", false, 384, {{2, 144, 128}, {3, 208, 192}}},
  };
  for (const Row& r : rows) {
    INFO(r.a << " vs " << r.b);
    ComparisonLimits limits;
    limits.max_shown = 6;
    const Comparison c = compare_functional(layout_of(r.a), layout_of(r.b), limits);
    CHECK(c.equal == r.equal);
    CHECK(c.differing == r.differing);
    CHECK(c.counted);
    REQUIRE(c.first.size() >= std::min<std::size_t>(r.first.size(), 6));
    for (std::size_t i = 0; i < r.first.size(); ++i) {
      CHECK(c.first[i].index == r.first[i].index);
      CHECK(c.first[i].a == r.first[i].a);
      CHECK(c.first[i].b == r.first[i].b);
    }
  }
}

TEST_CASE("analysis: equality at sizes no walk could cover") {
  const AnyLayout a = layout_of("(1048576,1048576):(1,1048576)");
  const AnyLayout b = layout_of("(1048576,1048576):(1,1048577)");
  ComparisonLimits limits;
  limits.max_scan = 100;
  const Comparison c = compare_functional(a, b, limits);
  CHECK(!c.equal);
  REQUIRE(!c.first.empty());
  CHECK(c.first[0].index == 1048576);
  CHECK(c.first[0].a == 1048576);
  CHECK(c.first[0].b == 1048577);
  CHECK(!c.counted);  // the count stopped at the limit and says so
  // Dynamic integers do not merge in CuTe's coalesce; equality goes by value.
  CHECK(compare_functional(layout_of("(2,3):(1,2)", true), layout_of("6:1", true)).equal);
  // Swizzled layouts are walked: past the limit that is an error, not a guess.
  CHECK_THROWS_AS(compare_functional(layout_of("Sw<3,4,3> o (8,64):(64,1)"), layout_of("(8,64):(64,1)"), limits),
                  Error);
}

TEST_CASE("analysis: a walk split over the cores counts and lists as one walk does") {
  // Sw<3,4,3> moves an offset exactly when one of its bits 7..9 is set: 7/8 of
  // the 2^20 offsets, the first at index 128 * 1024 (offset 128, moved to 144).
  const AnyLayout a = layout_of("Sw<3,4,3> o (1024,1024):(1024,1)"), b = layout_of("(1024,1024):(1024,1)");
  ComparisonLimits limits;
  limits.max_shown = 3;
  const Comparison all = compare_functional(a, b, limits);
  CHECK(!all.equal);
  CHECK(all.counted);
  CHECK(all.differing == 917504);
  REQUIRE(all.first.size() == 3);
  CHECK(all.first[0].index == 131072);
  CHECK(all.first[0].a == 144);
  CHECK(all.first[0].b == 128);
  CHECK(all.first[1].index == 131073);
  CHECK(all.first[1].a == 1168);
  CHECK(all.first[2].index == 131074);
  // Asked only whether they differ: the first difference, and a count that says it stopped.
  limits.stop_at_first = true;
  const Comparison first = compare_functional(a, b, limits);
  CHECK(!first.equal);
  CHECK(!first.counted);
  REQUIRE(!first.first.empty());
  CHECK(first.first[0].index == 131072);
  CHECK(compare_functional(a, layout_of("Sw<3,4,3> o (1024,(2,512)):(1024,(1,2))"), limits).equal);
}

TEST_CASE("analysis: structural equality is CuTe's ==") {
  CHECK(structurally_equal(layout_of("(4,3):(1,4)"), layout_of("(4,3)")));
  CHECK(!structurally_equal(layout_of("(4,3):(1,4)"), layout_of("12:1")));
  CHECK(structurally_equal(layout_of("(_4,3):(1,_4)", true), layout_of("(4,_3):(_1,4)", true)));  // values, not marks
  CHECK(!structurally_equal(layout_of("Sw<3,4,3> o (8,64):(64,1)"), layout_of("(8,64):(64,1)")));
  CHECK(structurally_equal(layout_of("Sw<3,4,3> o (8,64):(64,1)"), layout_of("Sw<3,4,3> o 0 o (8,64):(64,1)")));
}

TEST_CASE("analysis: lookup between offsets, indices and coordinates") {
  const AnyLayout l = layout_of("((2,2),4):((1,0),2)");
  const Preimage p = locate_offset(l, 2);
  REQUIRE(p.matches.size() == 2);
  CHECK(p.matches[0].index == 4);
  CHECK(to_text(p.matches[0].flat) == "(0,1)");
  CHECK(to_text(p.matches[0].natural) == "((0,0),1)");
  CHECK(p.matches[1].index == 6);
  CHECK(to_text(p.matches[1].natural) == "((0,1),1)");
  CHECK(locate_offset(l, 8).matches.empty());
  CHECK(locate_offset(l, -1).matches.empty());

  const AnyLayout rm = layout_of("(4,3):(3,1)");
  CHECK(locate_index(rm, 7).offset == 10);
  CHECK(to_text(locate_index(rm, 7).flat) == "(3,1)");
  CHECK(locate_coordinate(rm, IntTuple::tuple({static_int(1), static_int(2)})).index == 9);
  CHECK(locate_coordinate(rm, IntTuple(static_int(9))).offset == 5);
  CHECK_THROWS_AS(locate_index(rm, 12), Error);
  CHECK_THROWS_AS(locate_coordinate(rm, IntTuple::tuple({static_int(4), static_int(0)})), Error);

  // Swizzled: the offset goes back through the swizzle first.
  const AnyLayout sw = layout_of("Sw<3,4,3> o (8,64):(64,1)");
  const Preimage s = locate_offset(sw, 130);
  REQUIRE(s.matches.size() == 1);
  CHECK(s.matches[0].index == 146);
  CHECK(to_text(s.matches[0].flat) == "(2,18)");

  // A broadcast over 2^40 indices: the list stops at the limit and says so.
  LookupLimits limits;
  limits.max_matches = 5;
  const Preimage b = locate_offset(layout_of("(1048576,1048576):(0,1)"), 3, limits);
  CHECK(b.truncated);
  CHECK(b.matches.size() == 5);
  for (const Location& m : b.matches) CHECK(m.offset == 3);
}

TEST_CASE("analysis: offset lookups of lookup_cases.tsv, the same on 1, 2, 3 and 8 threads") {
  for (const auto& row : read_tsv("lookup_cases.tsv")) {
    REQUIRE(row.size() == 5);
    CAPTURE(row[0]);
    CAPTURE(row[1]);
    const AnyLayout l = layout_of(row[0]);
    const std::int64_t offset = std::stoll(row[1]);
    LookupLimits limits;
    limits.max_matches = std::stoull(row[2]);
    const auto shown = [&](int threads) {
      limits.threads = threads;
      std::string text;
      const bool truncated = for_each_preimage(
          l, offset, limits, [](const Location& m) { return render_location(m, false); },
          [&](std::string_view t) { text += t; });
      return std::pair{text, truncated};
    };
    const auto one = shown(1);
    CHECK(one.second == (row[4] == "yes"));
    limits.threads = 1;
    const Preimage p = locate_offset(l, offset, limits);
    CHECK(p.matches.size() == std::stoull(row[3]));
    std::string listed;
    bool ordered = true, reaching = true;
    for (std::size_t k = 0; k < p.matches.size(); ++k) {
      ordered = ordered && (k == 0 || p.matches[k - 1].index < p.matches[k].index);
      reaching = reaching && p.matches[k].offset == offset;
      listed += render_location(p.matches[k], false);
    }
    CHECK(ordered);
    CHECK(reaching);
    CHECK(one.first == listed);
    for (int threads : {2, 3, 8}) {
      CAPTURE(threads);
      CHECK(shown(threads) == one);
    }
  }
}

TEST_CASE("analysis: global-memory coalescing per warp instruction") {
  struct Row {
    const char* layout;
    std::int64_t element_bytes;
    bool threads_only;
    std::int64_t widest, instructions, sectors, min_sectors, lines, min_lines;
    std::int64_t scalar_instructions, scalar_sectors;
  };
  const Row rows[] = {
      {"(32,4):(4,1)", 4, false, 4, 1, 16, 16, 4, 4, 4, 64},
      {"(32,4):(1,32)", 4, false, 1, 4, 16, 16, 4, 4, 4, 16},
      {"32:8", 4, false, 1, 1, 32, 4, 8, 1, 1, 32},
      {"64:1", 4, false, 1, 2, 8, 8, 2, 2, 2, 8},
      {"(32,8):(8,1)", 2, false, 8, 1, 16, 16, 4, 4, 8, 128},
      {"(32,8):(8,1)", 4, false, 4, 2, 64, 32, 16, 8, 8, 256},  // 16 of every 32 bytes per instruction
      {"(32,4):(4,1)", 3, false, 1, 4, 48, 12, 12, 4, 4, 48},   // 3-byte elements: no vector
      {"(4,8):(8,1)", 4, true, 1, 1, 4, 4, 1, 1, 1, 4},         // a 4x8 row-major thread block
      {"Sw<1,2,3> o (32,4):(4,1)", 4, false, 4, 1, 16, 16, 4, 4, 4, 64},
  };
  for (const Row& r : rows) {
    INFO(r.layout << " with " << r.element_bytes << "-byte elements");
    CoalescingOptions o;
    o.element_bytes = r.element_bytes;
    o.threads_only = r.threads_only;
    const Coalescing c = analyse_coalescing(layout_of(r.layout), o);
    CHECK(c.widest_vector == r.widest);
    CHECK(c.vectorized.instructions == r.instructions);
    CHECK(c.vectorized.sectors == r.sectors);
    CHECK(c.vectorized.min_sectors == r.min_sectors);
    CHECK(c.vectorized.lines == r.lines);
    CHECK(c.vectorized.min_lines == r.min_lines);
    CHECK(c.scalar.instructions == r.scalar_instructions);
    CHECK(c.scalar.sectors == r.scalar_sectors);
  }
  CoalescingOptions forced;
  forced.vector = 4;
  CHECK_THROWS_AS(analyse_coalescing(layout_of("(32,4):(1,32)"), forced), Error);
  CoalescingOptions small;
  small.max_elements = 64;
  CHECK_THROWS_AS(analyse_coalescing(layout_of("(32,4):(4,1)"), small), Error);
}

TEST_CASE("analysis: the trace of a composition follows CuTe's algorithm") {
  trace::Recorder recorder(Notation{});
  Diagnostics diag(false, Notation{}, &recorder);
  const Value v = evaluate_expression("(6,2):(8,2) o (4,3):(3,1)", LanguageOptions{}, diag);
  CHECK(to_text(v.layout) == "((2,2),3):((24,2),8)");
  std::vector<std::string> produced, divided;
  for (const trace::Event& e : recorder.events()) {
    if (e.name == "mode" && e.fields.size() >= 2) produced.push_back(e.fields[0].value + ":" + e.fields[1].value);
    if (e.name == "shape_div") divided.push_back(e.fields[0].value + "," + e.fields[1].value);
  }
  CHECK(produced == std::vector<std::string>{"2:24", "3:8"});
  CHECK(divided == std::vector<std::string>{"2,1", "6,1"});
  CHECK(recorder.events().front().kind == trace::Event::Kind::Begin);
  CHECK(recorder.events().front().name == "composition");
  CHECK(recorder.events().back().kind == trace::Event::Kind::End);
}

TEST_CASE("analysis: a failed precondition is traced to the step that failed") {
  trace::Recorder recorder(Notation{});
  Diagnostics diag(false, Notation{}, &recorder);
  std::string message;
  try {
    evaluate_expression("composition((4,6,8):(2,3,5), 6:5)", LanguageOptions{}, diag);
  } catch (const Error& e) {
    message = e.what();
  }
  CHECK(message.find("Stride Divisibility") != std::string::npos);
  const auto& events = recorder.events();
  const auto last_step = std::find_if(events.rbegin(), events.rend(),
                                      [](const trace::Event& e) { return e.kind == trace::Event::Kind::Step; });
  REQUIRE(last_step != events.rend());
  CHECK(last_step->name == "lhs mode");
  CHECK(last_step->fields.back().value == "5");  // rest_stride
  CHECK(events.back().kind == trace::Event::Kind::Fail);
  const std::string text = render_trace(events, TraceView{"composition(...)", std::nullopt, message, false, false});
  CHECK(text.find("FAILED here: " + message) != std::string::npos);
}

TEST_CASE("analysis: only the evaluation given a Recorder is traced") {
  trace::Recorder recorder(Notation{});
  Diagnostics traced(false, Notation{}, &recorder), untraced;
  evaluate_expression("complement(4:2, 24)", LanguageOptions{}, untraced);  // no recorder: nothing collected
  CHECK(recorder.events().empty());
  evaluate_expression("complement(4:2, 24)", LanguageOptions{}, traced);
  CHECK(!recorder.events().empty());
  CHECK(recorder.events().front().name == "complement");
}

TEST_CASE("analysis: the eq grid marks the differing cells") {
  const AnyLayout a = layout_of("(2,(2,2)):(4,(2,1))"), b = layout_of("(2,4):(4,1)");
  const std::string text = render_comparison(compare_functional(a, b), a, b, EqualityView{});
  CHECK(text.find("equal: false\n") != std::string::npos);
  CHECK(text.find(" 0  |   0 | 2/1 | 1/2 |   3 |\n") != std::string::npos);
  CHECK(text.find(" 1  |   4 | 6/5 | 5/6 |   7 |\n") != std::string::npos);
  EqualityView as_json;
  as_json.json = true;
  const std::string json = render_comparison(compare_functional(a, b), a, b, as_json);
  CHECK(json.find("\"first\": [{\"index\": 2, \"coord\": [0,[1,0]], \"a\": 2, \"b\": 1}") != std::string::npos);
}

// ---- against CuTe's answers ------------------------------------------------

namespace {

bool golden_layout(const GoldenCase& c) { return !c.error && (c.kind == "layout" || c.kind == "composed"); }

}  // namespace

TEST_CASE("analysis: every golden layout is eq to its coalesce and to its CuTe print text") {
  Mismatches mismatches;
  int compared = 0;
  for (const GoldenCase& c : golden_cases()) {
    if (!golden_layout(c) || !c.print) continue;
    INFO("case " << c.id << ": " << c.expr);
    const AnyLayout l = layout_of(c.expr);
    const AnyLayout printed = layout_of(unmark(*c.print));
    AnyLayout coalesced = l;
    if (const auto* p = std::get_if<Layout>(&l)) coalesced = coalesce(*p);
    if (const auto* p = std::get_if<ComposedLayout>(&l))
      coalesced = on_inner(*p, [](const Layout& x) { return coalesce(x); });
    ++compared;
    // The print text of a swizzle with no bits reads back as the plain layout it is.
    const bool same_kind = l.index() == printed.index();
    const bool ok = compare_functional(l, coalesced).equal && compare_functional(l, printed).equal &&
                    (!same_kind || structurally_equal(l, printed));
    if (!ok && mismatches.report()) CHECK(ok);
  }
  CHECK_MESSAGE(mismatches.count() == 0, mismatches.count() << " of " << compared << " cases differ");
  CHECK(compared > 1000);
}

TEST_CASE("analysis: properties, eq and lookup agree with CuTe's offsets") {
  Mismatches mismatches;
  int compared = 0;
  for (const GoldenCase& c : golden_cases()) {
    if (!golden_layout(c) || !c.offsets || !c.cosize) continue;
    INFO("case " << c.id << ": " << c.expr);
    const AnyLayout l = layout_of(c.expr);
    const std::vector<std::int64_t>& offsets = *c.offsets;
    const auto n = static_cast<std::int64_t>(offsets.size());
    const std::set<std::int64_t> image(offsets.begin(), offsets.end());
    ++compared;

    const Properties p = properties(l);
    bool ok =
        p.image_size == static_cast<std::int64_t>(image.size()) && p.injective == (image.size() == offsets.size());
    if (n > 0) {
      const bool fills =
          *image.begin() == 0 && *image.rbegin() + 1 == *c.cosize && std::int64_t(image.size()) == *c.cosize;
      ok = ok && p.min_offset == *image.begin() && p.max_offset == *image.rbegin() && p.surjective == fills;
    }
    // CuTe's max_common_vector against the identity: the run of offsets i at index i.
    std::int64_t run = 0;
    while (run < n && offsets[run] == run) ++run;
    if (std::holds_alternative<Layout>(l) && n > 0) ok = ok && p.vector == std::max<std::int64_t>(run, 1);

    // eq against the identity of the same shape: equal exactly when the offsets are 0, 1, ...
    const Comparison id = compare_functional(l, make_layout(inner_layout(l).shape));
    ok = ok && id.equal == (run == n) && (id.equal || (!id.first.empty() && id.first[0].index == run));

    // Every offset's preimage is exactly the indices CuTe maps there.
    std::map<std::int64_t, std::vector<std::int64_t>> preimage;
    for (std::int64_t i = 0; i < n; ++i) preimage[offsets[i]].push_back(i);
    for (const auto& [offset, indices] : preimage) {
      std::vector<std::int64_t> found;
      for (const Location& m : locate_offset(l, offset).matches) found.push_back(m.index);
      ok = ok && found == indices;
    }
    for (std::int64_t i = 0; i < n; i += 7) ok = ok && locate_index(l, i).offset == offsets[i];

    if (!ok && mismatches.report()) CHECK(ok);
  }
  CHECK_MESSAGE(mismatches.count() == 0, mismatches.count() << " of " << compared << " cases differ");
  CHECK(compared > 1000);
}

}  // namespace layoutx::test
