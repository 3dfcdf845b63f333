// eval, print, offsets, info: the contract's four commands.
#include "driver.hpp"
#include "output.hpp"

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
  add_expressions(sub, *exprs);
  return {sub, [&s, exprs] {
            return for_each_expression(s, *exprs, [](const Value& v) { out(render_notation(v) + "\n"); });
          }};
}

Command register_print(CLI::App& app, Settings& s) {
  auto* sub = app.add_subcommand("print", "Draw each layout as CuTe's print_layout does");
  auto exprs = std::make_shared<std::vector<std::string>>();
  add_expressions(sub, *exprs);
  return {sub, [&s, exprs] {
            return for_each_expression(s, *exprs, [&](const Value& v) { out(render_grid(v, s.grid)); });
          }};
}

Command register_offsets(CLI::App& app, Settings& s) {
  auto* sub = app.add_subcommand("offsets", "Stream the offset of every index, one per line");
  auto exprs = std::make_shared<std::vector<std::string>>();
  auto format = std::make_shared<std::string>("plain");
  sub->add_option("-f,--format", *format, "Table format: plain, csv, tsv, json, jsonl (with index and coordinate)")
      ->check(CLI::IsMember({"plain", "csv", "tsv", "json", "jsonl"}));
  add_expressions(sub, *exprs);
  return {sub, [&s, exprs, format] {
            const OffsetFormat f = parse_format(*format);
            return for_each_expression(s, *exprs, [&](const Value& v) {
              render_offsets(require_layout(v, "offsets"), f, [](std::string_view chunk) { out(chunk); });
            });
          }};
}

Command register_info(CLI::App& app, Settings& s) {
  auto* sub = app.add_subcommand("info", "Show shape, stride, size, cosize, rank and depth");
  auto exprs = std::make_shared<std::vector<std::string>>();
  auto json = std::make_shared<bool>(false);
  sub->add_flag("--json", *json, "One JSON object per expression");
  add_expressions(sub, *exprs);
  return {sub, [&s, exprs, json] {
            return for_each_expression(s, *exprs, [&](const Value& v) { out(render_info(v, *json)); });
          }};
}

}  // namespace layoutx::cli
