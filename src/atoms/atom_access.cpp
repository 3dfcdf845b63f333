// The shared-memory instruction behind a copy atom, for the bank model.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string_view>

#include "layoutx/atoms.hpp"

namespace layoutx {

namespace {

// Whether `rest` starts with `word`; if so, `rest` moves past it.
bool consume_word(std::string_view& rest, std::string_view word) {
  if (!rest.starts_with(word)) return false;
  rest.remove_prefix(word.size());
  return true;
}

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// ldmatrix / stmatrix, named SM75|SM90 _U 32|16 x 1|2|4|8 _ LDSM|STSM _ N|T:
// .x1/.x2/.x4 is the number of 8x8 b16 matrices, which CuTe's names count in
// 32-bit (N) or 16-bit (T) values per thread.
std::optional<SharedAccess> matrix_access(std::string_view name, std::string& why) {
  std::string_view rest = name;
  if (!consume_word(rest, "SM75_U") && !consume_word(rest, "SM90_U")) return std::nullopt;
  const bool u32 = consume_word(rest, "32");
  if (!u32 && !consume_word(rest, "16")) return std::nullopt;
  // What is left: x V _ LDSM|STSM _ N|T, nine letters.
  if (rest.size() != 9 || rest[0] != 'x' || std::string_view("1248").find(rest[1]) == std::string_view::npos ||
      rest[2] != '_' || rest[7] != '_' || (rest[8] != 'N' && rest[8] != 'T'))
    return std::nullopt;
  const std::string_view op = rest.substr(3, 4);
  if (op != "LDSM" && op != "STSM") return std::nullopt;
  const int values = rest[1] - '0', matrices = u32 ? values : values / 2;
  const std::string access = fmt::format("{}{}{}", op == "LDSM" ? "ldsm" : "stsm", matrices, rest[8] == 'T' ? "t" : "");
  const auto found = find_access(access);
  if (!found) why = fmt::format("the bank model has no {} (it knows stmatrix.trans as stsm4t only)", access);
  return found;
}

// UniversalCopy<uintN_t> and cp.async (SM80_CP_ASYNC_<word letters><uintN_t>):
// one N-bit access per thread.
std::optional<SharedAccess> vector_access(std::string_view name, bool store, std::string& why) {
  const std::size_t open = name.find('<');
  if (open == std::string_view::npos) return std::nullopt;
  const std::string_view op = name.substr(0, open);
  std::string_view async_suffix = op;
  const bool async = consume_word(async_suffix, "SM80_CP_ASYNC_");
  if (async ? async_suffix.empty() || !std::all_of(async_suffix.begin(), async_suffix.end(), is_word_char)
            : op != "UniversalCopy")
    return std::nullopt;
  std::string_view type = name.substr(open);
  if (!consume_word(type, "<uint") || !type.ends_with("_t>")) return std::nullopt;
  const std::string_view bits = type.substr(0, type.size() - 3);
  if (bits.empty() || !std::all_of(bits.begin(), bits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  if (async && !store) {
    why = "cp.async writes shared memory: give it as a store (swizzle-search --write)";
    return std::nullopt;
  }
  const auto found = find_access(fmt::format("{}{}", async || store ? "st" : "ld", bits));
  if (!found) why = fmt::format("the bank model has no {}-bit shared-memory access", bits);
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
