// coalescing: global-memory sectors and lines per warp instruction of a
// (thread, value) -> offset layout, against the minimum.
#include <fmt/format.h>

#include <charconv>

#include "driver.hpp"
#include "layoutx/analysis.hpp"
#include "layoutx/render_analysis.hpp"
#include "io/output.hpp"

namespace layoutx::cli {

namespace {

struct CoalescingCli {
  std::vector<std::string> exprs;
  CoalescingOptions options;
  std::int64_t vector = 0;  // 0: the widest usable
  bool json = false;
};

}  // namespace

Command register_coalescing(CLI::App* sub, Settings& s) {
  auto c = std::make_shared<CoalescingCli>();
  sub->add_option("EXPR", c->exprs,
                  "Layouts: mode 0 the thread, mode 1 (and up) the value; rank 1: one element per thread. "
                  "'-' reads them from standard input")
      ->required();
  // --elem-bytes and --elem-bits, as bank, tv and partition spell them; -e and --element-bytes stay.
  auto* bytes =
      sub->add_option("--elem-bytes,-e,--element-bytes", c->options.element_bytes, "Bytes per element (default 4)")
          ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 20));
  sub->add_option_function<std::int64_t>(
         "--elem-bits", [c](std::int64_t bits) { c->options.element_bytes = bits / 8; },
         "Bits per element, a multiple of 8 (the same as --elem-bytes BITS/8)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            std::int64_t v = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
            if (ec != std::errc() || end != text.data() + text.size() || v < 8 || v % 8 != 0 ||
                v > (std::int64_t{1} << 23))
              return "coalescing counts whole bytes: --elem-bits is a multiple of 8 from 8 to 2^23";
            return "";
          },
          "BITS"))
      ->excludes(bytes);
  sub->add_option("-w,--warp", c->options.warp, "Threads per warp (default 32)")
      ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 20));
  sub->add_option("--vector", c->vector, "Elements per access (default: the widest usable)")
      ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 20));
  sub->add_option("--max-vector-bytes", c->options.max_vector_bytes, "Widest access a thread issues (default 16)")
      ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 20));
  sub->add_option("--sector-bytes", c->options.sector_bytes, "Sector size (default 32)")
      ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 20));
  sub->add_option("--line-bytes", c->options.line_bytes, "Cache line size (default 128)")
      ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 20));
  sub->add_flag("--threads", c->options.threads_only, "Every mode is the thread: one element per thread");
  sub->add_option("--limit", c->options.max_elements, "Largest layout analysed, in elements (default 67108864)")
      ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 40));
  sub->add_flag("--json", c->json, "One JSON object per expression");
  return {sub, [&s, c] {
            CoalescingOptions options = c->options;
            if (c->vector > 0) options.vector = c->vector;
            return for_each_expression(s, c->exprs, [&](const Value& v) {
              const AnyLayout l = require_offset_layout(v, "coalescing", notation(s));
              const std::string report = render_coalescing(analyse_coalescing(l, options), options, c->json);
              out(c->json ? report : fmt::format("layout: {}\n{}", render_notation(Value::of(l), notation(s)), report));
            });
          }};
}

}  // namespace layoutx::cli
