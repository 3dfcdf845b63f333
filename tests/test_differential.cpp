// CuTe's answers to random expressions over every function (tests/data/differential,
// produced by tests/differential/ against CuTe's headers), replayed in one process
// without CUTLASS.  Cases where layoutx is still known to answer differently are
// listed, one line each, in known_divergences.txt: a listed case that starts to
// agree fails the test as surely as an unlisted one that diverges, so the list
// can only shrink.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "golden_cases.hpp"
#include "layout_of.hpp"
#include "json_lines.hpp"
#include "layoutx/atom_language.hpp"
#include "layoutx/language.hpp"
#include "layoutx/render.hpp"
#include "test_support.hpp"

namespace layoutx::test {

namespace {

const std::string kDir = std::string(LAYOUTX_TEST_DATA) + "/differential";

struct DiffCase {
  std::string id, expr, op, reason;
  bool dynamic = false, error = false, static_required = false;
  std::optional<std::string> print, print_layout, shape, stride;
  std::optional<std::vector<std::int64_t>> offsets;
  std::optional<std::vector<std::string>> coordinates;  // what a coordinate layout maps 0, 1, ... to
  // CuTe prints the value, but its evaluation L(i) or its cosize does not compile
  std::optional<std::string> evaluation_error, cosize_error;
  std::map<std::string, std::string> info;  // size/cosize/rank/depth as printed (marks kept)
};

std::optional<std::string> text(const Json& j) {
  if (j.kind != Json::Kind::String) return std::nullopt;
  return j.string;
}

DiffCase to_case(const Json& j) {
  DiffCase c;
  c.id = text(j["id"]).value_or("");
  c.expr = text(j["expr"]).value_or("");
  c.op = text(j["op"]).value_or("");
  c.reason = text(j["reason"]).value_or("");
  c.dynamic = text(j["mode"]).value_or("static") == "dynamic";
  c.error = j["error"].kind == Json::Kind::Bool && j["error"].boolean;
  c.static_required = j["static-required"].kind == Json::Kind::Bool && j["static-required"].boolean;
  c.print = text(j["print"]);
  c.print_layout = text(j["print_layout"]);
  c.shape = text(j["shape"]);
  c.stride = text(j["stride"]);
  c.evaluation_error = text(j["evaluation_error"]);
  c.cosize_error = text(j["cosize_error"]);
  if (j["coordinates"].kind == Json::Kind::Array) {
    c.coordinates.emplace();
    for (const Json& o : j["coordinates"].array) c.coordinates->push_back(o.string);
  }
  if (j["offsets"].kind == Json::Kind::Array) {
    c.offsets.emplace();
    for (const Json& o : j["offsets"].array) c.offsets->push_back(o.integer);
  }
  for (const char* key : {"size", "cosize", "rank", "depth"}) {
    if (c.dynamic) {
      if (auto t = text(j[std::string(key) + "_text"])) c.info[key] = *t;
    } else if (j[key].kind == Json::Kind::Integer) {
      c.info[key] = std::to_string(j[key].integer);
    }
  }
  return c;
}

const std::vector<DiffCase>& cases() {
  static const std::vector<DiffCase> all = [] {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(kDir))
      if (e.path().extension() == ".jsonl") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::vector<DiffCase> out;
    for (const auto& f : files)
      for (const Json& j : read_json_lines(f.string())) out.push_back(to_case(j));
    return out;
  }();
  return all;
}

// id -> reason, from known_divergences.txt ("ID reason..." lines, # comments).
std::map<std::string, std::string> known_divergences() {
  std::map<std::string, std::string> known;
  std::ifstream in(kDir + "/known_divergences.txt");
  for (std::string row; std::getline(in, row);) {
    if (row.empty() || row[0] == '#') continue;
    const auto space = row.find(' ');
    known[row.substr(0, space)] = space == std::string::npos ? "" : row.substr(space + 1);
  }
  return known;
}

std::string without_marks(std::string s, bool dynamic) {
  if (dynamic) return s;
  // The static marks: a `_` before a digit or a minus sign (smem_ptr keeps its own).
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (!(s[i] == '_' && i + 1 < s.size() && (s[i + 1] == '-' || std::isdigit(static_cast<unsigned char>(s[i + 1])))))
      out += s[i];
  return out;
}

using test::as_layout;

std::map<std::string, std::string> info_lines(const std::string& info) {
  std::map<std::string, std::string> found;
  std::istringstream in(info);
  for (std::string row; std::getline(in, row);) {
    const auto colon = row.find(": ");
    if (colon != std::string::npos) found.emplace(row.substr(0, colon), row.substr(colon + 2));
  }
  return found;
}

// Whether `f` refuses with layoutx's error.
template <class F>
bool refusal(F f) {
  try {
    f();
  } catch (const Error&) {
    return true;
  }
  return false;
}

// Empty when layoutx gives CuTe's answer; else what differs first.
std::string divergence(const DiffCase& c) {
  const Notation marks{.static_marks = c.dynamic};
  LanguageOptions options;
  options.dynamic = c.dynamic;
  options.extension = &atom_language();
  Value v;
  try {
    v = evaluated(c.expr, options);
  } catch (const Error& e) {
    if (!c.error) return std::string("refused: ") + e.what();
    if (c.static_required && !dynamic_cast<const StaticRequiredSourceError*>(&e))
      return std::string("refused without saying that static integers are needed: ") + e.what();
    return "";
  }
  if (c.error) return "accepted what CuTe refuses (" + c.reason + "): " + render_notation(v, marks);
  try {
    const std::string got = masked_addresses(render_notation(v, marks));
    if (got != without_marks(*c.print, c.dynamic)) return "eval gives " + got;
    if (c.print_layout) {
      GridOptions grid_options;
      grid_options.notation = marks;
      const std::string grid = render_grid(v, grid_options);
      if (grid != without_marks(*c.print_layout, c.dynamic)) return "print gives\n" + grid;
    }
    if (c.offsets) {
      std::vector<std::int64_t> offsets;
      const AnyLayout l = as_layout(v);
      stream_offset_values(l, 0, std::max<std::int64_t>(size(l).value, 0),
                           [&](const std::int64_t* o, std::size_t n) { offsets.insert(offsets.end(), o, o + n); });
      if (offsets != *c.offsets) return "offsets differ";
    }
    if (c.coordinates) {
      std::string table;
      render_offsets(as_layout(v), OffsetFormat::Plain, [&](std::string_view t) { table += t; });
      std::string want;
      for (const auto& x : *c.coordinates) want += without_marks(x, false) + "\n";
      if (table != want) return "coordinates differ:\n" + table;
    }
    if (c.evaluation_error) {
      const auto refused = refusal([&] { render_offsets(as_layout(v), OffsetFormat::Plain, [](std::string_view) {}); });
      if (!refused) return "offsets accepted what CuTe does not compile (" + *c.evaluation_error + ")";
    }
    if (c.cosize_error) {
      if (!refusal([&] { render_info(v, InfoOptions{.notation = marks}); }))
        return "info accepted a cosize that CuTe does not compile (" + *c.cosize_error + ")";
    } else if (!c.info.empty()) {
      auto found = info_lines(render_info(v, InfoOptions{.notation = marks}));
      std::map<std::string, std::string> want = c.info;
      if (c.shape) want["shape"] = *c.shape;
      if (c.stride) want["stride"] = *c.stride;
      for (const auto& [key, value] : want)
        if (found[key] != without_marks(value, c.dynamic)) return "info " + key + ": " + found[key];
    }
  } catch (const Error& e) {
    return std::string("error while printing: ") + e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("differential: layoutx answers as CuTe, except the listed known divergences") {
  const auto known = known_divergences();
  Mismatches unlisted, fixed;
  int diverging = 0;
  for (const DiffCase& c : cases()) {
    const std::string why = divergence(c);
    const bool listed = known.count(c.id) > 0;
    if (!why.empty()) ++diverging;
    if (!why.empty() && !listed && unlisted.report()) {
      const std::string mode = c.dynamic ? " (--dynamic): " : ": ";
      const std::string cute = c.error ? "error: " + c.reason : c.print.value_or("?");
      INFO("case " << c.id << mode << c.expr << "\n  CuTe: " << cute << "\n  layoutx: " << why);
      CHECK_MESSAGE(false, "diverges from CuTe and is not in known_divergences.txt");
    }
    if (why.empty() && listed && fixed.report()) {
      INFO("case " << c.id << ": " << c.expr);
      CHECK_MESSAGE(false, "now agrees with CuTe: delete its line from known_divergences.txt");
    }
  }
  CHECK_MESSAGE(unlisted.count() == 0, unlisted.count() << " unlisted divergences");
  CHECK_MESSAGE(fixed.count() == 0, fixed.count() << " listed cases now agree");
  MESSAGE(cases().size() << " cases, " << diverging << " known divergences");
}

TEST_CASE("differential: the data is complete and the list names real cases") {
  const auto& all = cases();
  std::set<std::string> ids, exprs;
  for (const DiffCase& c : all) {
    INFO("case " << c.id);
    CHECK(ids.insert(c.id).second);
    exprs.insert((c.dynamic ? "--dynamic " : "") + c.expr);
    CHECK((c.error || c.print.has_value()));
  }
  CHECK(exprs.size() >= 20000);
  for (const auto& [id, reason] : known_divergences()) {
    INFO("known_divergences.txt: " << id << " " << reason);
    CHECK(ids.count(id) == 1);
    CHECK(!reason.empty());
  }
  // Every function of the language has at least 50 cases CuTe answers, in each mode
  // (the outermost operation of a case is its `op`).
  std::map<std::pair<std::string, bool>, int> accepted;
  for (const DiffCase& c : all)
    if (!c.error) ++accepted[{c.op, c.dynamic}];
  // The tensor and thread-slice functions have CuTe's answers in tests/data/tensor_snippets.tsv
  // (test_tensors.cpp) and no random cases yet.
  const std::set<std::string> answered_elsewhere = {
      "get_slice",         "get_thread_slice",  "make_coord_tensor", "make_fragment_A",
      "make_fragment_B",   "make_fragment_C",   "make_gmem_ptr",     "make_identity_tensor",
      "make_smem_ptr",     "make_tensor",       "make_tensor_like",  "make_tiled_copy_A",
      "make_tiled_copy_B", "make_tiled_copy_C", "make_tiled_copy_D", "make_tiled_copy_S",
      "retile_D",          "retile_S"};
  // The TMA copies and group_modes take tensors whole programs make: CuTe's answers are
  // tests/data/programs/tma.jsonl's (run_programs).
  const std::set<std::string> answered_by_programs = {"get_tma_tensor", "group_modes",   "make_tma_atom",
                                                      "make_tma_copy",  "tma_partition", "with"};
  for (const std::string& f : function_names(&atom_language())) {
    if (answered_elsewhere.count(f) || answered_by_programs.count(f)) continue;
    for (bool dynamic : {false, true}) {
      const std::string what = f + (dynamic ? " --dynamic" : " static");
      INFO(what << ": " << accepted[{f, dynamic}] << " accepted cases");
      CHECK(accepted[{f, dynamic}] >= 50);
    }
  }
}

}  // namespace layoutx::test
