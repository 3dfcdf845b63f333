// The shared-memory instruction behind a copy atom, for the bank model.
#include <fmt/format.h>

#include <regex>

#include "layoutx/atoms.hpp"

namespace layoutx {

namespace {

// ldmatrix / stmatrix: .x1/.x2/.x4 is the number of 8x8 b16 matrices, which
// CuTe's names count in 32-bit (N) or 16-bit (T) values per thread.
std::optional<SharedAccess> matrix_access(const std::string& name, std::string& why) {
  static const std::regex re("^SM(75|90)_U(32|16)x([1248])_(LDSM|STSM)_([NT])$");
  std::smatch m;
  if (!std::regex_match(name, m, re)) return std::nullopt;
  const int values = std::stoi(m[3].str()), matrices = m[2] == "32" ? values : values / 2;
  const std::string access = fmt::format("{}{}{}", m[4] == "LDSM" ? "ldsm" : "stsm", matrices, m[5] == "T" ? "t" : "");
  const auto found = find_access(access);
  if (!found) why = fmt::format("the bank model has no {} (it knows stmatrix.trans as stsm4t only)", access);
  return found;
}

// UniversalCopy<uintN_t> and cp.async<uintN_t>: one N-bit access per thread.
std::optional<SharedAccess> vector_access(const std::string& name, bool store, std::string& why) {
  static const std::regex re("^(UniversalCopy|SM80_CP_ASYNC_\\w+)<uint([0-9]+)_t>$");
  std::smatch m;
  if (!std::regex_match(name, m, re)) return std::nullopt;
  const bool async = m[1] != "UniversalCopy";
  if (async && !store) {
    why = "cp.async writes shared memory: give it as a store (swizzle-search --write)";
    return std::nullopt;
  }
  const auto found = find_access(fmt::format("{}{}", async || store ? "st" : "ld", m[2].str()));
  if (!found) why = fmt::format("the bank model has no {}-bit shared-memory access", m[2].str());
  return found;
}

}  // namespace

SharedAccess shared_access_of(const Atom& atom, bool store) {
  std::string why;
  if (atom.kind == Atom::Kind::Copy) {
    if (auto a = matrix_access(atom.name, why)) {
      if (access_info(*a).store != store)
        throw Error(fmt::format("{} {} shared memory; it cannot be used to {} it", atom.name,
                                access_info(*a).store ? "writes" : "reads", store ? "write" : "read"));
      return *a;
    }
    if (why.empty())
      if (auto a = vector_access(atom.name, store, why)) return *a;
    if (why.empty() && atom.name.find("TMEM") != std::string::npos)
      why = "it moves data between tensor memory and registers, not through shared-memory banks";
  } else {
    why = "an MMA atom reads shared memory through matrix descriptors, not lane by lane";
  }
  if (why.empty()) why = "the bank model knows ld/st, ldmatrix and stmatrix accesses only";
  throw Error(fmt::format("{} has no shared-memory access the bank model knows: {}", atom.name, why));
}

}  // namespace layoutx
