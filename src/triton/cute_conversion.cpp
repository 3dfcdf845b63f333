#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "layoutx/triton_cute.hpp"
#include "layoutx/algebra.hpp"
#include "layoutx/error.hpp"
#include "layoutx/f2_bases.hpp"

namespace layoutx::triton {

namespace {

using Shape = std::vector<std::int64_t>;

int log2_of(std::int64_t v) { return std::countr_zero(static_cast<std::uint64_t>(v)); }

std::int64_t total(const Shape& shape) {
  std::int64_t n = 1;
  for (auto e : shape) n *= e;
  return n;
}

// Column-major index of a coordinate (powers of two: bits side by side).
std::int64_t index_of(const Basis& coord, const Shape& shape) {
  std::int64_t idx = 0, scale = 1;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    idx += coord[d] * scale;
    scale *= shape[d];
  }
  return idx;
}

Basis coordinate_of(std::int64_t idx, const Shape& shape) {
  Basis c;
  for (auto e : shape) {
    c.push_back(idx % e);
    idx /= e;
  }
  return c;
}

// One CuTe mode from per-bit strides: runs where the next stride doubles merge.
std::pair<IntTuple, IntTuple> mode_of(const std::vector<std::int64_t>& bit_strides) {
  std::vector<IntTuple> shapes, strides;
  std::int64_t run = 1, stride = 0;
  bool open = false;
  for (auto s : bit_strides) {
    if (open && s == stride * run) {
      run *= 2;
      continue;
    }
    if (open) shapes.push_back(static_int(run)), strides.push_back(static_int(stride));
    run = 2, stride = s, open = true;
  }
  if (open) shapes.push_back(static_int(run)), strides.push_back(static_int(stride));
  if (shapes.empty()) return {static_int(1), static_int(0)};
  if (shapes.size() == 1) return {shapes[0], strides[0]};
  return {IntTuple(shapes), IntTuple(strides)};
}

// Per-bit images -> Sw<B,M,S> o layout with the given modes (bit lists).
// Each image is its leading bit (the layout) XOR what the swizzle adds.
AnyLayout with_swizzle(const std::vector<std::vector<std::int64_t>>& modes, bool single_mode) {
  std::vector<std::vector<std::int64_t>> leading = modes;
  int shift = 0, lo = 64, hi = -1;
  bool any = false;
  for (auto& mode : leading)
    for (auto& image : mode) {
      if (image == 0 || std::has_single_bit(static_cast<std::uint64_t>(image))) continue;
      const int top = 63 - std::countl_zero(static_cast<std::uint64_t>(image));
      const std::int64_t extra = image ^ (std::int64_t{1} << top);
      if (!std::has_single_bit(static_cast<std::uint64_t>(extra)))
        throw Error(fmt::format("a basis image {} XORs more than one bit: no single CuTe swizzle gives it", image));
      const int s = top - log2_of(extra);
      if (any && s != shift)
        throw Error("the bases XOR bits at different distances: no single CuTe swizzle gives them");
      shift = s, any = true;
      lo = std::min(lo, top), hi = std::max(hi, top);
      image = std::int64_t{1} << top;
    }
  Swizzle sw = Swizzle::make(0, 0, 0);
  if (any) {
    const int bits = hi - lo + 1, base = lo - shift;
    if (base < 0 || shift < bits) throw Error("the bases' XOR pattern is no CuTe swizzle");
    sw = Swizzle::make(bits, base, shift);
    // The swizzle acts on every offset: each image whose leading bit is in
    // the mask's range must carry the XOR, and none outside it.
    for (std::size_t m = 0; m < modes.size(); ++m)
      for (std::size_t k = 0; k < modes[m].size(); ++k)
        if (sw.apply(leading[m][k]) != modes[m][k])
          throw Error("the bases' XOR pattern is no single CuTe swizzle (a bit in the swizzle's range is not XOR-ed)");
  }
  std::vector<IntTuple> shapes, strides;
  for (const auto& mode : leading) {
    auto [s, d] = mode_of(mode);
    shapes.push_back(s), strides.push_back(d);
  }
  Layout l = single_mode ? make_layout(shapes[0], strides[0]) : make_layout(IntTuple(shapes), IntTuple(strides));
  if (!any) return l;
  return compose(sw, static_int(0), l);
}

std::vector<std::int64_t> images(const LinearLayout& l, std::string_view in, const Shape& shape) {
  std::vector<std::int64_t> out;
  for (const auto& b : l.bases(in)) out.push_back(index_of(b, shape));
  return out;
}

// Solves A x = e_j over F2 for every coordinate bit: the inverse of a bijective offset map.
std::vector<std::int64_t> inverse_images(const std::vector<std::int64_t>& forward, int bits) {
  // Rows: offset bit k -> coordinate image forward[k]; invert by elimination.
  std::vector<std::uint64_t> image(forward.begin(), forward.end()), source;
  for (std::size_t k = 0; k < forward.size(); ++k) source.push_back(std::uint64_t{1} << k);
  std::vector<std::int64_t> inverse(static_cast<std::size_t>(bits), -1);
  std::size_t row = 0;
  for (int bit = 0; bit < bits; ++bit) {
    std::size_t pivot = row;
    while (pivot < image.size() && !((image[pivot] >> bit) & 1)) ++pivot;
    if (pivot == image.size())
      throw Error(fmt::format("no offset reaches coordinate bit {}: the shared layout is not a bijection", bit));
    std::swap(image[pivot], image[row]), std::swap(source[pivot], source[row]);
    for (std::size_t r = 0; r < image.size(); ++r)
      if (r != row && ((image[r] >> bit) & 1)) image[r] ^= image[row], source[r] ^= source[row];
    ++row;
  }
  if (row != forward.size()) throw Error("two offsets reach the same element: the shared layout is not a bijection");
  for (std::size_t r = 0; r < image.size(); ++r)
    inverse[static_cast<std::size_t>(log2_of(static_cast<std::int64_t>(image[r])))] =
        static_cast<std::int64_t>(source[r]);
  return inverse;
}

}  // namespace

AnyLayout to_cute(const LinearLayout& l) {
  Shape shape;
  for (const auto& name : standard_out_dims(static_cast<int>(l.outputs().size()))) shape.push_back(l.output_size(name));
  const bool shared =
      std::any_of(l.inputs().begin(), l.inputs().end(), [](const InputDim& d) { return d.name == "offset"; });
  if (shared) {
    if (!l.bases("block").empty())
      throw Error(
          "a shared layout over more than one CTA (block bases) has no CuTe smem form: each CTA holds its own part");
    const auto forward = images(l, "offset", shape);
    const int bits = log2_of(total(shape));
    const auto inverse = inverse_images(forward, bits);
    // Coordinate bits grouped by tensor dimension: one CuTe mode each.
    std::vector<std::vector<std::int64_t>> modes;
    int bit = 0;
    for (auto e : shape) {
      std::vector<std::int64_t> mode;
      for (int k = 0; k < log2_of(e); ++k) mode.push_back(inverse[static_cast<std::size_t>(bit++)]);
      modes.push_back(std::move(mode));
    }
    return with_swizzle(modes, shape.size() == 1);
  }
  // The thread index runs over the whole cluster: lane, then warp, then CTA.
  std::vector<std::int64_t> threads = images(l, "lane", shape);
  for (auto i : images(l, "warp", shape)) threads.push_back(i);
  for (auto i : images(l, "block", shape)) threads.push_back(i);
  return with_swizzle({threads, images(l, "register", shape)}, false);
}

namespace {

Basis to_coordinate(std::int64_t idx, const Shape& shape) {
  if (idx >= total(shape))
    throw Error(fmt::format("the layout reaches index {}, outside the {}-element tensor", idx, total(shape)));
  return coordinate_of(idx, shape);
}

void check_tensor_shape(const Shape& shape) {
  if (shape.empty())
    throw Error("converting a CuTe layout to Triton needs the tensor shape (--shape, e.g. --shape 16,32)");
  std::int64_t elements = 1;
  for (auto e : shape) {
    if (!std::has_single_bit(static_cast<std::uint64_t>(e)) || e > (std::int64_t{1} << 24))
      throw Error(fmt::format("the shape's extents must be powers of two, got {}", e));
    elements *= e;
    if (elements > (std::int64_t{1} << 32)) throw Error("the shape holds more than 2^32 elements");
  }
}

}  // namespace

LinearLayout from_cute_tv(const AnyLayout& tv, const std::vector<std::int64_t>& shape, std::int64_t lanes,
                          std::int64_t warps) {
  check_tensor_shape(shape);
  const Layout& l = inner_layout(tv);
  if (rank(l) != 2) throw Error(fmt::format("a TV layout has two modes (thread, value), got rank {}", rank(l)));
  const auto thread_offsets = f2_images(get(l, 0), "thread");
  const auto value_offsets = f2_images(get(l, 1), "value");
  // The whole layout must be linear too: thread and value offsets share no bit.
  std::int64_t t = 0, v = 0;
  for (auto i : thread_offsets) t |= i;
  for (auto i : value_offsets) v |= i;
  if (t & v)
    throw Error(
        "the thread and value modes' offsets overlap (they add with carries): the TV layout is not linear over F2");
  const auto thread = f2_through_swizzle(tv, thread_offsets);
  const auto value = f2_through_swizzle(tv, value_offsets);
  const int lane_bits = log2_of(lanes);
  const int warp_bits = warps > 0 ? log2_of(warps) : static_cast<int>(thread.size());
  InputDim reg{"register", {}}, lane{"lane", {}}, warp{"warp", {}}, block{"block", {}};
  for (auto i : value) reg.bases.push_back(to_coordinate(i, shape));
  for (std::size_t k = 0; k < thread.size(); ++k) {
    const int bit = static_cast<int>(k);
    InputDim& in = bit < lane_bits ? lane : bit < lane_bits + warp_bits ? warp : block;
    in.bases.push_back(to_coordinate(thread[k], shape));
  }
  std::vector<OutputDim> outs;
  const auto names = standard_out_dims(static_cast<int>(shape.size()));
  for (std::size_t d = 0; d < shape.size(); ++d) outs.push_back({names[d], shape[d]});
  return LinearLayout({reg, lane, warp, block}, outs);
}

LinearLayout from_cute_smem(const AnyLayout& smem, const std::vector<std::int64_t>& shape) {
  check_tensor_shape(shape);
  const auto forward = f2_through_swizzle(smem, f2_images(inner_layout(smem), "smem layout"));
  const int bits = log2_of(total(shape));
  if (static_cast<int>(forward.size()) != bits)
    throw Error(
        fmt::format("the smem layout has {} elements, the shape {}", std::int64_t{1} << forward.size(), total(shape)));
  // Offset bit k -> the coordinate whose offset is 2^k.
  const auto inverse = inverse_images(forward, bits);
  InputDim offset{"offset", {}};
  for (auto i : inverse) offset.bases.push_back(coordinate_of(i, shape));
  std::vector<OutputDim> outs;
  const auto names = standard_out_dims(static_cast<int>(shape.size()));
  for (std::size_t d = 0; d < shape.size(); ++d) outs.push_back({names[d], shape[d]});
  return LinearLayout({offset, {"block", {}}}, outs);
}

LinearLayout from_cute_layout(const AnyLayout& l) {
  const auto bases = f2_bases(l);
  std::int64_t reach = 0;
  for (auto b : bases) reach |= b;
  InputDim reg{"register", {}};
  for (auto b : bases) reg.bases.push_back({b});
  const std::int64_t size = static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(reach) + 1));
  return LinearLayout({reg, {"lane", {}}, {"warp", {}}, {"block", {}}}, {{"dim0", size}});
}

}  // namespace layoutx::triton
