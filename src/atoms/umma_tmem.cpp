// UMMA::tmem_frg::make for the atom's own tile (one MMA along M and N): the
// allocation atom of the data paths the instruction uses (all 128 lanes, or
// half subpartitions for M = 64 on one SM, or the 2x2 split for M = 64 per SM
// on two), in "virtual" addresses (lane stride 1, column stride 128), then
// re-strided to TMEM addresses (lane stride TMEM::DP<T>, column stride
// storage bits / value bits).
#include "layoutx/umma_tmem.hpp"

#include <string>
#include <vector>

#include "layoutx/algebra.hpp"

namespace layoutx {

namespace {

// sizeof_bits of the value types UMMA atoms take (complex<T>: twice T).
int umma_type_bits(const std::string& type) {
  if (type.rfind("complex<", 0) == 0) return 2 * umma_type_bits(type.substr(8, type.size() - 9));
  if (type == "half_t" || type == "bfloat16_t") return 16;
  if (type == "tfloat32_t" || type == "float" || type == "int32_t" || type == "uint32_t") return 32;
  if (type == "int8_t" || type == "uint8_t" || type.rfind("float_e4m3", 0) == 0 || type.rfind("float_e5m2", 0) == 0)
    return 8;
  if (type == "float_e2m3_t" || type == "float_e3m2_t") return 6;
  if (type == "float_e2m1_t") return 4;
  return 0;
}

// The template arguments of a catalogue name, split at top-level commas.
std::vector<std::string> template_arguments(const std::string& name) {
  std::vector<std::string> args;
  const auto open = name.find('<');
  if (open == std::string::npos) return args;
  int depth = 0;
  std::string current;
  for (std::size_t i = open + 1; i + 1 < name.size(); ++i) {
    const char c = name[i];
    if (c == ',' && depth == 0) {
      args.push_back(current);
      current.clear();
      continue;
    }
    depth += c == '<' ? 1 : c == '>' ? -1 : 0;
    current += c;
  }
  args.push_back(current);
  return args;
}

Layout flat_layout_of(std::vector<std::int64_t> shape, std::vector<std::int64_t> stride) {
  std::vector<IntTuple> s, d;
  for (auto x : shape) s.emplace_back(static_int(x));
  for (auto x : stride) d.emplace_back(static_int(x));
  return {IntTuple(s), IntTuple(d)};
}

// tmem_frg<Value, Storage, N_SM, Alloc>::make(((m,n),_1,_1)).
Layout tmem_fragment(int value_bits, int storage_bits, int sms, bool duplicated, std::int64_t m, std::int64_t n,
                     Diagnostics& diag) {
  Layout logical;  // (M,N) -> virtual address
  if (m == 128 || (sms == 2 && m == 64 && duplicated)) {
    logical = flat_layout_of({128, n}, {1, 128});
  } else if (sms == 1 && m == 64) {
    logical = {IntTuple::tuple({IntTuple::tuple({static_int(16), static_int(4)}), static_int(n)}),
               IntTuple::tuple({IntTuple::tuple({static_int(1), static_int(32)}), static_int(128)})};
  } else if (sms == 2 && m == 64) {
    logical = {IntTuple::tuple({static_int(64), IntTuple::tuple({static_int(n / 2), static_int(2)})}),
               IntTuple::tuple({static_int(1), IntTuple::tuple({static_int(128), static_int(64)})})};
  } else if (sms == 2 && m == 32) {
    logical = {IntTuple::tuple({static_int(32), IntTuple::tuple({static_int(n / 4), static_int(4)})}),
               IntTuple::tuple({static_int(1), IntTuple::tuple({static_int(128), static_int(32)})})};
  } else {
    throw Error("UMMA M-mode size should be 64 or 128 (32, 64 or 128 per SM on two SMs)");
  }
  // TMEM::DP<T>: a lane is 2^16 addresses of 32-bit columns, more for narrower values.
  const std::int64_t dp = (std::int64_t(1) << 16) * 32 / value_bits;
  const Layout restride = flat_layout_of({128, 16384}, {dp, storage_bits / value_bits});
  const Layout tmem = composition(restride, logical, diag);
  return {IntTuple::tuple({tmem.shape, static_int(1), static_int(1)}),
          IntTuple::tuple({tmem.stride, static_int(0), static_int(0)})};
}

// The (M,N) or (M,K) extent one CTA holds: the value mode of the atom's layout.
std::pair<std::int64_t, std::int64_t> per_cta_extent(const Layout& tv) {
  const IntTuple& values = tv.shape[1];
  return {product(values[0]).value, product(values[1]).value};
}

}  // namespace

std::optional<UmmaTmem> umma_tmem_layouts(const Atom& atom, Diagnostics& diag) {
  if (atom.kind != Atom::Kind::Mma || atom.name.rfind("SM100_MMA_", 0) != 0) return std::nullopt;
  const std::vector<std::string> args = template_arguments(atom.name);
  const bool interleaved = atom.name.find("_INTERLEAVED_") != std::string::npos;
  // The interleaved complex atoms fix their types: complex<tfloat32_t> operands, a float accumulator.
  const int a_bits = interleaved ? 64 : args.size() >= 3 ? umma_type_bits(args[0]) : 0;
  const int c_bits = interleaved ? 32 : args.size() >= 3 ? umma_type_bits(args[2]) : 0;
  if (a_bits == 0 || c_bits == 0) return std::nullopt;
  const int sms = atom.name.find("_2x1SM_") != std::string::npos ? 2 : 1;
  const auto [m, n] = per_cta_extent(atom.mma.c);
  UmmaTmem t;
  t.accumulator = tmem_fragment(c_bits, 32, sms, false, m, n, diag);
  if (atom.name.find("_TS") != std::string::npos) {
    const auto [am, ak] = per_cta_extent(atom.mma.a);
    t.a = tmem_fragment(a_bits, a_bits, sms, sms == 2, am, ak, diag);
  }
  return t;
}

}  // namespace layoutx
