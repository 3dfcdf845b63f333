#include "driver.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <new>

#include "input_lines.hpp"
#include "layoutx/notation.hpp"
#include "layoutx/triton_cute.hpp"
#include "layoutx/triton_encoding.hpp"
#include "output.hpp"

namespace layoutx::cli {

bool use_color(const Settings& s) {
  if (s.color == "always") return true;
  if (s.color == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return isatty(STDOUT_FILENO) != 0;
}

Notation notation(const Settings& s) { return Notation{.static_marks = s.dynamic}; }

Diagnostics diagnostics(const Settings& s) { return Diagnostics(s.strict, notation(s)); }

std::vector<std::string> gather(const Settings& s, const std::vector<std::string>& args, std::size_t at_most,
                                std::string& problem) {
  std::vector<std::string> out;
  ExpressionSource source(args, s.language.max_length);
  while (auto e = source.next()) {
    if (!e->problem.empty()) {
      problem = e->problem;
      return out;
    }
    out.push_back(std::move(e->text));
    if (out.size() > at_most) break;
  }
  return out;
}

int reported(const Shown& shown, const std::function<int()>& step) {
  try {
    return step();
  } catch (const SourceError& e) {
    flush_out();
    const bool located = !shown.text.empty();
    report_error(fmt::format("{}{}{}", shown.where, located ? shown.located_prefix : "", e.what()), shown.text,
                 shown.from + e.offset(), located);
  } catch (const Error& e) {
    flush_out();
    report_error(fmt::format("{}{}", shown.where, e.what()), shown.text, 0, false);
  } catch (const std::bad_alloc&) {
    flush_out();
    report_error(fmt::format("{}out of memory", shown.where), shown.text, 0, false);
  }
  return kRejected;
}

bool report_warnings(Diagnostics& diag) {
  const bool any = !diag.warnings().empty();
  for (const auto& w : diag.warnings()) report_warning(w.message);
  diag.clear();
  return any;
}

triton::LinearLayout read_triton(const Settings& s, std::string_view text) {
  try {
    return triton::linear_layout_of(text, s.shape);
  } catch (const triton::TextError& e) {
    throw SourceError(e.what(), e.offset());
  }
}

Value evaluate_input(const Settings& s, std::string_view expr, Diagnostics& diag) {
  if (!triton::is_triton_text(expr)) return evaluate_expression(expr, s.language, diag);
  return Value::of(triton::to_cute(read_triton(s, expr)));
}

Value evaluate_warning(const Settings& s, std::string_view expr) {
  Diagnostics diag = diagnostics(s);
  Value v = evaluate_input(s, expr, diag);
  report_warnings(diag);
  return v;
}

std::optional<Value> evaluate_option(const Settings& s, std::string_view text, const Shown& shown, Diagnostics& diag) {
  std::optional<Value> v;
  reported(shown, [&] {
    v = evaluate_input(s, text, diag);
    return kOk;
  });
  return v;
}

int for_each_expression(const Settings& s, const std::vector<std::string>& expressions,
                        const std::function<void(const Value&)>& command) {
  return for_each_expression(s, expressions, [&](const Value& v, std::string_view) { command(v); });
}

int for_each_expression(const Settings& s, const std::vector<std::string>& expressions,
                        const std::function<void(const Value&, std::string_view)>& command) {
  return for_each_expression(s, expressions,
                             [&](const Value& v, std::string_view expr, Diagnostics&) { command(v, expr); });
}

int for_each_expression(const Settings& s, const std::vector<std::string>& expressions,
                        const std::function<void(const Value&, std::string_view, Diagnostics&)>& command) {
  return for_each_expression_text(s, expressions, [&](std::string_view expr) {
    Diagnostics diag = diagnostics(s);
    const Value v = evaluate_input(s, expr, diag);
    report_warnings(diag);
    command(v, expr, diag);
    report_warnings(diag);
    return kOk;
  });
}

int for_each_expression_text(const Settings& s, const std::vector<std::string>& expressions,
                             const std::function<int(std::string_view)>& command) {
  int status = kOk;
  ExpressionSource source(expressions, s.language.max_length);
  std::string where;  // one buffer for every line: the loop runs once per line of a long input
  while (const auto input = source.next()) {
    const std::string& expr = input->text;
    // A line of standard input is named, so that the error can be found in a long file.
    where.clear();
    if (input->line) {
      char digits[24];
      where.append("standard input, line ");
      where.append(digits, std::to_chars(digits, digits + sizeof digits, input->line).ptr);
      where.append(": ");
    }
    if (!input->problem.empty()) {
      report_error(where + input->problem, "", 0, false);
      status = kRejected;
      continue;
    }
    Shown shown{expr};
    shown.where = where;
    if (reported(shown, [&] { return command(expr); }) != kOk) status = kRejected;
  }
  flush_out();
  return status;
}

AnyLayout require_layout(const Value& v, const char* command, Notation n) {
  if (const auto l = v.as_layout()) return *l;
  throw Error(fmt::format("{} needs a layout, got {} {}", command, a_kind_name(v), to_text(v, n)));
}

CLI::Validator integer_range(std::int64_t lo, std::int64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        std::int64_t v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (text.empty() || end != text.data() + text.size() || ec == std::errc::invalid_argument)
          return fmt::format("Value {} is not an integer", text);
        if (ec != std::errc() || v < lo || v > hi) return fmt::format("Value {} not in range {} to {}", text, lo, hi);
        return "";
      },
      fmt::format("INT in [{} - {}]", lo, hi));
}

void add_expressions(CLI::App* sub, std::vector<std::string>& expressions) {
  sub->add_option("EXPR", expressions, "Expressions to evaluate; '-' reads one per line from standard input")->required();
}

}  // namespace layoutx::cli
