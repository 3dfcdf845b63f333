// draw: a layout as a picture (SVG, TikZ in the manner of print_latex, HTML).
#include <fmt/format.h>

#include "driver.hpp"
#include "io/output.hpp"
#include "io/picture_output.hpp"

namespace layoutx::cli {

namespace {

struct DrawOptions {
  std::string expression, atom;
  PictureTarget target;
  std::string color_by = "offset";
  int bits = 32;
};

int draw_atom(const DrawOptions& o, PictureFormat format, int bits, std::int64_t grid_max_cells, Notation n) {
  const Atom* atom = find_atom(o.atom);
  if (!atom) {
    report_error(
        fmt::format("no atom is called '{}' (layoutx atom --list FILTER lists the catalogue)", excerpt(o.atom)), "", 0,
        false);
    return kRejected;
  }
  PictureOptions options;
  options.max_cells = o.target.max_cells;
  options.grid_max_cells = grid_max_cells;
  options.notation = n;
  std::string document;
  const int status = run_reporting_errors({}, n, [&] {
    document = atom_picture(*atom, format, bits, options);
    return kOk;
  });
  if (status != kOk) return status;
  return deliver(o.target, document) ? kOk : kRejected;
}

}  // namespace

Command register_draw(CLI::App* sub, Settings& s) {
  auto o = std::make_shared<DrawOptions>();
  auto* expr = sub->add_option("EXPR", o->expression, "The layout to draw ('-' reads it from standard input)");
  sub->add_option("--atom", o->atom,
                  "An MMA or copy atom to draw instead, as `layoutx atom NAME --format` does (a copy atom in values "
                  "of --bits, default 16)")
      ->excludes(expr);
  add_picture_options(sub, o->target, false);
  add_color_options(sub, o->color_by, o->bits);
  auto* bits = sub->get_option("--bits");
  return {sub, [&s, o, bits] {
            PictureFormat format = PictureFormat::Svg;
            if (!resolve_format(o->target, PictureFormat::Svg, false, format)) return kUsage;
            if (!o->atom.empty())
              return draw_atom(*o, format, bits->count() ? o->bits : 16, s.grid.max_cells, notation(s));
            if (o->expression.empty()) {
              report_error("draw takes EXPR, or --atom NAME", "", 0, false);
              return kUsage;
            }
            std::string problem;
            const std::vector<std::string> expressions = read_expressions(s, {o->expression}, 1, problem);
            if (!problem.empty()) {
              report_error(problem, "", 0, false);
              return kRejected;
            }
            if (expressions.size() != 1) {
              report_error("draw takes exactly one expression", "", 0, false);
              return kUsage;
            }
            PictureOptions options;
            options.max_cells = o->target.max_cells;
            options.grid_max_cells = s.grid.max_cells;
            options.color_by = color_by_named(o->color_by);
            options.bits = o->bits;
            options.notation = notation(s);
            bool written = true;
            const int status = for_each_expression(s, expressions, [&](const Value& v) {
              const Picture picture = layout_picture(require_layout(v, "draw", notation(s)), options);
              written = deliver(o->target, write_picture(picture, format, expressions.front()));
            });
            return written ? status : kRejected;
          }};
}

}  // namespace layoutx::cli
