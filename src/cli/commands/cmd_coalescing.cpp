// coalescing: global-memory sectors and lines per warp instruction of a
// (thread, value) -> offset layout, against the minimum.
#include <fmt/format.h>

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
  sub->add_option("-e,--element-bytes", c->options.element_bytes, "Bytes per element (default 4)")
      ->check(integer_range(std::int64_t{1}, std::int64_t{1} << 20));
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
              const AnyLayout l = require_layout(v, "coalescing", notation(s));
              const std::string report = render_coalescing(analyse_coalescing(l, options), options, c->json);
              out(c->json ? report : fmt::format("layout: {}\n{}", render_notation(Value::of(l), notation(s)), report));
            });
          }};
}

}  // namespace layoutx::cli
