#include "layoutx/render_partition.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "layoutx/json_text.hpp"
#include "layoutx/swizzle.hpp"

namespace layoutx {

namespace {

std::string coordinate_text(const ThreadAccesses& t, std::size_t i) {
  const std::size_t r = static_cast<std::size_t>(t.coord_rank);
  std::string out = "(";
  for (std::size_t j = 0; j < r; ++j) {
    if (j) out += ',';
    out += std::to_string(t.coords[i * r + j]);
  }
  return out + ")";
}

std::string coordinate_text(const std::vector<std::int64_t>& c) { return fmt::format("({})", fmt::join(c, ",")); }

// The swizzle stages and offsets every offset goes through: "Sw<3,3,3> o 0".
std::string swizzle_text(const PartitionView& v) {
  if (!v.swizzle) return {};
  std::string s = to_text(v.swizzle->swizzle) + " o " + to_text(v.swizzle->offset, v.notation);
  for (const SwizzleStage& st : v.swizzle->nested)
    s += " o " + to_text(st.swizzle) + " o " + to_text(st.offset, v.notation);
  return s;
}

std::string access_text(const PartitionView& v, const ThreadAccesses& t) {
  const std::size_t n = t.offsets.size();
  return fmt::format("{} element{} ({} bits) at a time, {} access{}", t.vector, t.vector == 1 ? "" : "s",
                     t.vector * v.bits, n / static_cast<std::size_t>(t.vector),
                     n / static_cast<std::size_t>(t.vector) == 1 ? "" : "es");
}

std::string partition_header(const PartitionView& v) {
  const Notation n = v.notation;
  std::string out = fmt::format("{}, {} threads\n", v.partitioner, v.threads.value);
  out += fmt::format("tile:        {} at {}, coordinates from {}\n", to_text(v.tile, n), to_text(v.tile_origin, n),
                     to_text(v.tile_coord_origin, n));
  if (v.swizzle) out += fmt::format("swizzle:     {}, applied to every offset below\n", swizzle_text(v));
  out += fmt::format("predicate:   elem_less(coordinate, {})\n", to_text(v.bound, n));
  return out;
}

std::string thread_text(const PartitionView& v, const ThreadAccesses& t) {
  const Notation n = v.notation;
  std::string out = fmt::format("thread {}\n", t.thread.value);
  out += fmt::format("partition:   {} at {}\n", to_text(t.layout, n), to_text(t.origin, n));
  out += fmt::format("coordinates: {} at {}\n", to_text(t.coord_layout, n), to_text(t.coord_origin, n));
  if (t.fragment)
    out += fmt::format("fragment:    {}\n", to_text(*t.fragment, n));
  else if (!v.no_fragment.empty())
    out += fmt::format("fragment:    none ({})\n", v.no_fragment);
  // An operand read through a memory descriptor is never loaded by the threads.
  if (!t.fragment && !v.no_fragment.empty())
    out += "access:      none by the threads (the MMA reads it through its descriptor)\n";
  else
    out += fmt::format("access:      {}\n", access_text(v, t));
  out += fmt::format("masked:      {} of {} elements\n", t.masked, t.offsets.size());
  std::vector<std::string> coords;
  std::size_t width = std::string("coordinate").size();
  for (std::size_t i = 0; i < t.offsets.size(); ++i) {
    coords.push_back(coordinate_text(t, i));
    width = std::max(width, coords.back().size());
  }
  out += fmt::format("{:<6} {:<{}}  {}\n", "index", "coordinate", width, "offset");
  for (std::size_t i = 0; i < t.offsets.size(); ++i)
    out += fmt::format("{:<6} {:<{}}  {}{}\n", i, coords[i], width, t.offsets[i], t.in_bounds[i] ? "" : "  masked");
  return out;
}

std::string thread_json(const PartitionView& v, const ThreadAccesses& t) {
  const Notation n = v.notation;
  std::string out = fmt::format("{{\"thread\":{},\"layout\":{},\"origin\":{},\"coord_layout\":{},\"coord_origin\":{},",
                                t.thread.value, json::quote(to_text(t.layout, n)), t.origin.value,
                                json::quote(to_text(t.coord_layout, n)), json::quote(to_text(t.coord_origin, n)));
  out += fmt::format("\"fragment\":{},\"vector\":{},\"vector_bits\":{},\"masked\":{},\"offsets\":[{}],\"coords\":[",
                     t.fragment ? json::quote(to_text(*t.fragment, n)) : "null", t.vector, t.vector * v.bits, t.masked,
                     fmt::join(t.offsets, ","));
  for (std::size_t i = 0; i < t.offsets.size(); ++i) {
    if (i) out += ',';
    out += json::quote(coordinate_text(t, i));
  }
  out += "],\"pred\":\"";
  for (std::size_t i = 0; i < t.offsets.size(); ++i) out += t.in_bounds[i] ? '1' : '0';
  return out + "\"}";
}

}  // namespace

std::string render_partition_text(const PartitionView& v, const std::vector<ThreadAccesses>& threads, bool one_thread) {
  std::string out = partition_header(v);
  if (one_thread) {
    for (const ThreadAccesses& t : threads) out += thread_text(v, t);
    return out;
  }
  std::vector<std::vector<std::string>> rows{{"thread", "partition", "at", "coordinates at", "access", "masked"}};
  for (const ThreadAccesses& t : threads)
    rows.push_back({std::to_string(t.thread.value), to_text(t.layout, v.notation), to_text(t.origin, v.notation),
                    to_text(t.coord_origin, v.notation),
                    !t.fragment && !v.no_fragment.empty() ? std::string("-") : fmt::format("{}x{}b", t.vector, v.bits),
                    fmt::format("{}/{}", t.masked, t.offsets.size())});
  std::vector<std::size_t> width(rows.front().size(), 0);
  for (const auto& r : rows)
    for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  for (const auto& r : rows) {
    std::string line;
    for (std::size_t c = 0; c < r.size(); ++c)
      line += c + 1 == r.size() ? r[c] : fmt::format("{:<{}}  ", r[c], width[c]);
    out += line + "\n";
  }
  return out;
}

std::string render_partition_csv(const PartitionView&, const std::vector<ThreadAccesses>& threads) {
  int rank = 0;
  for (const ThreadAccesses& t : threads) rank = std::max(rank, t.coord_rank);
  std::string out = "thread,index";
  for (int j = 0; j < rank; ++j) out += fmt::format(",coord{}", j);
  out += ",offset,in_bounds\n";
  for (const ThreadAccesses& t : threads) {
    const std::size_t r = static_cast<std::size_t>(t.coord_rank);
    for (std::size_t i = 0; i < t.offsets.size(); ++i) {
      out += fmt::format("{},{}", t.thread.value, i);
      for (std::size_t j = 0; j < static_cast<std::size_t>(rank); ++j)
        out += j < r ? fmt::format(",{}", t.coords[i * r + j]) : std::string(",");
      out += fmt::format(",{},{}\n", t.offsets[i], t.in_bounds[i] ? 1 : 0);
    }
  }
  return out;
}

std::string render_partition_json(const PartitionView& v, const std::vector<ThreadAccesses>& threads) {
  const Notation n = v.notation;
  std::string out = fmt::format(
      "{{\"partitioner\":{},\"threads\":{},\"tile\":{},\"tile_origin\":{},\"tile_coord_origin\":{},\"swizzle\":{},"
      "\"bound\":{},\"bits\":{},\"no_fragment\":{},\"partitions\":[",
      json::quote(v.partitioner), v.threads.value, json::quote(to_text(v.tile, n)),
      json::quote(to_text(v.tile_origin, n)), json::quote(to_text(v.tile_coord_origin, n)),
      v.swizzle ? json::quote(swizzle_text(v)) : "null", json::quote(to_text(v.bound, n)), v.bits,
      v.no_fragment.empty() ? "null" : json::quote(v.no_fragment));
  for (std::size_t i = 0; i < threads.size(); ++i) {
    out += i ? ",\n" : "\n";
    out += thread_json(v, threads[i]);
  }
  return out + "\n]}\n";
}

std::string render_owners(const PartitionView& v, const std::vector<std::int64_t>& coord,
                          const std::vector<Owner>& owners, bool json) {
  if (json) {
    std::string out = fmt::format("{{\"coordinate\":{},\"owners\":[", json::quote(coordinate_text(coord)));
    for (std::size_t i = 0; i < owners.size(); ++i)
      out += fmt::format("{}{{\"thread\":{},\"index\":{},\"offset\":{},\"in_bounds\":{}}}", i ? "," : "",
                         owners[i].thread.value, owners[i].index, owners[i].offset,
                         owners[i].in_bounds ? "true" : "false");
    return out + "]}\n";
  }
  std::string out;
  if (owners.empty()) return fmt::format("no thread of {} owns {}\n", v.partitioner, coordinate_text(coord));
  for (const Owner& o : owners)
    out += fmt::format("{}: thread {} index {} offset {}{}\n", coordinate_text(coord), o.thread.value, o.index,
                       o.offset, o.in_bounds ? "" : " (masked)");
  return out;
}

}  // namespace layoutx
