// The cycles of a bijective layout: its offsets are listed in index order
// with one walk, then each cycle is followed once, marking what it visits.
#include "layoutx/permutation.hpp"

#include <fmt/format.h>

#include <numeric>
#include <vector>

#include "layoutx/arithmetic_tuple.hpp"
#include "layoutx/layout_walk.hpp"

namespace layoutx {

namespace {

// lcm(a, b), or nothing past 64 bits.
std::optional<std::int64_t> checked_lcm(std::int64_t a, std::int64_t b) {
  const std::int64_t step = b / std::gcd(a, b);
  std::int64_t out = 0;
  if (__builtin_mul_overflow(a, step, &out)) return std::nullopt;
  return out;
}

}  // namespace

std::optional<PermutationCycles> permutation_cycles(const AnyLayout& l, std::int64_t max_size, std::string& why) {
  const Layout& inner = inner_layout(l);
  if (is_coordinate_layout(inner)) {
    why = "a coordinate layout maps to coordinates, not to indices";
    return std::nullopt;
  }
  walk::check_offsets_fit(inner);
  const std::int64_t n = size(inner).value;
  if (n <= 0) {
    why = "the layout is empty";
    return std::nullopt;
  }
  if (n > max_size) {
    why = fmt::format("{} elements, more than the {} its cycles are followed for", n, max_size);
    return std::nullopt;
  }
  // The image, and whether it is exactly [0, n): a permutation of the indices.
  std::vector<std::int64_t> image(static_cast<std::size_t>(n));
  std::vector<bool> reached(static_cast<std::size_t>(n), false);
  walk::Odometer odometer(walk::walked_modes(walk::leaf_modes(inner)));
  const walk::Finish finish(l);
  for (std::int64_t i = 0; i < n; ++i, odometer.step()) {
    const std::int64_t y = finish(odometer.offset());
    if (y < 0 || y >= n || reached[static_cast<std::size_t>(y)]) {
      why = "the layout is not a bijection onto [0, size)";
      return std::nullopt;
    }
    reached[static_cast<std::size_t>(y)] = true;
    image[static_cast<std::size_t>(i)] = y;
  }
  PermutationCycles p;
  p.order = 1;
  std::vector<bool> visited(static_cast<std::size_t>(n), false);
  for (std::int64_t start = 0; start < n; ++start) {
    if (visited[static_cast<std::size_t>(start)]) continue;
    std::int64_t length = 0;
    for (std::int64_t i = start; !visited[static_cast<std::size_t>(i)]; i = image[static_cast<std::size_t>(i)]) {
      visited[static_cast<std::size_t>(i)] = true;
      ++length;
    }
    ++p.cycles;
    if (length == 1) ++p.fixed_points;
    p.longest = std::max(p.longest, length);
    if (p.order) p.order = checked_lcm(*p.order, length);
  }
  return p;
}

}  // namespace layoutx
