// Microseconds per call of the layout algebra on layouts with 16 modes and
// depth 4 (bench/run.sh prints these). Each operation runs until a fixed time
// has passed; the best of three rounds is reported. The operands are built
// with the expression language once, then the engine is called directly; the
// last rows time whole expressions (parse + evaluate + print), which is what
// batch mode pays per line.
#include <fmt/format.h>

#include <chrono>
#include <functional>
#include <string>

#include "layoutx/algebra.hpp"
#include "layoutx/language.hpp"
#include "layoutx/render.hpp"

namespace {

using namespace layoutx;

// 16 leaves in a depth-4 binary tree.
const std::string kShape = "((((2,2),(2,2)),((2,2),(2,2))),(((2,2),(2,2)),((2,2),(2,2))))";
// The same shape with strides 4^i: every other bit of the codomain left out.
const std::string kGappy = kShape +
                           ":((((1,4),(16,64)),((256,1024),(4096,16384))),(((65536,262144),(1048576,4194304)),"
                           "((16777216,67108864),(268435456,1073741824))))";

Layout layout_of(const std::string& text) {
  Diagnostics diag;
  const Value v = evaluate_expression(text, LanguageOptions{}, diag);
  return *v.as_plain_layout();
}

// Best-of-three microseconds per call; `op` returns something that depends on the result.
double microseconds_per_call(const std::function<std::int64_t()>& op) {
  using clock = std::chrono::steady_clock;
  constexpr auto kRound = std::chrono::milliseconds(300);
  double best = 1e300;
  volatile std::int64_t keep = 0;
  for (int round = 0; round < 3; ++round) {
    std::int64_t calls = 0;
    const auto start = clock::now();
    auto now = start;
    do {
      for (int i = 0; i < 16; ++i, ++calls) keep = keep + op();
      now = clock::now();
    } while (now - start < kRound);
    best = std::min(best, std::chrono::duration<double, std::micro>(now - start).count() / static_cast<double>(calls));
  }
  return best;
}

void report(const std::string& what, const std::string& result, double us) {
  fmt::print("{:<44} {:>9.2f} us/call   -> {}\n", what, us, result.size() > 60 ? result.substr(0, 57) + "..." : result);
}

void time_operation(const std::string& what, const std::function<Layout(Diagnostics&)>& op) {
  Diagnostics diag;
  const std::string result = render_notation(Value::of(op(diag)), Notation{});
  report(what, result, microseconds_per_call([&] { return size(op(diag)).value; }));
}

void time_expression(const std::string& text) {
  Diagnostics diag;
  const std::string result = render_notation(evaluate_expression(text, LanguageOptions{}, diag), Notation{});
  const double us = microseconds_per_call([&] {
    return static_cast<std::int64_t>(
        render_notation(evaluate_expression(text, LanguageOptions{}, diag), Notation{}).size());
  });
  report("expression " + (text.size() > 33 ? text.substr(0, 30) + "..." : text), result, us);
}

}  // namespace

int main() {
  const Layout left = layout_of(kShape);                                       // compact column-major
  const Layout right = layout_of("make_layout(" + kShape + ", LayoutRight)");  // a permutation
  const Layout gappy = layout_of(kGappy);
  const Layout tile = layout_of("(16,16):(1,256)");

  fmt::print("layouts with 16 modes, depth 4: A = {}\n", render_notation(Value::of(left), Notation{}));
  time_operation("composition(A, make_layout(A, LayoutRight))",
                 [&](Diagnostics& diag) { return composition(left, right, diag); });
  time_operation("logical_divide(R, (16,16):(1,256))",
                 [&](Diagnostics& diag) { return logical_divide(right, Tiler::of(tile), diag); });
  time_operation("complement(G), G with strides 4^i", [&](Diagnostics& diag) { return complement(gappy, diag); });
  time_operation("right_inverse(R)", [&](Diagnostics&) { return right_inverse(right); });
  time_operation("coalesce(R)", [&](Diagnostics&) { return coalesce(right); });
  time_expression("logical_divide((8,8):(8,1), (2,4))");
  time_expression("(4,3):(3,1)");
  return 0;
}
