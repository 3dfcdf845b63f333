#include "definitions.hpp"
#include "io/input_lines.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "io/output.hpp"

namespace layoutx::cli {

namespace {

std::size_t skip_spaces(std::string_view text, std::size_t at) {
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
  return at;
}

}  // namespace

bool bind_definition(Settings& s, std::string_view definition) {
  const std::size_t eq = definition.find('=');
  if (eq == std::string_view::npos) {
    report_error("a definition is NAME=EXPR, as in M=1000", definition, definition.size(), true);
    return false;
  }
  const std::string_view name = trimmed(definition.substr(0, eq));
  const auto functions = function_names(s.language.extension);
  const bool a_function = std::find(functions.begin(), functions.end(), name) != functions.end();
  if (!bindable_name(name) || a_function) {
    const std::string why = name.empty() ? "a definition needs a name before '='"
                                         : fmt::format(
                                               "'{}' cannot be bound: a name is a letter followed by letters, digits "
                                               "or '_', and no function, type or keyword of the language",
                                               name);
    report_error(why, definition, skip_spaces(definition, 0), true);
    return false;
  }
  const std::size_t expr_at = skip_spaces(definition, eq + 1);
  const std::string_view expr = definition.substr(expr_at);
  Diagnostics diag = diagnostics(s);
  try {
    Value v = evaluate_expression(expr, s.language, diag);
    for (const auto& w : diag.warnings()) report_warning(w.message);
    s.language.names.insert_or_assign(std::string(name), std::move(v));
    return true;
  } catch (const SourceError& e) {
    report_error(e.message(diag.notation()), definition, expr_at + e.offset(), true);
  } catch (const Error& e) {
    report_error(e.message(diag.notation()), definition, 0, false);
  }
  return false;
}

}  // namespace layoutx::cli
