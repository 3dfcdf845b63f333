// The embedded catalogue, parsed with the expression language on first use.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "atoms_data.hpp"
#include "layoutx/atoms.hpp"
#include "layoutx/language.hpp"

namespace layoutx {

namespace {

Value parse(const char* text, const char* atom, const char* field) {
  try {
    return evaluate_expression(text, LanguageOptions{});
  } catch (const Error& e) {
    // The catalogue is checked by the tests; this names the culprit if it is ever broken.
    throw Error(fmt::format("atom catalogue: {} of {} ('{}') does not parse: {}", field, atom, text, e.what()));
  }
}

Layout parse_layout(const char* text, const char* atom, const char* field) {
  const Value v = parse(text, atom, field);
  if (v.kind == Value::Kind::Layout) return v.layout;
  if (v.is_int_tuple()) return make_layout(v.as_int_tuple());
  throw Error(fmt::format("atom catalogue: {} of {} is a {}, not a layout", field, atom, kind_name(v)));
}

Atom load(const atoms_data::RawAtom& raw) {
  Atom a;
  a.name = raw.name;
  a.origin = raw.origin;
  if (std::string_view(raw.kind) == "mma") {
    a.kind = Atom::Kind::Mma;
    a.mma = {raw.name, parse(raw.shape_mnk, raw.name, "Shape_MNK").as_int_tuple(),
             parse_layout(raw.thr_id, raw.name, "ThrID"), parse_layout(raw.layout0, raw.name, "ALayout"),
             parse_layout(raw.layout1, raw.name, "BLayout"), parse_layout(raw.layout2, raw.name, "CLayout")};
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

// "cute::SM90_64x8x16_F16F16F16_SS<GMMA::Major::K, GMMA::Major::K>" -> "SM90_64X8X16_F16F16F16_SS"
std::string normalized(std::string_view name) {
  auto trim = [](std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
  };
  name = trim(name);
  if (name.substr(0, 6) == "cute::") name.remove_prefix(6);
  if (const auto lt = name.find('<'); lt != std::string_view::npos) name = name.substr(0, lt);
  return upper(trim(name));
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

const std::vector<Atom>& atom_catalogue() {
  static const std::vector<Atom> atoms = [] {
    std::vector<Atom> out;
    out.reserve(atoms_data::kAtomCount);
    for (std::size_t i = 0; i < atoms_data::kAtomCount; ++i) out.push_back(load(atoms_data::kAtoms[i]));
    return out;
  }();
  return atoms;
}

const Atom* find_atom(std::string_view name) {
  const std::string key = normalized(name);
  for (const auto& a : atom_catalogue())
    if (upper(a.name) == key) return &a;
  return nullptr;
}

std::vector<std::string> similar_atom_names(std::string_view name, std::size_t n) {
  const std::string key = normalized(name);
  // Names that contain what was typed come first (a name cut short), then near misspellings.
  struct Ranked {
    bool contains;
    std::size_t distance;
    const std::string* name;
  };
  std::vector<Ranked> ranked;
  for (const auto& a : atom_catalogue()) {
    const std::string u = upper(a.name);
    ranked.push_back({!key.empty() && u.find(key) != std::string::npos, edit_distance(key, u), &a.name});
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked& x, const Ranked& y) {
    return x.contains != y.contains ? x.contains : x.distance < y.distance;
  });
  std::vector<std::string> out;
  for (const Ranked& r : ranked) {
    if (out.size() == n || (!r.contains && r.distance > std::max<std::size_t>(3, key.size() / 3))) break;
    out.push_back(*r.name);
  }
  return out;
}

std::vector<const Atom*> filter_atoms(std::string_view filter) {
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
  std::vector<const Atom*> out;
  for (const auto& a : atom_catalogue()) {
    const std::string name = upper(a.name);
    if (std::all_of(words.begin(), words.end(), [&](const auto& w) { return name.find(w) != std::string::npos; }))
      out.push_back(&a);
  }
  return out;
}

}  // namespace layoutx
