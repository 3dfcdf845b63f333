// Text and JSON for the properties shown by info, lookups and coalescing.
#include "layoutx/render_analysis.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <initializer_list>

#include "layoutx/json_text.hpp"
#include "decimal.hpp"
#include "layoutx/f2_bases.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/permutation.hpp"

namespace layoutx {

namespace {

using render_detail::plain;

// The permutation of a bijective layout is followed for at most this many
// elements (an image and two marks per element).
constexpr std::int64_t kMaxPermutation = std::int64_t{1} << 22;

template <class T>
PropertyRow row(std::string key, const std::optional<T>& v) {
  std::string text = "unknown";
  if (v) {
    if constexpr (std::is_same_v<T, bool>)
      text = *v ? "true" : "false";
    else
      text = std::to_string(*v);
  }
  return PropertyRow{std::move(key), text, json::optional(v)};
}

PropertyRow row(std::string key, std::int64_t v) { return row(std::move(key), std::optional<std::int64_t>(v)); }

std::string percent(std::int64_t part, std::int64_t whole) {
  if (whole == 0) return "100%";
  return fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

std::string ratio(std::int64_t part, std::int64_t whole) {
  if (whole == 0) return "0";
  return fmt::format("{:.2f}", static_cast<double>(part) / static_cast<double>(whole));
}

// The image of each index bit where the layout is linear over F2 (Triton's
// linear layout view); nothing where it is not.
std::optional<std::vector<std::int64_t>> linear_bases(const AnyLayout& l) {
  try {
    return f2_bases(l);
  } catch (const Error&) {
    return std::nullopt;
  }
}

}  // namespace

std::vector<PropertyRow> property_rows(const AnyLayout& l, bool tv) {
  std::vector<PropertyRow> rows;
  const auto add = [&](std::initializer_list<PropertyRow> more) { rows.insert(rows.end(), more); };
  const Properties p = properties(l);
  add({row("injective", p.injective), row("surjective", p.surjective), row("bijective", p.bijective),
       row("compact", p.compact), row("image_size", p.image_size)});
  if (p.size > 0) add({row("min_offset", p.min_offset), row("max_offset", p.max_offset)});  // none when empty
  add({row("max_common_vector", p.vector)});
  if (const auto bases = linear_bases(l)) {
    const std::string list = fmt::format("[{}]", fmt::join(*bases, ", "));  // the same text in JSON
    add({PropertyRow{"f2_bases", list, list}});
  }
  if (p.bijective == true) {  // a permutation of [0, size): its cycles
    std::string why;
    if (const auto c = permutation_cycles(l, kMaxPermutation, why))
      add({row("cycles", c->cycles), row("fixed_points", c->fixed_points), row("longest_cycle", c->longest),
           PropertyRow{"order", c->order ? std::to_string(*c->order) : "past 2^63", json::optional(c->order)}});
    else
      add({PropertyRow{"cycles", "unknown: " + why, "null"}});
  }
  if (!p.unknown_reason.empty()) add({PropertyRow{"unknown_because", p.unknown_reason, json::quote(p.unknown_reason)}});
  if (!tv) return rows;
  const ThreadValueProperties t = thread_value_properties(l);
  add({row("threads", t.threads), row("values", t.values), row("value_max_common_vector", t.vector),
       row("value_run", t.run), row("vector_per_thread", t.aligned_vector), row("accesses_per_thread", t.accesses)});
  return rows;
}

std::string render_location_header() { return "index\tflat\tcoord\toffset\n"; }

std::string render_location(const Location& loc, bool as_json) {
  if (!as_json) return fmt::format("{}\t{}\t{}\t{}\n", loc.index, plain(loc.flat), plain(loc.natural), loc.offset);
  return json::Object()
             .num("index", loc.index)
             .raw("flat", json::tuple(loc.flat))
             .raw("coord", json::tuple(loc.natural))
             .num("offset", loc.offset)
             .done() +
         "\n";
}

std::string render_coalescing(const Coalescing& c, const CoalescingOptions& o, bool as_json) {
  auto counts = [&](const AccessCount& a) {
    return json::Object()
        .nums({{"instructions", a.instructions},
               {"sectors", a.sectors},
               {"min_sectors", a.min_sectors},
               {"lines", a.lines},
               {"min_lines", a.min_lines},
               {"worst_sectors", a.worst_sectors},
               {"worst_warp", a.worst_warp},
               {"worst_access", a.worst_access}})
        .done();
  };
  if (as_json)
    return json::Object()
               .nums({{"threads", c.threads},
                      {"values", c.values},
                      {"warp", o.warp},
                      {"warps", c.warps},
                      {"element_bytes", o.element_bytes},
                      {"sector_bytes", o.sector_bytes},
                      {"line_bytes", o.line_bytes},
                      {"widest_vector", c.widest_vector},
                      {"vector", c.vector},
                      {"accesses_per_thread", c.accesses}})
               .raw("vectorized", counts(c.vectorized))
               .raw("scalar", counts(c.scalar))
               .done() +
           "\n";

  std::string out;
  auto line = [&](std::string_view key, const std::string& value) { out += fmt::format("{}: {}\n", key, value); };
  auto block = [&](std::string_view prefix, const AccessCount& a) {
    line(fmt::format("{}instructions", prefix), std::to_string(a.instructions));
    line(fmt::format("{}sectors", prefix),
         fmt::format("{} (minimum {}, efficiency {})", a.sectors, a.min_sectors, percent(a.min_sectors, a.sectors)));
    line(fmt::format("{}lines", prefix),
         fmt::format("{} (minimum {}, efficiency {})", a.lines, a.min_lines, percent(a.min_lines, a.lines)));
    line(fmt::format("{}sectors_per_instruction", prefix),
         fmt::format("{} (worst {}: warp {}, access {})", ratio(a.sectors, a.instructions), a.worst_sectors,
                     a.worst_warp, a.worst_access));
  };
  line("threads", std::to_string(c.threads));
  line("values_per_thread", std::to_string(c.values));
  line("warps", fmt::format("{} of {} threads", c.warps, o.warp));
  line("element_bytes", std::to_string(o.element_bytes));
  auto elements = [&](std::int64_t n) {
    return fmt::format("{} element{} ({} bytes)", n, n == 1 ? "" : "s", n * o.element_bytes);
  };
  line("widest_vector", elements(c.widest_vector));
  line("vector", elements(c.vector));
  line("accesses_per_thread", std::to_string(c.accesses));
  block("", c.vectorized);
  if (c.vector != 1) block("scalar_", c.scalar);
  return out;
}

}  // namespace layoutx
