// Every catalogue atom through what `tv --atom`, `draw --atom`, `bank --atom`,
// `swizzle-search` (a copy atom as the access KIND) and `partition` compute
// for it: each
// atom is accepted or refused as tests/data/atom_commands.tsv says (the first
// row whose command and name pattern match), with the reason the row names.
// MMA atoms' grids and pictures are drawn by test_pictures; here their TiledMMA
// operands are made, and copy atoms' grids drawn at the default 16-bit values.
#include <regex.h>

#include <memory>
#include <string>
#include <vector>

#include "layoutx/atoms.hpp"
#include "layoutx/partition_threads.hpp"
#include "layoutx/render_picture.hpp"
#include "layoutx/tiled_mma.hpp"
#include "test_support.hpp"

namespace layoutx {

namespace {

// The table's name patterns are POSIX extended regular expressions (regcomp):
// std::regex would cost several seconds of compile time for four lines.
using NamePattern = std::shared_ptr<regex_t>;

NamePattern name_pattern(const std::string& text) {
  auto* re = new regex_t;
  if (regcomp(re, text.c_str(), REG_EXTENDED | REG_NOSUB) != 0) {
    delete re;
    return nullptr;
  }
  return NamePattern(re, [](regex_t* r) {
    regfree(r);
    delete r;
  });
}

bool found_in(const std::string& name, const NamePattern& pattern) {
  return regexec(pattern.get(), name.c_str(), 0, nullptr, 0) == 0;
}

struct Expectation {
  std::string command;
  NamePattern name;
  std::string pattern, outcome;  // outcome: "ok", or a substring of the refusal
  int matched = 0;
};

IntTuple pair(const Int& a, const Int& b) { return IntTuple::tuple({a, b}); }

// What `partition --thread 0` computes for the atom alone: each operand of the
// TiledMMA of one atom over a compact tensor of its tile; both sides of the
// TiledCopy of one call per thread over a compact tensor of its tile.
void partition_mma(const Atom& atom, Diagnostics& diag) {
  Partitioner p;
  PartitionRequest r;
  r.thread = 0;
  p.mma =
      make_tiled_mma(atom.mma, make_layout(IntTuple::tuple({static_int(1), static_int(1), static_int(1)})), {}, diag);
  const IntTuple mnk = tile_shape(*p.mma);
  const Int m = mnk[0].value(), n = mnk[1].value(), k = mnk[2].value();
  for (const char operand : {'A', 'B', 'C'}) {
    p.operand = operand;
    r.tensor = make_layout(operand == 'A' ? pair(m, k) : operand == 'B' ? pair(n, k) : pair(m, n));
    partition_threads(p, r, diag);
  }
}

void partition_copy(const Atom& atom, int bits, Diagnostics& diag) {
  const CopyElements e = copy_elements(atom.copy, bits, diag);
  Partitioner p;
  PartitionRequest r;
  r.thread = 0;
  r.bits = bits;
  const Layout threads = make_layout(pair(size(atom.copy.thr_id), static_int(1)));
  const Layout values = make_layout(pair(static_int(1), size(get(e.ref, 1))));
  p.copy = make_tiled_copy(atom.copy, bits, threads, values, diag);
  r.tensor = make_layout(p.copy->tiler_mn);
  for (const char side : {'S', 'D'}) {
    p.operand = side;
    partition_threads(p, r, diag);
  }
}

// A copy atom is partitioned at 16-bit elements, or else at the first of 8
// and 32 bits it takes (Copy_Atom<Op, T> exists for some T only); the 16-bit
// refusal is the answer when none does.
void partition_of(const Atom& atom, Diagnostics& diag) {
  if (atom.kind == Atom::Kind::Mma) return partition_mma(atom, diag);
  try {
    return partition_copy(atom, 16, diag);
  } catch (const Error&) {
    for (const int bits : {8, 32}) {
      try {
        return partition_copy(atom, bits, diag);
      } catch (const Error&) {
      }
    }
    throw;
  }
}

// "" when the command's computation succeeds, else its message.
std::string outcome_of(const std::string& command, const Atom& atom) {
  try {
    Diagnostics diag;
    PictureOptions options;
    if (command == "partition") {
      partition_of(atom, diag);
    } else if (command == "bank-load" || command == "bank-store") {
      shared_access_of(atom, command == "bank-store");
    } else if (atom.kind == Atom::Kind::Mma) {
      const TiledMma mma = make_tiled_mma(
          atom.mma, make_layout(IntTuple::tuple({static_int(1), static_int(1), static_int(1)})), {}, diag);
      operand_A(mma, diag);
      operand_B(mma, diag);
      operand_C(mma, diag);
    } else {
      const CopyElements e = copy_elements(atom.copy, 16, diag);
      const TvView src{"Src", e.src, atom.copy.thr_id, e.tile, false},
          dst{"Dst", e.dst, atom.copy.thr_id, e.tile, false};
      if (command == "tv") {
        render_tv_grid(src, options);
        render_tv_grid(dst, options);
      } else {
        copy_picture(src, dst, options);
      }
    }
    return "";
  } catch (const Error& e) {
    return e.what();
  }
}

}  // namespace

TEST_CASE(
    "every catalogue atom is accepted or refused with its reason by tv, draw, bank, swizzle-search and partition") {
  std::vector<Expectation> table;
  for (const auto& row : test::read_tsv("atom_commands.tsv")) {
    REQUIRE(row.size() == 3);
    NamePattern pattern = name_pattern(row[1]);
    REQUIRE_MESSAGE(pattern, "atom_commands.tsv: not a regular expression: " << row[1]);
    table.push_back({row[0], pattern, row[1], row[2]});
  }
  test::Mismatches mismatches;
  int checked = 0;
  for (const Atom& atom : atom_catalogue()) {
    for (const std::string command : {"tv", "draw", "bank-load", "bank-store", "partition"}) {
      Expectation* row = nullptr;
      for (auto& e : table)
        if (e.command == command && found_in(atom.name, e.name)) {
          row = &e;
          break;
        }
      if (!row) {
        if (mismatches.report()) FAIL_CHECK(command << " " << atom.name << ": no row of atom_commands.tsv matches");
        continue;
      }
      ++row->matched;
      ++checked;
      const std::string got = outcome_of(command, atom);
      const bool ok = row->outcome == "ok" ? got.empty() : !got.empty() && got.find(row->outcome) != std::string::npos;
      if (!ok && mismatches.report())
        FAIL_CHECK(command << " " << atom.name << " (row " << row->pattern << "): expected " << row->outcome << ", got "
                           << (got.empty() ? "ok" : got));
    }
  }
  for (const auto& e : table) CHECK_MESSAGE(e.matched > 0, e.command << " " << e.pattern << " matches no atom");
  CHECK(checked == 5 * static_cast<int>(atom_catalogue().size()));
  CHECK(mismatches.count() == 0);
}

}  // namespace layoutx
