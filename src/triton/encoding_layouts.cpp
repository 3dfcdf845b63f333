// Each Triton encoding's linear layout for a tensor shape, derived the way
// Triton 3.6 derives it (its LinearLayoutConversions), so that the bases come
// out in Triton's order, broadcasts and repetitions included.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <numeric>

#include "attribute.hpp"
#include "layout_text.hpp"
#include "layoutx/integer.hpp"
#include "layoutx/triton_encoding.hpp"

namespace layoutx::triton {

namespace {

using Shape = std::vector<std::int64_t>;

// Parameters larger than this are no GPU layout and would only overflow.
constexpr std::int64_t kMaxExtent = std::int64_t{1} << 24;

// The fields of one attribute, each read once and checked.
class Fields {
 public:
  explicit Fields(const Attribute& a) : a_(a) {}

  const AttributeValue* find(std::string_view key) const {
    for (const auto& [k, v] : a_.fields)
      if (k == key) return &v;
    for (const auto& [k, v] : a_.trailing)
      if (k == key) return &v;
    return nullptr;
  }

  const AttributeValue& need(std::string_view key) const {
    if (const auto* v = find(key)) return *v;
    throw TextError(fmt::format("#ttg.{} needs the field '{}'", a_.name, key), a_.at);
  }

  std::int64_t integer(std::string_view key) const { return as_integer(need(key), key); }

  std::int64_t integer_or(std::string_view key, std::int64_t otherwise) const {
    const auto* v = find(key);
    return v ? as_integer(*v, key) : otherwise;
  }

  bool boolean_or(std::string_view key, bool otherwise) const {
    const auto* v = find(key);
    if (!v) return otherwise;
    if (v->kind != AttributeValue::Kind::Boolean)
      throw TextError(fmt::format("'{}' must be true or false", key), v->at);
    return v->boolean;
  }

  Shape integers(std::string_view key) const {
    const auto& v = need(key);
    if (v.kind != AttributeValue::Kind::List)
      throw TextError(fmt::format("'{}' must be a list of integers", key), v.at);
    Shape out;
    for (const auto& e : v.list) out.push_back(as_integer(e, key));
    return out;
  }

  // A list of powers of two, one per tensor dimension.
  Shape extents(std::string_view key, std::size_t rank) const {
    Shape out = integers(key);
    const auto& v = need(key);
    if (out.size() != rank)
      throw TextError(fmt::format("'{}' has {} entries for a rank-{} tensor", key, out.size(), rank), v.at);
    for (std::size_t i = 0; i < out.size(); ++i)
      if (!is_power_of_two(out[i]) || out[i] > kMaxExtent)
        throw TextError(fmt::format("'{}' entries must be powers of two (at most {}), got {}", key, kMaxExtent, out[i]),
                        v.list[i].at);
    return out;
  }

  // A permutation of 0..rank-1.
  std::vector<int> order(std::string_view key, std::size_t rank) const {
    const Shape raw = integers(key);
    const auto& v = need(key);
    std::vector<int> out;
    std::vector<bool> seen(rank, false);
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] < 0 || static_cast<std::size_t>(raw[i]) >= rank || seen[static_cast<std::size_t>(raw[i])])
        throw TextError(fmt::format("'{}' must be a permutation of 0..{}", key, rank - 1), v.list[i].at);
      seen[static_cast<std::size_t>(raw[i])] = true;
      out.push_back(static_cast<int>(raw[i]));
    }
    if (out.size() != rank)
      throw TextError(fmt::format("'{}' has {} entries for a rank-{} tensor", key, out.size(), rank), v.at);
    return out;
  }

  const Attribute& nested(std::string_view key) const {
    const auto& v = need(key);
    if (v.kind != AttributeValue::Kind::Nested) throw TextError(fmt::format("'{}' must be an attribute", key), v.at);
    return v.nested.front();
  }

  std::vector<Basis> bases(std::string_view key) const {
    const auto* v = find(key);
    std::vector<Basis> out;
    if (!v) return out;
    if (v->kind != AttributeValue::Kind::List) throw TextError(fmt::format("'{}' must be a list of bases", key), v->at);
    for (const auto& b : v->list) {
      if (b.kind != AttributeValue::Kind::List) throw TextError("a basis must be a list of integers", b.at);
      Basis basis;
      for (const auto& e : b.list) {
        const std::int64_t x = as_integer(e, key);
        if (x < 0 || x > kMaxExtent)
          throw TextError(fmt::format("a basis coordinate must be in 0..{}", kMaxExtent), e.at);
        basis.push_back(x);
      }
      out.push_back(std::move(basis));
    }
    return out;
  }

  bool has(std::string_view key) const { return find(key) != nullptr; }

  // Refuses fields this encoding does not have.
  void only(std::initializer_list<std::string_view> known) const {
    for (const auto& [k, v] : a_.fields) check_known(k, v, known);
    for (const auto& [k, v] : a_.trailing) check_known(k, v, known);
  }

 private:
  const Attribute& a_;

  static std::int64_t as_integer(const AttributeValue& v, std::string_view key) {
    if (v.kind != AttributeValue::Kind::Integer) throw TextError(fmt::format("'{}' must be an integer", key), v.at);
    return v.integer;
  }

  void check_known(const std::string& k, const AttributeValue& v, std::initializer_list<std::string_view> known) const {
    if (std::find(known.begin(), known.end(), k) == known.end())
      throw TextError(fmt::format("#ttg.{} has no field '{}'", a_.name, k), v.at);
  }
};

std::vector<int> matrix_order(int rank, bool row_major) {
  std::vector<int> order(static_cast<std::size_t>(rank));
  std::iota(order.rbegin(), order.rend(), 0);
  if (!row_major && rank >= 2) std::swap(order[0], order[1]);
  return order;
}

std::vector<int> dot_operand_order(int op_idx, int rank, bool k_contiguous) {
  return matrix_order(rank, (op_idx != 0) != k_contiguous);
}

std::vector<std::string> out_names(const LinearLayout& l) {
  std::vector<std::string> names;
  for (const auto& o : l.outputs()) names.push_back(o.name);
  return names;
}

std::vector<std::string> permuted_dims(int rank, const std::vector<int>& order) {
  const auto names = standard_out_dims(rank);
  std::vector<std::string> out;
  for (int d : order) out.push_back(names[static_cast<std::size_t>(d)]);
  return out;
}

// Along CTAOrder (minor first) each dimension is split among CTASplitNum
// CTAs, and the other CTAsPerCGA / CTASplitNum CTAs hold copies.
LinearLayout cga_from_split(const Fields& f, std::size_t rank) {
  const Shape ctas = f.extents("CTAsPerCGA", rank);
  const Shape split = f.extents("CTASplitNum", rank);
  const auto order = f.order("CTAOrder", rank);
  const auto names = standard_out_dims(static_cast<int>(rank));
  LinearLayout l;
  for (int d : order) {
    const auto i = static_cast<std::size_t>(d);
    if (ctas[i] % split[i] != 0)
      throw TextError(
          fmt::format("CTAsPerCGA[{}] = {} is not a multiple of CTASplitNum[{}] = {}", d, ctas[i], d, split[i]),
          f.need("CTASplitNum").list[i].at);
    l = l * LinearLayout::identity_1d(split[i], "block", names[i]) *
        LinearLayout::zeros_1d(ctas[i] / split[i], "block", names[i]);
  }
  return l.transpose_outs(names);
}

// The block -> tensor coordinate map of a layout's CTAs (its cluster, CGA):
// Triton 3.6 prints `CGALayout = [[...], ...]`, one block basis per CTA bit,
// and omits it for one CTA; earlier Triton printed CTAsPerCGA, CTASplitNum and
// CTAOrder.
LinearLayout cga_layout(const Fields& f, std::size_t rank) {
  const auto names = standard_out_dims(static_cast<int>(rank));
  if (f.has("CGALayout")) {
    if (f.has("CTAsPerCGA") || f.has("CTASplitNum") || f.has("CTAOrder"))
      throw TextError("give CGALayout or CTAsPerCGA/CTASplitNum/CTAOrder, not both", f.need("CGALayout").at);
    std::vector<Basis> bases = f.bases("CGALayout");
    if (bases.size() > 8) throw TextError("CGALayout has more than 8 bases (256 CTAs)", f.need("CGALayout").at);
    for (std::size_t k = 0; k < bases.size(); ++k) {
      if (bases[k].size() != rank)
        throw TextError(fmt::format("a CGALayout basis needs {} coordinates for a rank-{} tensor", rank, rank),
                        f.need("CGALayout").list[k].at);
      for (auto x : bases[k])
        if (x != 0 && !is_power_of_two(x))
          throw TextError("CGALayout coordinates must be 0 or powers of two", f.need("CGALayout").list[k].at);
    }
    return LinearLayout::inferred({{"block", std::move(bases)}}, names);
  }
  if (f.has("CTAsPerCGA") || f.has("CTASplitNum") || f.has("CTAOrder")) return cga_from_split(f, rank);
  std::vector<OutputDim> unit;
  for (const auto& n : names) unit.push_back({n, 1});
  return LinearLayout({{"block", {}}}, unit);
}

// A dot operand's CTAs: the parent's, except that CTAs apart along K hold
// copies (each CTA needs the whole K extent of its operand).
LinearLayout cga_of_operand(const LinearLayout& parent_cga, int k_dim) {
  std::vector<InputDim> ins = parent_cga.inputs();
  for (auto& in : ins)
    for (auto& b : in.bases) b[static_cast<std::size_t>(k_dim)] = 0;
  return LinearLayout::inferred(std::move(ins), out_names(parent_cga));
}

// The shape one CTA holds: the tensor divided among the CTAs that split it.
Shape shape_per_cta(const LinearLayout& cga, const Shape& shape) {
  const LinearLayout fitted = ensure_not_larger(cga, shape);
  Shape out = shape;
  for (std::size_t d = 0; d < shape.size(); ++d)
    out[d] = std::max<std::int64_t>(1, shape[d] / fitted.output_size(fmt::format("dim{}", d)));
  return out;
}

// One CTA's layout grown or cut to its part of the shape, then the CTAs
// (the block dimension) tiling the shape.
LinearLayout combine_with_shape(LinearLayout cta, const LinearLayout& cga, const Shape& shape) {
  const LinearLayout blocks = ensure_not_larger(cga, shape).transpose_outs(out_names(cta));
  Shape per_cta(shape.size(), 1);
  for (std::size_t d = 0; d < shape.size(); ++d)
    per_cta[d] = std::max<std::int64_t>(1, shape[d] / blocks.output_size(fmt::format("dim{}", d)));
  cta = ensure_not_smaller(cta, per_cta);
  cta = ensure_not_larger(cta, per_cta);
  return (cta * blocks).transpose_outs(standard_out_dims(static_cast<int>(shape.size())));
}

// For dot operands: warps (or lanes) repeat the operand along K.
LinearLayout broadcast_along_k(const Shape& extents, const std::vector<int>& order, int k_dim, std::string_view in) {
  const auto names = standard_out_dims(static_cast<int>(extents.size()));
  LinearLayout l;
  for (int d : order) {
    const auto e = extents[static_cast<std::size_t>(d)];
    const auto& out = names[static_cast<std::size_t>(d)];
    l = l * (d == k_dim ? LinearLayout::zeros_1d(e, in, out) : LinearLayout::identity_1d(e, in, out));
  }
  return l;
}

// The register/lane pattern of an mma.sync tile: kWidth registers and 4
// lanes along the inner dimension, 8 lanes along the outer, then repeats.
LinearLayout mma_tile(const Shape& tile, std::int64_t k_width, const std::vector<int>& order,
                      const std::vector<int>& rep_order, std::size_t at) {
  const int rank = static_cast<int>(rep_order.size());
  const auto names = standard_out_dims(rank);
  LinearLayout l = identity_standard_nd("register", Shape(static_cast<std::size_t>(rank), 1), rep_order);
  const auto inner = static_cast<std::size_t>(order[0]), outer = static_cast<std::size_t>(order[1]);
  const std::int64_t m = tile[outer], n = tile[inner];
  if (m % 8 != 0 || n % (k_width * 4) != 0)
    throw TextError(
        fmt::format("an MMA tile of {}x{} does not hold 8 rows and kWidth*4 = {} columns", m, n, k_width * 4), at);
  return l * LinearLayout::identity_1d(k_width, "register", names[inner]) *
         LinearLayout::identity_1d(4, "lane", names[inner]) * LinearLayout::identity_1d(8, "lane", names[outer]) *
         LinearLayout::identity_1d(m / 8, "register", names[outer]) *
         LinearLayout::identity_1d(n / (k_width * 4), "register", names[inner]);
}

LinearLayout distributed(const Attribute& a, const Shape& shape);

LinearLayout blocked(const Attribute& a, const Shape& shape) {
  const Fields f(a);
  f.only({"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order", "CGALayout", "CTAsPerCGA", "CTASplitNum",
          "CTAOrder"});
  const auto rank = shape.size();
  const auto order = f.order("order", rank);
  const LinearLayout cta = identity_standard_nd("register", f.extents("sizePerThread", rank), order) *
                           identity_standard_nd("lane", f.extents("threadsPerWarp", rank), order) *
                           identity_standard_nd("warp", f.extents("warpsPerCTA", rank), order);
  return combine_with_shape(cta, cga_layout(f, rank), shape);
}

struct Mma {
  bool hopper = false;
  Shape warps;
  Shape instr;
  LinearLayout cga;
};

Mma read_mma(const Attribute& a, std::size_t rank) {
  const Fields f(a);
  f.only({"versionMajor", "versionMinor", "warpsPerCTA", "instrShape", "CGALayout", "CTAsPerCGA", "CTASplitNum",
          "CTAOrder"});
  const auto major = f.integer("versionMajor");
  if (major != 2 && major != 3)
    throw TextError(fmt::format("#ttg.nvidia_mma versionMajor {} is not supported (2: Ampere, 3: Hopper)", major),
                    f.need("versionMajor").at);
  Mma m{major == 3, f.extents("warpsPerCTA", rank), f.integers("instrShape"), cga_layout(f, rank)};
  const std::size_t want = m.hopper ? 3 : rank;
  if (m.instr.size() != want)
    throw TextError(fmt::format("instrShape needs {} entries here, got {}", want, m.instr.size()),
                    f.need("instrShape").at);
  for (auto e : m.instr)
    if (!is_power_of_two(e) || e > 256)
      throw TextError("instrShape entries must be powers of two up to 256", f.need("instrShape").at);
  if (m.hopper && rank != 2) throw TextError("a Hopper MMA layout is for rank-2 tensors", a.at);
  if (rank < 2) throw TextError("an MMA layout is for tensors of rank 2 or more", a.at);
  return m;
}

LinearLayout nvidia_mma(const Attribute& a, const Shape& shape) {
  const int rank = static_cast<int>(shape.size());
  const Mma m = read_mma(a, shape.size());
  const Shape tile = m.hopper ? Shape{m.instr[0], m.instr[1]} : m.instr;
  const auto order = matrix_order(rank, true);
  LinearLayout cta = mma_tile(tile, 2, order, order, a.at);
  cta = cta * identity_standard_nd("warp", m.warps, matrix_order(rank, !m.hopper)).transpose_outs(out_names(cta));
  return combine_with_shape(cta, m.cga, shape);
}

LinearLayout nvidia_dot(const Attribute& parent, std::int64_t op_idx, std::int64_t k_width, const Shape& shape,
                        std::size_t at) {
  const int rank = static_cast<int>(shape.size());
  const Mma m = read_mma(parent, shape.size());
  if (k_width <= 0 || !is_power_of_two(k_width) || k_width > 64)
    throw TextError("kWidth must be a power of two (1 to 64) for an MMA operand", at);
  const bool is_a = op_idx == 0;
  if (!is_a && m.hopper)
    throw TextError("a Hopper MMA reads operand B from shared memory: opIdx = 1 has no register layout", at);
  Shape tile(shape.size(), 1);
  tile[shape.size() - 2] = is_a ? 16 : k_width * 8;
  tile[shape.size() - 1] = is_a ? k_width * 8 : 8;
  const auto order = dot_operand_order(static_cast<int>(op_idx), rank, true);
  LinearLayout cta = mma_tile(tile, k_width, order, order, at);
  const int k_dim = is_a ? rank - 1 : rank - 2;
  cta = cta * broadcast_along_k(m.warps, matrix_order(rank, !m.hopper), k_dim, "warp").transpose_outs(out_names(cta));
  return combine_with_shape(cta, cga_of_operand(m.cga, k_dim), shape);
}

LinearLayout fma_dot(const Attribute& parent, std::int64_t op_idx, const Shape& shape) {
  const Fields f(parent);
  f.only({"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order", "CGALayout", "CTAsPerCGA", "CTASplitNum",
          "CTAOrder"});
  const auto rank = shape.size();
  const auto order = f.order("order", rank);
  Shape per_thread = f.extents("sizePerThread", rank);
  const int k_dim = static_cast<int>(op_idx == 0 ? rank - 1 : rank - 2);
  per_thread[static_cast<std::size_t>(k_dim)] = shape[static_cast<std::size_t>(k_dim)];
  const auto rep = permuted_dims(static_cast<int>(rank), order);
  const LinearLayout cta =
      identity_standard_nd("register", per_thread, order).transpose_outs(rep) *
      broadcast_along_k(f.extents("threadsPerWarp", rank), order, k_dim, "lane").transpose_outs(rep) *
      broadcast_along_k(f.extents("warpsPerCTA", rank), order, k_dim, "warp").transpose_outs(rep);
  return combine_with_shape(cta, cga_of_operand(cga_layout(f, rank), k_dim), shape);
}

LinearLayout dot_operand(const Attribute& a, const Shape& shape) {
  const Fields f(a);
  f.only({"opIdx", "parent", "kWidth"});
  const auto op_idx = f.integer("opIdx");
  if (op_idx != 0 && op_idx != 1) throw TextError("opIdx must be 0 (operand A) or 1 (operand B)", f.need("opIdx").at);
  if (shape.size() < 2) throw TextError("a dot operand is a tensor of rank 2 or more", a.at);
  const Attribute& parent = f.nested("parent");
  if (parent.name == "blocked") return fma_dot(parent, op_idx, shape);
  if (parent.name == "nvidia_mma") return nvidia_dot(parent, op_idx, f.integer_or("kWidth", 0), shape, a.at);
  throw TextError(fmt::format("a dot operand of #ttg.{} is not supported (blocked or nvidia_mma)", parent.name),
                  parent.at);
}

LinearLayout slice(const Attribute& a, const Shape& shape) {
  const Fields f(a);
  f.only({"dim", "parent"});
  const auto dim = f.integer("dim");
  if (dim < 0 || static_cast<std::size_t>(dim) > shape.size())
    throw TextError(fmt::format("slice dim {} is outside the parent's {} dimensions", dim, shape.size() + 1),
                    f.need("dim").at);
  Shape parent_shape = shape;
  parent_shape.insert(parent_shape.begin() + dim, 1);
  const LinearLayout removed =
      remove_standard_dim(distributed(f.nested("parent"), parent_shape), static_cast<int>(dim));
  std::vector<InputDim> ins = removed.inputs();
  for (auto& in : ins)
    if (in.name == "register")
      std::erase_if(in.bases,
                    [](const Basis& b) { return std::all_of(b.begin(), b.end(), [](auto v) { return v == 0; }); });
  return LinearLayout::inferred(std::move(ins), out_names(removed));
}

LinearLayout swizzled_shared(const Attribute& a, const Shape& shape) {
  const Fields f(a);
  f.only({"vec", "perPhase", "maxPhase", "order", "CGALayout", "CTAsPerCGA", "CTASplitNum", "CTAOrder"});
  const auto rank = shape.size();
  const auto order = f.order("order", rank);
  const auto vec = f.integer("vec"), per_phase = f.integer("perPhase"), max_phase = f.integer("maxPhase");
  for (const char* k : {"vec", "perPhase", "maxPhase"})
    if (const auto v = f.integer(k); v <= 0 || v > kMaxExtent)
      throw TextError(v <= 0 ? fmt::format("'{}' must be positive, got {}", k, v)
                             : fmt::format("'{}' is {}, past the largest extent layoutx reads, {}", k, v, kMaxExtent),
                      f.need(k).at);
  const auto names = standard_out_dims(static_cast<int>(rank));
  const LinearLayout cga = cga_layout(f, rank);
  const Shape per_cta = shape_per_cta(cga, shape);
  if (rank == 1) return combine_with_shape(LinearLayout::identity_1d(per_cta[0], "offset", "dim0"), cga, shape);
  const auto col = static_cast<std::size_t>(order[0]), row = static_cast<std::size_t>(order[1]);
  const std::int64_t cols = per_cta[col], rows = per_cta[row];
  InputDim offset{"offset", {}};
  for (std::int64_t c = 1; c < cols; c *= 2) offset.bases.push_back({0, c});
  for (std::int64_t r = 1; r < rows; r *= 2) offset.bases.push_back({r, (vec * ((r / per_phase) % max_phase)) % cols});
  LinearLayout cta = LinearLayout::inferred({offset}, {names[row], names[col]});
  for (std::size_t i = 2; i < rank; ++i) {
    const auto d = static_cast<std::size_t>(order[i]);
    cta = cta * LinearLayout::identity_1d(per_cta[d], "offset", names[d]);
  }
  return combine_with_shape(cta, cga, shape);
}

// The layout with its outputs reshaped: each coordinate flattened row-major
// over the old output sizes, then unflattened row-major over `shape`.
LinearLayout reshape_outs(const LinearLayout& l, const Shape& shape) {
  const auto old_names = out_names(l);
  std::vector<InputDim> ins = l.inputs();
  for (auto& in : ins)
    for (auto& b : in.bases) {
      std::int64_t flat = 0;
      for (std::size_t d = 0; d < b.size(); ++d) flat = flat * l.output_size(old_names[d]) + b[d];
      Basis out(shape.size(), 0);
      for (std::size_t d = shape.size(); d-- > 0;) {
        out[d] = flat % shape[d];
        flat /= shape[d];
      }
      b = std::move(out);
    }
  std::vector<OutputDim> outs;
  const auto names = standard_out_dims(static_cast<int>(shape.size()));
  for (std::size_t d = 0; d < shape.size(); ++d) outs.push_back({names[d], shape[d]});
  return LinearLayout(std::move(ins), std::move(outs));
}

// Each basis permuted: coordinate j of the result is coordinate order[j].
LinearLayout permute_coordinates(const LinearLayout& l, const std::vector<int>& order) {
  std::vector<InputDim> ins = l.inputs();
  for (auto& in : ins)
    for (auto& b : in.bases) {
      Basis out;
      for (int i : order) out.push_back(b[static_cast<std::size_t>(i)]);
      b = std::move(out);
    }
  return LinearLayout::inferred(std::move(ins), out_names(l));
}

LinearLayout nvmma_shared(const Attribute& a, const Shape& shape) {
  const Fields f(a);
  f.only({"swizzlingByteWidth", "transposed", "elementBitWidth", "fp4Padded", "rank", "CGALayout", "CTAsPerCGA",
          "CTASplitNum", "CTAOrder"});
  const auto swizzle = f.integer("swizzlingByteWidth");
  const auto bits = f.integer("elementBitWidth");
  const bool transposed = f.boolean_or("transposed", false);
  const bool fp4 = f.boolean_or("fp4Padded", false);
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    throw TextError("swizzlingByteWidth must be 0, 32, 64 or 128", f.need("swizzlingByteWidth").at);
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
    throw TextError("elementBitWidth must be 8, 16, 32 or 64", f.need("elementBitWidth").at);
  const int rank = static_cast<int>(shape.size());
  if (const auto written = f.integer_or("rank", 2); written != rank)
    throw TextError(fmt::format("this #ttg.nvmma_shared is for rank-{} tensors, the shape has rank {}", written, rank),
                    f.has("rank") ? f.need("rank").at : a.at);
  const auto names = standard_out_dims(rank);
  const LinearLayout cga = cga_layout(f, shape.size());
  const Shape per_cta = shape_per_cta(cga, shape);
  // The TMA box: at most 256 per dimension, the contiguous one as wide as the swizzle.
  Shape box = per_cta;
  const auto contig = static_cast<std::size_t>(transposed ? 0 : rank - 1);
  if (fp4) box[contig] *= 2;
  for (auto& e : box) e = std::min<std::int64_t>(e, 256);
  if (swizzle != 0) {
    const std::int64_t width = 8 * swizzle / bits;
    if (box[contig] < width)
      throw TextError(
          fmt::format("a {}-byte swizzle of {}-bit elements needs {} elements along dim{}, the shape has {}", swizzle,
                      bits, width, contig, box[contig]),
          a.at);
    box[contig] = width;
  }
  if (fp4) box[contig] /= 2;
  if (swizzle == 0) {
    LinearLayout l = LinearLayout::identity_1d(box[static_cast<std::size_t>(rank - 1)], "offset", names.back());
    for (int i = rank - 2; i >= 0; --i)
      l = l * LinearLayout::identity_1d(box[static_cast<std::size_t>(i)], "offset", names[static_cast<std::size_t>(i)]);
    return combine_with_shape(ensure_not_smaller(l, per_cta), cga, shape);
  }
  if (rank < 2) throw TextError("a swizzled #ttg.nvmma_shared layout is for tensors of rank 2 or more", a.at);
  // The outer dimensions collapse into rows; the layout is built for that
  // matrix and reshaped back.
  Shape collapsed{1, box.back()};
  for (int i = 0; i + 1 < rank; ++i) collapsed[0] *= box[static_cast<std::size_t>(i)];
  if (transposed) std::swap(collapsed[0], collapsed[1]);
  // One core matrix: 8 rows of the swizzle's width, row r XOR-ed by 16 bytes times its phase.
  const std::int64_t vec = 128 / bits;
  const std::int64_t per_phase = swizzle == 32 ? 4 : swizzle == 64 ? 2 : 1;
  const std::int64_t max_phase = swizzle == 32 ? 2 : swizzle == 64 ? 4 : 8;
  const std::int64_t tile_cols = 8 * std::max<std::int64_t>(16, swizzle) / bits;
  const auto packed = [&](std::int64_t c) { return fp4 ? c / 16 * 8 + c % 8 : c; };
  InputDim offset{"offset", {}};
  for (std::int64_t c = 1; c < tile_cols; c *= 2) offset.bases.push_back({0, packed(c)});
  for (std::int64_t r = 1; r < 8; r *= 2) offset.bases.push_back({r, packed(vec * ((r / per_phase) % max_phase))});
  const LinearLayout tile = LinearLayout::inferred({offset}, {"dim0", "dim1"});
  if (collapsed[1] * (fp4 ? 2 : 1) < tile_cols || collapsed[0] < 8)
    throw TextError(
        fmt::format("the shape is smaller than one {}x{} core matrix of this layout", 8, tile_cols / (fp4 ? 2 : 1)),
        a.at);
  const LinearLayout matrix = ensure_not_smaller(tile, collapsed);
  Shape unflattened = box;
  // Transposed: the contiguous dimension (dim0) is the matrix's columns.
  if (transposed) std::rotate(unflattened.begin(), unflattened.begin() + 1, unflattened.end());
  LinearLayout l = reshape_outs(matrix, unflattened);
  if (transposed) {
    std::vector<int> order{rank - 1};
    for (int i = 0; i + 1 < rank; ++i) order.push_back(i);
    l = permute_coordinates(l, order);
  }
  return combine_with_shape(ensure_not_smaller(l, per_cta), cga, shape);
}

LinearLayout distributed(const Attribute& a, const Shape& shape) {
  if (a.name == "blocked") return blocked(a, shape);
  if (a.name == "nvidia_mma") return nvidia_mma(a, shape);
  if (a.name == "dot_op") return dot_operand(a, shape);
  if (a.name == "slice") return slice(a, shape);
  throw TextError(
      fmt::format("#ttg.{} is not a distributed layout layoutx knows (blocked, nvidia_mma, dot_op, slice)", a.name),
      a.at);
}

LinearLayout written_linear(const Attribute& a, bool shared) {
  const Fields f(a);
  if (shared)
    f.only({"offset", "block", "alignment"});
  else
    f.only({"register", "lane", "warp", "block"});
  std::vector<InputDim> ins;
  std::size_t rank = 0;
  bool known_rank = false;
  for (const char* name : shared ? std::vector<const char*>{"offset", "block"}
                                 : std::vector<const char*>{"register", "lane", "warp", "block"}) {
    InputDim in{name, f.bases(name)};
    for (std::size_t k = 0; k < in.bases.size(); ++k) {
      if (!known_rank) rank = in.bases[k].size(), known_rank = true;
      if (in.bases[k].size() != rank)
        throw TextError(fmt::format("every basis needs {} coordinates", rank), f.need(name).list[k].at);
      if (in.bases.size() > 40) throw TextError("too many bases", f.need(name).at);
    }
    ins.push_back(std::move(in));
  }
  if (!known_rank) throw TextError("a linear layout with no basis has no rank: give at least one basis", a.at);
  return LinearLayout::inferred(std::move(ins), standard_out_dims(static_cast<int>(rank)));
}

void check_shape(const Shape& shape, std::size_t at) {
  if (shape.empty()) throw TextError("a Triton encoding needs the tensor shape (--shape, e.g. --shape 16,32)", at);
  if (shape.size() > 6) throw TextError("tensors of rank above 6 are not supported", at);
  std::int64_t total = 1;
  for (auto e : shape) {
    if (!is_power_of_two(e) || e > kMaxExtent)
      throw TextError(fmt::format("the shape's extents must be powers of two up to {}, got {}", kMaxExtent, e), at);
    total *= e;
    if (total > (std::int64_t{1} << 32)) throw TextError("the shape holds more than 2^32 elements", at);
  }
}

}  // namespace

namespace {

// Whether `text` holds `word`: memchr finds each candidate first letter, where
// string_view::find compares letter by letter. Every line eval reads asks
// this of a CuTe expression first.
bool holds_word(std::string_view text, std::string_view word) {
  const char* at = text.data();
  const char* const end = text.data() + text.size();
  while (static_cast<std::size_t>(end - at) >= word.size()) {
    at = static_cast<const char*>(std::memchr(at, word[0], static_cast<std::size_t>(end - at) - word.size() + 1));
    if (!at) return false;
    if (std::string_view(at, word.size()) == word) return true;
    ++at;
  }
  return false;
}

}  // namespace

bool is_triton_text(std::string_view text) {
  std::size_t start = 0;
  while (start < text.size() &&
         (text[start] == ' ' || text[start] == '\t' || text[start] == '\r' || text[start] == '\n'))
    ++start;
  if (start == text.size()) return false;
  // The first letter decides before any comparison: a CuTe expression pays
  // only for the search of the linear layout's last line.
  const std::string_view rest = text.substr(start);
  if (rest[0] == '#' && starts_attribute(rest)) return true;
  if (rest[0] == '(' && rest.substr(0, 13) == "(empty layout") return true;
  return holds_word(text, "where out dims are:");
}

LinearLayout linear_layout_of(std::string_view text, const std::vector<std::int64_t>& shape) {
  const auto start = text.find_first_not_of(" \t\r\n");
  LinearLayout l;
  bool given_shape = false;
  if (start != std::string_view::npos && starts_attribute(text.substr(start))) {
    const Attribute a = parse_attribute(text);
    if (a.name == "linear" || a.name == "shared_linear") {
      l = written_linear(a, a.name == "shared_linear");
    } else {
      check_shape(shape, a.at);
      given_shape = true;
      if (a.name == "swizzled_shared")
        l = swizzled_shared(a, shape);
      else if (a.name == "nvmma_shared")
        l = nvmma_shared(a, shape);
      else
        l = distributed(a, shape);
    }
  } else {
    l = parse_layout_text(text);
  }
  if (!given_shape) {
    // A linear layout carries its shape: as for --shape, at most 2^32 elements.
    std::int64_t total = 1;
    for (auto e : covered_shape(l)) {
      total *= e;
      if (total > (std::int64_t{1} << 32))
        throw TextError("the linear layout covers more than 2^32 elements",
                        start == std::string_view::npos ? 0 : start);
    }
  }
  if (!given_shape && !shape.empty() && covered_shape(l) != shape)
    throw TextError(fmt::format("the linear layout covers [{}], not the shape [{}] given",
                                fmt::join(covered_shape(l), ", "), fmt::join(shape, ", ")),
                    start == std::string_view::npos ? 0 : start);
  return l;
}

bool is_shared(const LinearLayout& l) {
  return std::any_of(l.inputs().begin(), l.inputs().end(), [](const InputDim& d) { return d.name == "offset"; });
}

std::vector<std::int64_t> covered_shape(const LinearLayout& l) {
  std::vector<std::int64_t> out;
  for (const auto& name : standard_out_dims(static_cast<int>(l.outputs().size()))) out.push_back(l.output_size(name));
  return out;
}

}  // namespace layoutx::triton
