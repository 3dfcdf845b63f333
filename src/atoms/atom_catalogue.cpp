// The embedded catalogue, parsed with the expression language on first use.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "atoms_data.hpp"
#include "layoutx/atoms.hpp"
#include "layoutx/language.hpp"

namespace layoutx {

namespace {

Value parse(const char* text, const char* atom, const char* field) {
  try {
    Diagnostics diag;  // the catalogue's layouts are CuTe's own: they raise no warning
    return evaluate_expression(text, LanguageOptions{}, diag);
  } catch (const Error& e) {
    // The catalogue is checked by the tests; this names the culprit if it is ever broken.
    throw Error(fmt::format("atom catalogue: {} of {} ('{}') does not parse: {}", field, atom, text, e.what()));
  }
}

Layout parse_layout(const char* text, const char* atom, const char* field) {
  const Value v = parse(text, atom, field);
  if (const auto l = v.as_plain_layout()) return *l;
  throw Error(fmt::format("atom catalogue: {} of {} is {}, not a layout", field, atom, a_kind_name(v)));
}

Atom load(const atoms_data::RawAtom& raw) {
  Atom a;
  a.name = raw.name;
  a.origin = raw.origin;
  if (std::string_view(raw.kind) == "mma") {
    a.kind = Atom::Kind::Mma;
    a.mma = {raw.name,
             parse(raw.shape_mnk, raw.name, "Shape_MNK").as_int_tuple(),
             parse_layout(raw.thr_id, raw.name, "ThrID"),
             parse_layout(raw.layout0, raw.name, "ALayout"),
             parse_layout(raw.layout1, raw.name, "BLayout"),
             parse_layout(raw.layout2, raw.name, "CLayout")};
  } else {
    a.kind = Atom::Kind::Copy;
    a.copy = {raw.name, parse_layout(raw.thr_id, raw.name, "ThrID"), parse_layout(raw.layout0, raw.name, "SrcLayout"),
              parse_layout(raw.layout1, raw.name, "DstLayout"), parse_layout(raw.layout2, raw.name, "RefLayout")};
  }
  return a;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// An atom's name as written in C++: the operation and its template arguments,
// without spaces, without "cute::"/"cutlass::" and in capitals, so that
// "cute::UniversalCopy<cute::uint128_t>" and "UNIVERSALCOPY<UINT128_T>" agree.
struct Spelling {
  std::string base;
  std::vector<std::string> args;
};

std::string canonical(std::string_view name) {
  std::string s;
  for (char c : name)
    if (!std::isspace(static_cast<unsigned char>(c))) s += c;
  for (const std::string_view ns : {"cute::", "cutlass::"})
    for (auto at = s.find(ns); at != std::string::npos; at = s.find(ns)) s.erase(at, ns.size());
  return upper(s);
}

Spelling spelling(std::string_view name) {
  const std::string s = canonical(name);
  Spelling out;
  const auto lt = s.find('<');
  out.base = s.substr(0, lt);
  if (lt == std::string::npos) return out;
  const std::size_t close = s.back() == '>' ? s.size() - 1 : s.size();
  int depth = 0;
  std::string arg;
  for (std::size_t i = lt + 1; i < close; ++i) {
    const char c = s[i];
    depth += c == '<' ? 1 : c == '>' ? -1 : 0;
    if (c == ',' && depth == 0) {
      out.args.push_back(std::move(arg));
      arg.clear();
    } else {
      arg += c;
    }
  }
  if (!arg.empty() || !out.args.empty()) out.args.push_back(std::move(arg));
  return out;
}

// The last part of a qualified name: "SM90::GMMA::SPARSE::GMMA_64X8X32_F16F16F16_SS" -> "GMMA_64X8X32_F16F16F16_SS".
std::string_view unqualified(std::string_view base) {
  const auto colons = base.rfind("::");
  return colons == std::string_view::npos ? base : base.substr(colons + 2);
}

// A catalogue name matches a spelling with the same operation (qualified or
// not) whose template arguments start with the catalogue's: the catalogue
// leaves out the arguments that do not change the layouts (operand majors,
// negation), and an atom without arguments accepts any.
bool matches(const Spelling& atom, const Spelling& asked) {
  if (asked.base != atom.base && asked.base != unqualified(atom.base)) return false;
  if (atom.args.empty()) return true;
  return asked.args.size() >= atom.args.size() && std::equal(atom.args.begin(), atom.args.end(), asked.args.begin());
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace

namespace {

// Each atom parsed on its first use, once even when threads ask together: a
// command that names one atom parses its five layouts, not the 2,752 atoms'.
struct LoadedAtoms {
  std::unique_ptr<std::unique_ptr<const Atom>[]> atoms =
      std::make_unique<std::unique_ptr<const Atom>[]>(atoms_data::kAtomCount);
  std::unique_ptr<std::once_flag[]> once = std::make_unique<std::once_flag[]>(atoms_data::kAtomCount);
};

const Atom& loaded_atom(std::size_t i) {
  static LoadedAtoms loaded;
  std::call_once(loaded.once[i], [&] { loaded.atoms[i] = std::make_unique<const Atom>(load(atoms_data::kAtoms[i])); });
  return *loaded.atoms[i];
}

}  // namespace

const std::vector<std::reference_wrapper<const Atom>>& atom_catalogue() {
  static const std::vector<std::reference_wrapper<const Atom>> atoms = [] {
    std::vector<std::reference_wrapper<const Atom>> out;
    out.reserve(atoms_data::kAtomCount);
    for (std::size_t i = 0; i < atoms_data::kAtomCount; ++i) out.push_back(loaded_atom(i));
    return out;
  }();
  return atoms;
}

namespace {

// The catalogue's positions by operation, qualified and unqualified, in
// catalogue order. Built from the names alone: an unknown name (every
// misspelled identifier of an expression asks) costs one look-up, and the
// layouts are parsed only when an atom is found.
using OperationIndex = std::unordered_map<std::string, std::vector<std::size_t>>;

const OperationIndex& atoms_by_operation() {
  static const OperationIndex index = [] {
    OperationIndex out;
    for (std::size_t i = 0; i < atoms_data::kAtomCount; ++i) {
      const Spelling s = spelling(atoms_data::kAtoms[i].name);
      out[s.base].push_back(i);
      const std::string_view operation = unqualified(s.base);
      if (operation.size() != s.base.size()) out[std::string(operation)].push_back(i);
    }
    return out;
  }();
  return index;
}

}  // namespace

namespace {

// UniversalCopy<S> and cp.async's SM80_CP_ASYNC_*<S> move one S a thread
// whatever S is: their layouts are those of the unsigned integer of S's
// width, the one the catalogue lists.
void as_unsigned_copy(Spelling& s) {
  if ((s.base != "UNIVERSALCOPY" && !s.base.starts_with("SM80_CP_ASYNC")) || s.args.empty()) return;
  static const std::pair<std::string_view, std::string_view> kWidths[] = {
      {"FLOAT", "UINT32_T"},   {"TFLOAT32_T", "UINT32_T"}, {"INT32_T", "UINT32_T"},     {"INT", "UINT32_T"},
      {"DOUBLE", "UINT64_T"},  {"INT64_T", "UINT64_T"},    {"HALF_T", "UINT16_T"},      {"BFLOAT16_T", "UINT16_T"},
      {"INT16_T", "UINT16_T"}, {"INT8_T", "UINT8_T"},      {"FLOAT_E4M3_T", "UINT8_T"}, {"FLOAT_E5M2_T", "UINT8_T"}};
  for (std::string& arg : s.args)
    for (const auto& [type, word] : kWidths)
      if (arg == type) arg = word;
  if (s.args.size() == 2 && s.args[0] == s.args[1]) s.args.pop_back();
}

}  // namespace

const Atom* find_atom(std::string_view name) {
  Spelling asked = spelling(name);
  as_unsigned_copy(asked);
  const OperationIndex& index = atoms_by_operation();
  const auto candidates = index.find(asked.base);
  if (candidates == index.end()) return nullptr;
  for (const std::size_t i : candidates->second)
    if (matches(spelling(atoms_data::kAtoms[i].name), asked)) return &loaded_atom(i);
  return nullptr;
}

std::vector<std::string> similar_atom_names(std::string_view name, std::size_t n) {
  const std::string key = canonical(name);
  // Names that contain what was typed come first (a name cut short), then near misspellings.
  struct Ranked {
    bool contains;
    std::size_t distance;
    const char* name;
  };
  std::vector<Ranked> ranked;
  const std::size_t near = std::max<std::size_t>(3, key.size() / 3);
  for (std::size_t i = 0; i < atoms_data::kAtomCount; ++i) {
    const char* candidate = atoms_data::kAtoms[i].name;
    const std::string u = upper(candidate);
    // Lengths further apart than `near` are no misspelling: the distance is not worth its quadratic time.
    const std::size_t apart = u.size() > key.size() ? u.size() - key.size() : key.size() - u.size();
    ranked.push_back(
        {!key.empty() && u.find(key) != std::string::npos, apart > near ? apart : edit_distance(key, u), candidate});
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked& x, const Ranked& y) {
    return x.contains != y.contains ? x.contains : x.distance < y.distance;
  });
  std::vector<std::string> out;
  for (const Ranked& r : ranked) {
    if (out.size() == n || (!r.contains && r.distance > near)) break;
    out.emplace_back(r.name);
  }
  return out;
}

namespace {

// The catalogue positions whose names contain every word of `filter`, ignoring case.
std::vector<std::size_t> matching_atoms(std::string_view filter) {
  std::vector<std::string> words;
  std::string word;
  for (char c : upper(filter) + " ") {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < atoms_data::kAtomCount; ++i) {
    const std::string name = upper(atoms_data::kAtoms[i].name);
    if (std::all_of(words.begin(), words.end(), [&](const auto& w) { return name.find(w) != std::string::npos; }))
      out.push_back(i);
  }
  return out;
}

}  // namespace

std::vector<const Atom*> filter_atoms(std::string_view filter) {
  std::vector<const Atom*> out;
  for (const std::size_t i : matching_atoms(filter)) out.push_back(&loaded_atom(i));
  return out;
}

std::vector<AtomHeading> atom_headings(std::string_view filter) {
  std::vector<AtomHeading> out;
  for (const std::size_t i : matching_atoms(filter)) {
    const atoms_data::RawAtom& raw = atoms_data::kAtoms[i];
    AtomHeading h{raw.name, std::string_view(raw.kind) == "mma" ? Atom::Kind::Mma : Atom::Kind::Copy, {}};
    if (h.kind == Atom::Kind::Mma) h.shape_mnk = parse(raw.shape_mnk, raw.name, "Shape_MNK").as_int_tuple();
    out.push_back(std::move(h));
  }
  return out;
}

namespace {

// C++ value types and the letters CuTe's atom names spell them with.
constexpr std::array<std::pair<std::string_view, std::string_view>, 22> kTypeLetters{{
    {"HALF_T", "F16"},        {"BFLOAT16_T", "BF16"},   {"TFLOAT32_T", "TF32"},     {"FLOAT", "F32"},
    {"DOUBLE", "F64"},        {"FLOAT_E4M3_T", "E4M3"}, {"FLOAT_E5M2_T", "E5M2"},   {"FLOAT_E2M1_T", "E2M1"},
    {"FLOAT_E3M2_T", "E3M2"}, {"FLOAT_E2M3_T", "E2M3"}, {"FLOAT_UE8M0_T", "UE8M0"}, {"FLOAT_UE4M3_T", "UE4M3"},
    {"INT8_T", "S8"},         {"UINT8_T", "U8"},        {"INT16_T", "S16"},         {"UINT16_T", "U16"},
    {"INT32_T", "S32"},       {"UINT32_T", "U32"},      {"INT64_T", "S64"},         {"UINT64_T", "U64"},
    {"UINT128_T", "U128"},    {"INT4_T", "S4"},
}};

// How many letters at the front of `rest` spell one type as atom names do
// (F32, BF16, E4M3, S8, U1, C64, ...), 0 for none; the first spelling of the
// list that fits is taken.
std::size_t type_letters_at(std::string_view rest) {
  for (const std::string_view t : {"BF16", "TF32", "F16", "F32", "F64", "E4M3", "E5M2", "E2M1", "E2M3", "E3M2"})
    if (rest.starts_with(t)) return t.size();
  if (!rest.empty() && (rest[0] == 'S' || rest[0] == 'U'))
    for (const std::string_view bits : {"128", "64", "32", "16", "8", "4", "1"})
      if (rest.substr(1).starts_with(bits)) return 1 + bits.size();
  for (const std::string_view t : {"C64", "C32", "CF32", "CTF32"})
    if (rest.starts_with(t)) return t.size();
  return 0;
}

// "F32F16F16F32" -> {F32, F16, F16, F32}; {} unless the whole part is types
// (a copy atom's "U32x4" counts its leading type).
std::vector<std::string> types_in_part(const std::string& part) {
  std::string letters = part;
  if (const auto x = letters.find('X'); x != std::string::npos && x > 0) letters = letters.substr(0, x);
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < letters.size()) {
    const std::size_t length = type_letters_at(std::string_view(letters).substr(at));
    if (length == 0) return {};
    out.push_back(letters.substr(at, length));
    at += length;
  }
  return out;
}

}  // namespace

std::string atom_arch(std::string_view atom_name) {
  if (!atom_name.starts_with("SM")) return "";
  const std::size_t digits = atom_name.find_first_not_of("0123456789", 2);
  const std::string_view number = atom_name.substr(2, digits == std::string_view::npos ? digits : digits - 2);
  return number.empty() ? "" : "SM" + std::string(number);
}

std::string arch_name(std::string_view text) {
  std::string s = upper(text);
  if (s.rfind("SM", 0) == 0) s = s.substr(2);
  if (s.empty() || !std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return "";
  return "SM" + s;
}

std::string value_type_letters(std::string_view type) {
  const Spelling s = spelling(type);
  for (const auto& [cxx, letters] : kTypeLetters)
    if (s.base == cxx) return std::string(letters);
  const auto parts = types_in_part(s.base);
  return parts.size() == 1 ? parts.front() : "";
}

std::vector<std::string> atom_value_types(std::string_view atom_name) {
  const Spelling s = spelling(atom_name);
  std::vector<std::string> out;
  auto add = [&](const std::string& t) {
    if (!t.empty() && std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  };
  const std::string base(unqualified(s.base));
  std::size_t start = 0;
  while (start <= base.size()) {
    const auto end = std::min(base.find('_', start), base.size());
    for (const auto& t : types_in_part(base.substr(start, end - start))) add(t);
    start = end + 1;
  }
  for (const auto& arg : s.args) {
    const std::string inner = arg.rfind("COMPLEX<", 0) == 0 ? arg.substr(8, arg.size() - 9) : arg;
    for (const auto& [cxx, letters] : kTypeLetters)
      if (inner == cxx) add(std::string(letters));
  }
  return out;
}

}  // namespace layoutx

namespace layoutx {

namespace {

// The width of a type spelled in an atom name's letters (F16, E4M3, S8, C64, ...).
int letters_bits(const std::string& t) {
  if (t == "E4M3" || t == "E5M2") return 8;
  if (t == "E2M1") return 4;
  if (t == "E2M3" || t == "E3M2") return 6;
  if (t == "C64") return 128;
  if (t == "C32" || t == "CF32" || t == "CTF32") return 64;
  const std::size_t digits = t.find_first_of("0123456789");
  return digits == std::string::npos ? 0 : std::stoi(t.substr(digits));
}

}  // namespace

int type_bits(std::string_view type) {
  const std::string letters = value_type_letters(type);
  return letters.empty() ? 0 : letters_bits(letters);
}

std::vector<int> mma_operand_bits(std::string_view atom_name) {
  const Spelling s = spelling(atom_name);
  std::vector<std::string> types;
  const std::string base(unqualified(s.base));
  for (std::size_t start = 0; start <= base.size() && types.size() < 3;) {
    const auto end = std::min(base.find('_', start), base.size());
    const auto part = types_in_part(base.substr(start, end - start));
    if (part.size() >= 3) types = part;
    start = end + 1;
  }
  if (types.size() < 3) {  // UniversalFMA<D,A,B,C>: the types are its template arguments
    types.clear();
    for (const auto& arg : s.args)
      for (const auto& [cxx, letters] : kTypeLetters)
        if (arg == cxx) types.emplace_back(letters);
  }
  if (types.size() < 3) return {};
  std::vector<int> bits;
  for (const auto& t : types) bits.push_back(letters_bits(t));
  if (bits.size() == 3) bits.push_back(bits[0]);
  bits.resize(4);
  return bits;
}

}  // namespace layoutx
