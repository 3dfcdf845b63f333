#include "layoutx/partition_setup.hpp"

#include <fmt/format.h>

#include <cctype>

#include "layoutx/permutation_modes.hpp"

namespace layoutx {

namespace {

Layout plain_option_layout(const Value& v, const char* option, Notation n) {
  if (const auto l = v.as_plain_layout()) return *l;
  throw Error(fmt::format("{} needs a layout or a shape, got {} {}", option, a_kind_name(v), to_text(v, n)));
}

IntTuple tuple_option(const Value& v, const char* option, Notation n) {
  if (!v.is_int_tuple())
    throw Error(fmt::format("{} needs integers such as (1000,1000), got {} {}", option, a_kind_name(v), to_text(v, n)));
  return v.as_int_tuple();
}

char operand_letter(const std::string& text, bool mma) {
  std::string o;
  for (char c : text) o += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (o.empty()) return mma ? 'C' : 'S';
  if (mma && (o == "A" || o == "B" || o == "C")) return o[0];
  if (!mma && (o == "S" || o == "D" || o == "SRC" || o == "DST")) return o[0];
  throw Error(mma ? fmt::format("--operand of a TiledMMA is A, B or C, not '{}'", text)
                  : fmt::format("--operand of a TiledCopy is S or D (source or destination), not '{}'", text));
}

std::string partitioner_name(const Atom& atom, char operand) {
  return fmt::format("partition_{} of {} {}", operand, atom.kind == Atom::Kind::Mma ? "TiledMMA" : "TiledCopy",
                     atom.name);
}

}  // namespace

std::string partition_option_problem(const PartitionOptionTexts& o) {
  if (o.mma.empty() == o.copy.empty())
    return "partition takes a TiledMMA (--mma ATOM) or a TiledCopy (--copy ATOM --thr L --val L)";
  if (!o.mma.empty() && (!o.thr.empty() || !o.val.empty()))
    return "--thr and --val go with --copy; a TiledMMA takes --atoms and --permute";
  if (!o.copy.empty() && (!o.atoms.empty() || !o.permute.empty() || o.thr.empty() || o.val.empty()))
    return "a TiledCopy takes --thr and --val (not --atoms or --permute)";
  return "";
}

const Atom& partition_atom(const PartitionOptionTexts& o) {
  const std::string& name = o.mma.empty() ? o.copy : o.mma;
  const Atom* atom = find_atom(name);
  if (!atom)
    throw Error(fmt::format("no atom is called '{}' (layoutx atom --list FILTER lists the catalogue)", excerpt(name)));
  if ((atom->kind == Atom::Kind::Mma) != !o.mma.empty())
    throw Error(fmt::format("{} is {} atom; give it to {}", atom->name,
                            atom->kind == Atom::Kind::Mma ? "an MMA" : "a copy",
                            atom->kind == Atom::Kind::Mma ? "--mma" : "--copy"));
  return *atom;
}

std::string count_problem(const std::optional<Value>& counts, const char* option, Notation n) {
  const std::optional<Layout> l = counts ? counts->as_plain_layout() : std::nullopt;
  if (!l) return "";  // no layout: partition_tile names the problem
  for (const Int& count : leaves(l->shape))
    if (count.value <= 0)
      return fmt::format("{} counts atoms, threads or values along each mode: {} in {} is not positive", option,
                         count.value, to_text(l->shape, n));
  return "";
}

TilePartition partition_tile(const Atom& atom, const Value& tensor, const PartitionOptionValues& v, Notation n,
                             Diagnostics& diag) {
  TilePartition t;
  Partitioner& p = t.partitioner;
  p.operand = operand_letter(v.operand, atom.kind == Atom::Kind::Mma);
  if (atom.kind == Atom::Kind::Mma) {
    const Layout atom_layout = v.atoms ? plain_option_layout(*v.atoms, "--atoms", n)
                                       : make_layout(IntTuple::tuple({static_int(1), static_int(1), static_int(1)}));
    p.mma = make_tiled_mma(atom.mma, atom_layout, v.permute ? permutation_modes(*v.permute, n) : std::vector<Tiler>{},
                           diag);
  } else {
    p.copy = make_tiled_copy(atom.copy, v.bits, plain_option_layout(*v.thr, "--thr", n),
                             plain_option_layout(*v.val, "--val", n), diag);
  }
  t.request = PartitionRequest{
      require_layout(tensor, "partition", n), std::nullopt, v.tile_coord, std::nullopt, v.thread, v.bits};
  if (v.tile) t.request.tile = tuple_option(*v.tile, "--tile", n);
  if (v.problem) t.request.problem = tuple_option(*v.problem, "--problem", n);
  t.answer = partition_threads(p, t.request, diag);
  t.name = partitioner_name(atom, p.operand);
  return t;
}

std::string as_tuple_text(const std::string& text) {
  if (text.find(',') != std::string::npos && text.find('(') == std::string::npos) return "(" + text + ")";
  return text;
}

std::vector<std::int64_t> owner_coordinate(const Value& v, Notation n) {
  std::vector<std::int64_t> c;
  for (const Int& leaf : leaves(tuple_option(v, "--owner", n))) c.push_back(leaf.value);
  return c;
}

}  // namespace layoutx
