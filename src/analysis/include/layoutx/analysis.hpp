// Answers for kernel writers, computed from engine values (no printing):
// properties of a layout's offset function, functional equality, lookups
// between indices, coordinates and offsets, and global-memory coalescing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "layoutx/swizzle_algebra.hpp"

namespace layoutx {

// Throws Error unless the offset of every index of l's domain fits in 64
// bits (then evaluating l anywhere in its domain cannot fail), so that a
// streamed answer never stops half-written (layout_walk.cpp).
void require_offsets_fit(const AnyLayout& l);

// ---- properties (properties.cpp) -------------------------------------------

struct Properties {
  std::int64_t size = 0;
  // CuTe's cosize (a composed layout: its inner layout's); unset when it leaves
  // 64 bits, which strides of opposite signs allow while every offset fits.
  std::optional<std::int64_t> cosize;
  std::int64_t broadcast = 1;  // product of the extents of the stride-0 modes
  // Over the domain [0, size); unset when the layout is too large or too
  // irregular to analyse within the limits (the reason says which).
  std::optional<std::int64_t> min_offset, max_offset;
  std::optional<std::int64_t> image_size;  // number of distinct offsets
  std::optional<bool> injective;           // distinct indices, distinct offsets
  std::optional<bool> surjective;          // every offset in [0, cosize) is reached
  std::optional<bool> bijective;           // both
  std::optional<bool> compact;             // bijective once the stride-0 (broadcast) modes are left out
  // CuTe's max_common_vector(L, make_layout(shape(L))): how many elements from
  // index 0 on are contiguous in memory (unset for nested swizzles, which CuTe does not take).
  std::optional<std::int64_t> vector;
  std::string unknown_reason;
};

struct PropertyLimits {
  std::size_t max_intervals = std::size_t{1} << 20;  // image bookkeeping for overlapping strides
  std::int64_t max_scan = std::int64_t{1} << 24;     // offsets walked one by one (swizzled layouts)
};

Properties properties(const AnyLayout& l, const PropertyLimits& limits = {});

// A thread-value layout: mode 0 is the thread, mode 1 the value.
struct ThreadValueProperties {
  std::int64_t threads = 0;
  std::int64_t values = 0;
  // CuTe's max_common_vector(layout<1>(L), make_layout(shape<1>(L))): the
  // values each thread finds contiguous in memory, in value order.
  std::optional<std::int64_t> vector;
  std::int64_t run = 1;             // the same, by value (static or dynamic)
  std::int64_t aligned_vector = 1;  // widest power-of-two vector every thread can use at aligned offsets
  std::int64_t accesses = 0;        // values / aligned_vector: vector accesses per thread
};

// @pre rank(l) == 2 (throws Error otherwise)
ThreadValueProperties thread_value_properties(const AnyLayout& l);

// ---- equality (equality.cpp) -----------------------------------------------

// CuTe's operator==: the same shape and stride (by value), for composed
// layouts also the same swizzles and offsets.
bool structurally_equal(const AnyLayout& a, const AnyLayout& b);

struct Difference {
  std::int64_t index = 0;
  std::int64_t a = 0;
  std::int64_t b = 0;
};

struct Comparison {
  bool equal = false;
  std::int64_t size_a = 0, size_b = 0;
  std::vector<Difference> first;  // the first differing indices, in order
  std::int64_t differing = 0;     // indices found to differ
  bool counted = true;            // false: the scan stopped at the limit, `differing` is a lower bound
  // For coordinate layouts, the values at first[i] (whose a and b are unused): coordinates as text.
  std::vector<std::string> coordinates_a, coordinates_b;
};

struct ComparisonLimits {
  std::size_t max_shown = 8;
  std::int64_t max_scan = std::int64_t{1} << 26;  // indices compared one by one
  bool stop_at_first = false;                     // whether they differ is all that is asked
};

// Functional equality: a(i) == b(i) for every i < size (sizes must match).
// Plain layouts are decided exactly at any size; swizzled ones are compared
// index by index and throw Error past max_scan.
Comparison compare_functional(const AnyLayout& a, const AnyLayout& b, const ComparisonLimits& limits = {});

// ---- lookup (lookup.cpp) ---------------------------------------------------

struct Location {
  std::int64_t index = 0;
  IntTuple flat;     // one integer per top-level mode (the row and column of print's grid)
  IntTuple natural;  // congruent to the shape
  std::int64_t offset = 0;
};

// @throws Error when index is outside [0, size)
Location locate_index(const AnyLayout& l, std::int64_t index);
// A coordinate at any level of the hierarchy (an index, per-mode, natural).
// @throws Error when it is not a coordinate of the shape's domain
Location locate_coordinate(const AnyLayout& l, const IntTuple& coord);

struct Preimage {
  std::vector<Location> matches;  // in index order
  bool truncated = false;         // more than max_matches indices map to the offset
};

struct LookupLimits {
  std::size_t max_matches = 1000;
  std::int64_t max_steps = std::int64_t{1} << 26;  // search work before giving up with an Error
  int threads = 0;  // threads sorting and showing the matches at most (0: one per core); same answer for any
};

// Every index whose offset is `offset`.
Preimage locate_offset(const AnyLayout& l, std::int64_t offset, const LookupLimits& limits = {});
// The same matches as text, in index order (only the indices are kept
// meanwhile, 8 bytes a match): `show` writes each match's text, on every core
// at once (so it must be safe to call from several threads), and `each`
// receives the text of consecutive matches, in order, on the calling thread.
// Returns whether more than max_matches indices map to the offset.
bool for_each_preimage(const AnyLayout& l, std::int64_t offset, const LookupLimits& limits,
                       const std::function<std::string(const Location&)>& show,
                       const std::function<void(std::string_view)>& each);

// ---- coalescing (coalescing.cpp) -------------------------------------------

struct CoalescingOptions {
  std::int64_t element_bytes = 4;
  std::int64_t warp = 32;
  std::int64_t sector_bytes = 32;
  std::int64_t line_bytes = 128;
  std::int64_t max_vector_bytes = 16;  // the widest load/store a thread issues
  std::optional<std::int64_t> vector;  // elements per access; default: the widest usable
  bool threads_only = false;           // every mode is the thread: one element per thread
  std::int64_t max_elements = std::int64_t{1} << 26;
};

struct AccessCount {
  std::int64_t instructions = 0;  // warp-wide memory instructions
  std::int64_t sectors = 0, min_sectors = 0;
  std::int64_t lines = 0, min_lines = 0;
  std::int64_t worst_sectors = 0;  // in one instruction
  std::int64_t worst_warp = 0, worst_access = 0;
};

struct Coalescing {
  std::int64_t threads = 0, values = 0, warps = 0;
  std::int64_t vector = 1;         // elements per access used below
  std::int64_t widest_vector = 1;  // widest usable power-of-two vector (within max_vector_bytes)
  std::int64_t accesses = 0;       // per thread
  AccessCount vectorized;          // with `vector` elements per access
  AccessCount scalar;              // one element per access
};

// @throws Error for a vector that is not usable or a layout over max_elements
Coalescing analyse_coalescing(const AnyLayout& l, const CoalescingOptions& options);

// One warp-wide access: lane i moves `bytes` bytes from byte_addresses[i]. The
// sectors and lines it touches, and the fewest that hold the bytes it moves
// (each counted once, however many lanes share it).
struct WarpSectors {
  std::int64_t sectors = 0, min_sectors = 0;
  std::int64_t lines = 0, min_lines = 0;
  std::int64_t unique_bytes = 0;
};
WarpSectors warp_sectors(std::span<const std::int64_t> byte_addresses, std::int64_t bytes,
                         const CoalescingOptions& options);

}  // namespace layoutx
