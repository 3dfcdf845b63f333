// The TMEM layouts of the SM100 UMMA atoms against CuTe's (tests/data/atoms/tmem.jsonl,
// printed by scripts/atoms/generate_tmem.py): the accumulator's make_fragment_C
// and, for the _TS atoms, A's make_fragment_A. The rows with a TMEM load
// (make_tmem_copy partitions) are CuTe's answers kept for that work; the rows
// CuTe refuses name atoms the catalogue leaves out.
#include <string>

#include "json_lines.hpp"
#include "layoutx/umma_tmem.hpp"
#include "test_support.hpp"

namespace layoutx {

TEST_CASE("UMMA atoms: the TMEM layouts of the accumulator and of A, as CuTe allocates them") {
  const auto cases = test::read_json_lines(std::string(LAYOUTX_TEST_DATA) + "/atoms/tmem.jsonl");
  REQUIRE(cases.size() >= 80);
  const Notation n{true};
  test::Mismatches mismatches;
  int compared = 0;
  for (const test::Json& j : cases) {
    if (!j["load"].is_null()) continue;
    const std::string name = j["atom"].string;
    const Atom* atom = find_atom(name);
    if (!j["error"].is_null()) {
      if (atom && mismatches.report())
        FAIL_CHECK(name << ": CuTe refuses it (" << j["reason"].string << ") but the catalogue has it");
      continue;
    }
    REQUIRE_MESSAGE(atom, name << " is not in the catalogue");
    Diagnostics diag;
    const auto tmem = umma_tmem_layouts(*atom, diag);
    REQUIRE_MESSAGE(tmem, name << " has no TMEM layouts");
    const std::string want = j["acc"].string + " " + j["frg_a"].string;
    const std::string got = to_text(tmem->accumulator, n) + " " + (tmem->a ? to_text(*tmem->a, n) : "");
    if (got != want && mismatches.report()) FAIL_CHECK(name << "\nCuTe:    " << want << "\nlayoutx: " << got);
    ++compared;
  }
  CHECK(compared >= 70);
  CHECK(mismatches.count() == 0);
}

}  // namespace layoutx
