// The baseline bench/run.sh measures `layoutx offsets` against: the general
// evaluator once per index (the index as an IntTuple, crd2idx down the
// hierarchy, checked arithmetic, the swizzles) and printf, the way a quick
// program over the engine would write the table.
#include <cstdio>

#include "layoutx/language.hpp"
#include "layoutx/swizzle_algebra.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s LAYOUT\n", argv[0]);
    return 2;
  }
  try {
    layoutx::Diagnostics diag;
    const layoutx::Value v = layoutx::evaluate_expression(argv[1], layoutx::LanguageOptions{}, diag);
    const layoutx::AnyLayout l = *v.as_layout();
    const std::int64_t n = layoutx::size(l).value;
    for (std::int64_t i = 0; i < n; ++i)
      std::printf("%lld\n",
                  static_cast<long long>(layoutx::evaluate(l, layoutx::IntTuple(layoutx::static_int(i))).value));
  } catch (const layoutx::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
