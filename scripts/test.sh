#!/usr/bin/env bash
# The test command (README, .ci/run): a Release build and an ASan+UBSan build,
# each running the whole test suite (unit tests, golden cases, CLI checks).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

run_suite() {
  local dir=$1; shift
  cmake -S . -B "$dir" -G Ninja "$@"
  cmake --build "$dir" -j "$jobs"
  # The static explorer page (WebAssembly) where emscripten is installed, in the Release build only.
  # (grep reads every line: grep -q would end ninja's output early, which pipefail counts as a failure)
  if [[ $dir == build ]] && ninja -C "$dir" -t targets all | grep '^wasm_page:' >/dev/null; then
    cmake --build "$dir" --target wasm_page
  fi
  ctest --test-dir "$dir" --output-on-failure -j "$jobs"
}

# Unity builds compile each library as one translation unit (the project's
# default batch): the shared headers (fmt, PEGTL, CLI11, the libraries') are
# parsed once per library instead of once per file. The sanitizer build keeps
# line tables only (-g1): enough for its stack traces, far cheaper to compile
# than full debug info.
run_suite build -DCMAKE_BUILD_TYPE=Release -DLAYOUTX_WERROR=ON -DCMAKE_UNITY_BUILD=ON
run_suite build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" \
  -DLAYOUTX_SANITIZE=ON -DCMAKE_UNITY_BUILD=ON
