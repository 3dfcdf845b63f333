// print: each layout as CuTe's print_layout draws it.
#include "driver.hpp"
#include "io/output.hpp"
#include "io/picture_output.hpp"
#include "commands/window_options.hpp"

namespace layoutx::cli {

namespace {

int print_grids(const Settings& s, const std::vector<std::string>& exprs, const GridColoring& coloring) {
  return for_each_expression(s, exprs, [&](const Value& v) {
    const Sink sink = [](std::string_view text) { out(text); };
    if (use_color(s))
      render_grid_color(v, s.grid, coloring, sink);
    else
      render_grid(v, s.grid, sink);
  });
}

}  // namespace

Command register_print(CLI::App* sub, Settings& s) {
  auto exprs = std::make_shared<std::vector<std::string>>();
  auto color = std::make_shared<std::pair<std::string, int>>("offset", 32);
  add_color_options(sub, color->first, color->second);  // coloured only on a terminal (--color)
  add_window_options(sub, s.grid);
  add_expressions(sub, *exprs);
  return {sub, [&s, exprs, color] {
            return print_grids(s, *exprs, GridColoring{color_by_named(color->first), color->second});
          }};
}

Command register_print_arguments(CLI::App* sub, Settings& s) {
  auto exprs = std::make_shared<std::vector<std::string>>();
  add_expressions(sub, *exprs);
  return {sub, [&s, exprs] { return print_grids(s, *exprs, GridColoring{}); }};
}

}  // namespace layoutx::cli
