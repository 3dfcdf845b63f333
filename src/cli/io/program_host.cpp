// What a program prints through the renderers: print_layout's grid and
// print_latex's picture, for `run` and the explorer.
#include "io/program_host.hpp"

#include <fmt/format.h>

#include "layoutx/render_picture.hpp"

namespace layoutx::cli {

ProgramHost program_host(const Settings& s) {
  ProgramHost host;
  const GridOptions grid = s.grid;
  host.printers["print_layout"] = [grid](const std::vector<Value>& args, Notation n) {
    if (args.size() != 1) throw Error("print_layout takes one layout");
    // CuTe's print_layout asserts (statically) that the layout has rank 2.
    if (const auto layout = args.front().as_layout()) {
      const int r = rank(std::holds_alternative<Layout>(*layout) ? std::get<Layout>(*layout)
                                                                 : std::get<ComposedLayout>(*layout).layout);
      if (r != 2)
        throw Error(fmt::format("static assertion failed: print_layout takes a rank-2 layout, {} has rank {}",
                                to_text(args.front(), n), r));
    }
    GridOptions g = grid;
    g.notation = n;
    return render_grid(args.front(), g);
  };
  host.printers["print_latex"] = [grid](const std::vector<Value>& args, Notation n) {
    if (args.size() != 1 || !args.front().as_layout()) throw Error("print_latex takes one layout here");
    PictureOptions p;
    p.notation = n;
    p.grid_max_cells = grid.max_cells;
    return render_tikz(layout_picture(*args.front().as_layout(), p));
  };
  return host;
}

}  // namespace layoutx::cli
