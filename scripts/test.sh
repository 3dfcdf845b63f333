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
  ctest --test-dir "$dir" --output-on-failure -j "$jobs"
}

run_suite build -DCMAKE_BUILD_TYPE=Release -DLAYOUTX_WERROR=ON
run_suite build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLAYOUTX_SANITIZE=ON
