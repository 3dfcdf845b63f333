// eval, print, offsets, info: the four basic commands.
#include "driver.hpp"
#include "output.hpp"
#include "picture_output.hpp"

namespace layoutx::cli {

namespace {

OffsetFormat parse_format(const std::string& f) {
  if (f == "csv") return OffsetFormat::Csv;
  if (f == "tsv") return OffsetFormat::Tsv;
  if (f == "json") return OffsetFormat::Json;
  if (f == "jsonl") return OffsetFormat::Jsonl;
  return OffsetFormat::Plain;
}

}  // namespace

Command register_eval(CLI::App& app, Settings& s) {
  auto* sub = app.add_subcommand("eval", "Print each value in CuTe's notation");
  auto exprs = std::make_shared<std::vector<std::string>>();
  auto both = std::make_shared<bool>(false);
  sub->add_flag("--show-both", *both,
                "Print the value with dynamic integers (as in --dynamic) and its all-static twin, and whether they "
                "are equal as functions");
  add_expressions(sub, *exprs);
  return {sub, [&s, exprs, both] {
            if (*both) return run_show_both(s, *exprs);
            return for_each_expression(s, *exprs, [](const Value& v) { out(render_notation(v) + "\n"); });
          }};
}

Command register_print(CLI::App& app, Settings& s) {
  auto* sub = app.add_subcommand("print", "Draw each layout as CuTe's print_layout does");
  auto exprs = std::make_shared<std::vector<std::string>>();
  auto color = std::make_shared<std::pair<std::string, int>>("offset", 32);
  add_color_options(sub, color->first, color->second);  // coloured only on a terminal (--color)
  add_expressions(sub, *exprs);
  return {sub, [&s, exprs, color] {
            const GridColoring coloring{color_by_named(color->first), color->second};
            return for_each_expression(s, *exprs, [&](const Value& v) {
              const Sink sink = [](std::string_view text) { out(text); };
              if (use_color(s))
                render_grid_color(v, s.grid, coloring, sink);
              else
                render_grid(v, s.grid, sink);
            });
          }};
}

Command register_offsets(CLI::App& app, Settings& s) {
  auto* sub = app.add_subcommand("offsets", "Stream the offset of every index, one per line");
  auto exprs = std::make_shared<std::vector<std::string>>();
  auto format = std::make_shared<std::string>("plain");
  sub->add_option("-f,--format", *format, "Table format: plain, csv, tsv, json, jsonl (with index and coordinate)")
      ->check(CLI::IsMember({"plain", "csv", "tsv", "json", "jsonl"}));
  auto device = std::make_shared<bool>(false);
  sub->add_flag("--device", *device, "Compute the offsets on the CUDA GPU (plain format)");
  add_expressions(sub, *exprs);
  return {sub, [&s, exprs, format, device] {
            const OffsetFormat f = parse_format(*format);
            if (*device) return run_device_offsets(s, *exprs, f);
            return for_each_expression(s, *exprs, [&](const Value& v) {
              render_offsets(require_layout(v, "offsets"), f, [](std::string_view chunk) { out(chunk); });
            });
          }};
}

Command register_info(CLI::App& app, Settings& s) {
  auto* sub = app.add_subcommand("info", "Show shape, stride, size, cosize, rank, depth and the offset function's properties");
  auto exprs = std::make_shared<std::vector<std::string>>();
  auto options = std::make_shared<InfoOptions>();
  sub->add_flag("--json", options->json, "One JSON object per expression");
  sub->add_flag("--tv", options->tv, "Also the thread-value properties (mode 0 the thread, mode 1 the value)");
  add_expressions(sub, *exprs);
  return {sub, [&s, exprs, options] {
            return for_each_expression(s, *exprs, [&](const Value& v) { out(render_info(v, *options)); });
          }};
}

}  // namespace layoutx::cli
