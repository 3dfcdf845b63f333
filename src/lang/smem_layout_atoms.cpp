#include "layoutx/smem_layout_atoms.hpp"

#include <fmt/format.h>

#include <array>

#include "layoutx/notation.hpp"

namespace layoutx {

namespace {

struct AtomName {
  bool mn_major = false;   // Layout_MN_... (else Layout_K_...)
  int swizzle_bits = 0;    // INTER 0, SW32 1, SW64 2, SW128 3
  bool sw128_32b = false;  // UMMA::Layout_MN_SW128_32B_...
  bool sparse = false;     // ..._SpAtom<T,S>
};

constexpr std::array<std::string_view, 4> kSwizzleWords{"INTER", "SW32", "SW64", "SW128"};

// "GMMA::Layout_K_SW128_Atom" (cute::, SM90::GMMA::, UMMA:: too) -> its parts.
std::optional<AtomName> parse_name(std::string_view name) {
  if (name.substr(0, 6) == "cute::") name.remove_prefix(6);
  bool umma = false;
  if (name.substr(0, 12) == "SM90::GMMA::") {
    name.remove_prefix(12);
  } else if (name.substr(0, 6) == "GMMA::") {
    name.remove_prefix(6);
  } else if (name.substr(0, 6) == "UMMA::") {
    name.remove_prefix(6);
    umma = true;
  } else {
    return std::nullopt;
  }
  AtomName a;
  if (name.substr(0, 10) == "Layout_MN_") {
    a.mn_major = true;
    name.remove_prefix(10);
  } else if (name.substr(0, 9) == "Layout_K_") {
    name.remove_prefix(9);
  } else {
    return std::nullopt;
  }
  if (name == "SW128_32B_Atom" || name == "SW128_32B_SpAtom") {
    if (!umma || !a.mn_major) return std::nullopt;
    a.sw128_32b = true;
    a.sparse = name.ends_with("SpAtom");
    return a;
  }
  for (int b = 0; b < 4; ++b) {
    const std::string word(kSwizzleWords[b]);
    if (name == word + "_Atom" || name == word + "_SpAtom") {
      a.swizzle_bits = b;
      a.sparse = name.ends_with("SpAtom");
      return a;
    }
  }
  return std::nullopt;
}

// The atom in bits: Sw<B,4,3> o smem_ptr[1b] o (8,W):(W,1) for K-major, its
// transpose for MN-major, with W = 128 << B bits (one swizzle row);
// Sw<2,5,2> o smem_ptr[1b] o (1024,4):(1,1024) for SW128_32B.
ComposedLayout atom_bits(const AtomName& a) {
  if (a.sw128_32b)
    return with_pointer_flag(Swizzle{2, 5, 2}, SmemPtrFlag{1, 0},
                             make_layout(IntTuple::tuple({static_int(1024), static_int(4)}),
                                         IntTuple::tuple({static_int(1), static_int(1024)})));
  const Int w = static_int(std::int64_t{128} << a.swizzle_bits);
  const Layout l = a.mn_major ? make_layout(IntTuple::tuple({w, static_int(8)}), IntTuple::tuple({static_int(1), w}))
                              : make_layout(IntTuple::tuple({static_int(8), w}), IntTuple::tuple({w, static_int(1)}));
  return with_pointer_flag(Swizzle{a.swizzle_bits, 4, 3}, SmemPtrFlag{1, 0}, l);
}

}  // namespace

bool is_smem_layout_atom(std::string_view name) { return parse_name(name).has_value(); }

ComposedLayout smem_layout_atom(std::string_view name, std::int64_t bits, std::optional<std::int64_t> sparsity) {
  const auto a = parse_name(name);
  if (!a) throw Error(fmt::format("{} is no canonical shared-memory layout atom", name));
  if (a->sparse != sparsity.has_value())
    throw Error(a->sparse ? fmt::format("{}<T,S> takes a value type and a sparsity", name)
                          : fmt::format("{}<T> takes one value type", name));
  Diagnostics quiet;  // CuTe's own atoms: their static layouts raise no warning
  const ComposedLayout typed = upcast(atom_bits(*a), bits, quiet);
  if (!a->sparse) return typed;
  if (*sparsity <= 0 || *sparsity > 1024)
    throw Error(fmt::format("{}<T,{}>: the sparsity must be a small positive integer", name, *sparsity));
  // CuTe: blocked_product(Layout<Shape<_1,Int<S>>>{}, Layout_..._Atom<T>{}.layout_b()) behind the sparse flag.
  const Layout spread =
      blocked_product(make_layout(IntTuple::tuple({static_int(1), static_int(*sparsity)})), typed.layout, quiet);
  return with_pointer_flag(typed.swizzle, SmemPtrFlag{bits, *sparsity}, spread);
}

const std::vector<std::string>& smem_layout_atom_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const char* ns : {"GMMA::", "UMMA::"}) {
      for (const char* major : {"K", "MN"})
        for (auto word : kSwizzleWords) out.push_back(fmt::format("{}Layout_{}_{}_Atom", ns, major, word));
      if (std::string_view(ns) == "UMMA::") out.push_back("UMMA::Layout_MN_SW128_32B_Atom");
    }
    for (const char* ns : {"GMMA::", "UMMA::"}) {
      for (const char* major : {"K", "MN"})
        for (auto word : kSwizzleWords) out.push_back(fmt::format("{}Layout_{}_{}_SpAtom", ns, major, word));
      if (std::string_view(ns) == "UMMA::") out.push_back("UMMA::Layout_MN_SW128_32B_SpAtom");
    }
    return out;
  }();
  return names;
}

}  // namespace layoutx
