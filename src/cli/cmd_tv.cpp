// tv: a thread-value layout over a tile, as CuTe's print_latex_tv shows it:
// each cell labelled with the thread and value that own it; or, inverted,
// each thread with the cells of its values.
#include <fmt/format.h>

#include <optional>

#include "driver.hpp"
#include "layoutx/notation.hpp"
#include "output.hpp"
#include "picture_output.hpp"

namespace layoutx::cli {

namespace {

struct TvOptions {
  std::string tv, tile, thr_id;
  bool by_thread = false;
  PictureTarget target;
};

std::optional<Value> evaluate_one(const Settings& s, const std::string& text) {
  std::optional<Value> value;
  if (for_each_expression(s, {text}, [&](const Value& v) { value = v; }) != kOk) return std::nullopt;
  return value;
}

Layout plain_layout(const Value& v, const char* what) {
  const AnyLayout l = require_layout(v, "tv");
  if (!std::holds_alternative<Layout>(l))
    throw Error(fmt::format("the {} must be a plain layout, not the swizzled {}", what, to_text(v)));
  return std::get<Layout>(l);
}

}  // namespace

Command register_tv(CLI::App& app, Settings& s) {
  auto* sub = app.add_subcommand("tv", "Show which thread and value own each cell of a tile (print_latex_tv)");
  auto o = std::make_shared<TvOptions>();
  sub->add_option("TV_LAYOUT", o->tv, "(thread, value) -> index into the tile, e.g. ((4,8),(2,2)):((32,1),(16,8))")
      ->required();
  sub->add_option("TILE", o->tile, "The tile: a shape (M,N) (column-major), or a layout (m,n) -> index")->required();
  sub->add_option("--thr-id", o->thr_id, "Thread numbers to show: a layout thread -> number (CuTe's ThrID)");
  sub->add_flag("--by-thread,--inverse", o->by_thread, "List each thread with the (row,col) cells of its values");
  add_picture_options(sub, o->target, true);
  return {sub, [&s, o] {
            PictureFormat format = PictureFormat::Text;
            if (!resolve_format(o->target, PictureFormat::Text, true, format)) return kUsage;
            const auto tv = evaluate_one(s, o->tv);
            const auto tile = evaluate_one(s, o->tile);
            const auto thr_id = o->thr_id.empty() ? std::optional<Value>() : evaluate_one(s, o->thr_id);
            if (!tv || !tile || (!o->thr_id.empty() && !thr_id)) return kRejected;
            std::string document;
            const int status = guarded([&] {
              PictureOptions options;
              // Text grids answer to --max-cells only; pictures to --max-picture-cells too.
              options.max_cells = format == PictureFormat::Text ? s.grid.max_cells : o->target.max_cells;
              if (format == PictureFormat::Text) options.max_cells_option = "--max-cells";
              options.grid_max_cells = s.grid.max_cells;
              TvView view;
              view.tv = plain_layout(*tv, "TV layout");
              view.tile = plain_layout(*tile, "tile");
              if (view.tv.shape.rank() != 2)
                throw Error(fmt::format("a TV layout has two modes, (thread, value); {} has {}", to_text(view.tv),
                                        view.tv.shape.rank()));
              view.thr_id = thr_id ? plain_layout(*thr_id, "ThrID") : make_layout(IntTuple(size(get(view.tv, 0))));
              if (size(view.thr_id).value != size(get(view.tv, 0)).value)
                throw Error(fmt::format("ThrID {} numbers {} threads; the TV layout has {}", to_text(view.thr_id),
                                        size(view.thr_id).value, size(get(view.tv, 0)).value));
              if (format != PictureFormat::Text)
                document = write_picture(tv_picture(view, options), format, fmt::format("tv {} {}", o->tv, o->tile));
              else
                document = o->by_thread ? render_tv_threads(view, options) : render_tv_grid(view, options);
            });
            if (status != kOk) return status;
            return deliver(o->target, document) ? kOk : kRejected;
          }};
}

}  // namespace layoutx::cli
