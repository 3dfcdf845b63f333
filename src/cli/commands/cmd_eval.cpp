// eval: each value in CuTe's notation; --show-both: the value with CuTe's
// dynamic integers (as written) beside its all-static twin, and whether they
// agree as functions.
#include <fmt/format.h>

#include "driver.hpp"
#include "layoutx/analysis.hpp"
#include "layoutx/notation.hpp"
#include "io/output.hpp"

namespace layoutx::cli {

namespace {

// Marks make the difference visible: `_4` static, `4` dynamic.
std::string marked(const Value& v) { return render_notation(v, Notation{.static_marks = true}); }

std::string unmarked(const Value& v) { return render_notation(v, Notation{.static_marks = false}); }

std::string agreement(const Value& dynamic, const Value& twin) {
  if (dynamic.is_layout_like() && twin.is_layout_like()) {
    const Comparison c = compare_functional(dynamic.as_any_layout(), twin.as_any_layout());
    if (c.equal) return "yes";
    if (c.size_a != c.size_b) return fmt::format("no (sizes {} and {})", c.size_a, c.size_b);
    const Difference& d = c.first.front();
    if (!c.coordinates_a.empty())
      return fmt::format("no (first at index {}: {} vs {})", d.index, c.coordinates_a.front(), c.coordinates_b.front());
    return fmt::format("no (first at index {}: {} vs {})", d.index, d.a, d.b);
  }
  return unmarked(dynamic) == unmarked(twin) ? "yes" : "no";
}

int run_show_both(const Settings& s, const std::vector<std::string>& expressions) {
  Settings dynamic = s;
  dynamic.language.dynamic = true;
  LanguageOptions twin_options = s.language;
  twin_options.dynamic = false;
  return for_each_expression(dynamic, expressions, [&](const Value& v, std::string_view expr) {
    std::string twin_text, agree;
    try {
      Diagnostics aside = diagnostics(s);  // the twin's warnings are not the expression's
      const Value twin = evaluate_expression(expr, twin_options, aside);
      twin_text = marked(twin);
      agree = agreement(v, twin);
    } catch (const Error& e) {
      twin_text = fmt::format("(refused: {})", e.what());
      agree = "no: the static twin is refused (the reason is beside it)";
    }
    out(fmt::format("dynamic: {}\nstatic:  {}\nequal as functions: {}\n", marked(v), twin_text, agree));
  });
}

int answer_each(const Settings& s, const std::vector<std::string>& expressions, int jobs) {
  return for_each_answer(s, expressions, jobs, [&s](const Value& v, std::string& line) {
    append_notation(line, v, notation(s));
    line += '\n';
  });
}

}  // namespace

Command register_eval(CLI::App* sub, Settings& s) {
  auto exprs = std::make_shared<std::vector<std::string>>();
  auto both = std::make_shared<bool>(false);
  sub->add_flag("--show-both", *both,
                "Print the value with dynamic integers (as in --dynamic) and its all-static twin, and whether they "
                "are equal as functions");
  auto jobs = std::make_shared<int>(0);
  sub->add_option("-j,--jobs", *jobs,
                  "Threads that share the lines of standard input at hand (default 0: one per core; 1: one line at a "
                  "time); answers and messages come in input order either way")
      ->check(integer_range(0, 1024));
  add_expressions(sub, *exprs);
  return {sub, [&s, exprs, both, jobs] {
            if (*both) return run_show_both(s, *exprs);
            return answer_each(s, *exprs, *jobs);
          }};
}

Command register_eval_arguments(CLI::App* sub, Settings& s) {
  auto exprs = std::make_shared<std::vector<std::string>>();
  add_expressions(sub, *exprs);
  return {sub, [&s, exprs] { return answer_each(s, *exprs, 0); }};
}

}  // namespace layoutx::cli
