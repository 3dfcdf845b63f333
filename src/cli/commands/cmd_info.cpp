// info: shape, stride, size, cosize, rank, depth and the offset function's properties.
#include "driver.hpp"
#include "io/output.hpp"

namespace layoutx::cli {

Command register_info(CLI::App* sub, Settings& s) {
  auto exprs = std::make_shared<std::vector<std::string>>();
  auto options = std::make_shared<InfoOptions>();
  sub->add_flag("--json", options->json, "One JSON object per expression");
  sub->add_flag("--tv", options->tv, "Also the thread-value properties (mode 0 the thread, mode 1 the value)");
  add_expressions(sub, *exprs);
  return {sub, [&s, exprs, options] {
            options->notation = notation(s);
            return for_each_expression(s, *exprs, [&](const Value& v) { out(render_info(v, *options)); });
          }};
}

}  // namespace layoutx::cli
