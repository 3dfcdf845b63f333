#!/usr/bin/env bash
# Fuzz layoutx for SECONDS (default 60): configures and builds build-fuzz
# (clang, libFuzzer, ASan+UBSan) if needed, then runs one fuzzing job with the
# dictionary, the seed corpus fuzz/corpus/ (read only) and fuzz/corpus-run/
# (new inputs, crash artifacts and logs; ignored by git).
#   fuzz/run.sh [SECONDS] [extra libFuzzer flags...]
# Environment: BUILD_DIR (default build-fuzz); FUZZ_TARGET=fuzz_programs fuzzes layoutx run
# (seed it with FUZZ_CORPUS=DIR, as fuzz/mutate_programs.py --write-seeds DIR makes one).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-60}"
shift || true
build="${BUILD_DIR:-$root/build-fuzz}"

if [ ! -f "$build/build.ninja" ]; then
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DLAYOUTX_FUZZ=ON -DLAYOUTX_SANITIZE=ON \
    -DLAYOUTX_BUILD_TESTS=OFF "${launcher[@]}"
fi
target="${FUZZ_TARGET:-fuzz_layoutx}"
cmake --build "$build" --target "$target"

run="$root/fuzz/corpus-run"
mkdir -p "$run/inputs" "$run/crashes" "$run/logs"
log="$run/logs/$(date +%Y%m%d-%H%M%S).log"
echo "fuzzing for ${seconds}s; log: $log"
status=0
"$build/fuzz/$target" "$run/inputs" "${FUZZ_CORPUS:-$root/fuzz/corpus}" \
  -dict="$root/fuzz/layoutx.dict" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
  -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 \
  -artifact_prefix="$run/crashes/" "$@" >"$log" 2>&1 || status=$?
# How many inputs ran (the final stats); a crash leaves an artifact.
grep -E 'INITED|DONE|stat::number_of_executed_units|stat::new_units_added|^SUMMARY' "$log" || true
if [ "$status" -ne 0 ] || grep -q -E '^==[0-9]+==ERROR|^SUMMARY:|runtime error|deadly signal' "$log"; then
  echo "findings: see $run/crashes/ and $log" >&2
  exit 1
fi
echo "no findings"

