#!/usr/bin/env bash
# The analyses' cost, run by hand, each as a ratio against a baseline in the
# same run so the numbers compare across machines:
#   info (with the properties) and explain (tracing on) vs eval, over every
#   golden expression; coalescing and eq (a swizzled layout, walked index by
#   index) vs streaming the same layout's offsets.
#   bench/analysis.sh [path/to/layoutx] [path/to/baseline-layoutx]
# With a baseline binary built from the same tree with the trace points
# compiled out (cmake ... -DCMAKE_CXX_FLAGS=-DLAYOUTX_NO_TRACE), eval is timed
# with both: the ratio is what the trace points cost while tracing is off.
set -euo pipefail
layoutx=${1:-build/layoutx}
baseline=${2:-}
runs=5
cd "$(dirname "$0")/.."

median_ms() {  # median wall time of a command reading $input, in ms
  local times=()
  for _ in $(seq $runs); do
    local t0 t1
    t0=$(date +%s%N); "$@" <"$input" >/dev/null 2>&1 || true; t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p" | awk '{printf "%.1f", $1 / 1000}'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2fx", a / b}'; }

# Median over $runs of time(A) / time(B), the two run back to back each time:
# on a busy machine the load drifts, and a ratio of neighbours drifts least.
paired_ratio() {  # paired_ratio "A command" "B command" (each reads $input)
  local ratios=()
  for _ in $(seq $runs); do
    local t0 t1 t2
    t0=$(date +%s%N); eval "$1" <"$input" >/dev/null 2>&1 || true
    t1=$(date +%s%N); eval "$2" <"$input" >/dev/null 2>&1 || true
    t2=$(date +%s%N)
    ratios+=($(awk -v a=$((t1 - t0)) -v b=$((t2 - t1)) 'BEGIN {printf "%.3f", a / b}'))
  done
  printf '%s\n' "${ratios[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p" | awk '{printf "%.2fx", $1}'
}

input=$(mktemp)
trap 'rm -f "$input"' EXIT
python3 -c '
import json, sys
exprs = [json.loads(l)["expr"] for l in open("tests/data/golden/cases.jsonl")]
sys.stdout.write("\n".join(exprs * 4) + "\n")' >"$input"
echo "golden expressions x4: $(wc -l <"$input")"
eval_ms=$(median_ms "$layoutx" eval -)
info_ms=$(median_ms "$layoutx" info -)
explain_ms=$(median_ms "$layoutx" explain -)
printf '%-34s %10s ms\n' "eval" "$eval_ms"
printf '%-34s %10s ms  %s of eval\n' "info (with properties)" "$info_ms" "$(ratio "$info_ms" "$eval_ms")"
printf '%-34s %10s ms  %s of eval\n' "explain (tracing on)" "$explain_ms" "$(ratio "$explain_ms" "$eval_ms")"
if [[ -n $baseline ]]; then
  printf '%-34s %10s     %s of the baseline (paired runs)\n' "eval, trace points off" "" \
    "$(paired_ratio "$layoutx eval -" "$baseline eval -")"
fi

: >"$input"
printf '\n%-34s %10s %10s %10s\n' "layout" "offsets-ms" "analysis" "ratio"
for threads in 4096 65536 1048576; do
  tv="($threads,8):(8,1)"
  offsets_ms=$(median_ms "$layoutx" offsets "$tv")
  coalescing_ms=$(median_ms "$layoutx" coalescing -e 2 "$tv")
  printf '%-34s %10s %10s %10s\n' "coalescing $tv" "$offsets_ms" "$coalescing_ms" "$(ratio "$coalescing_ms" "$offsets_ms")"
done
for rows in 512 4096 16384; do
  sw="Sw<3,4,3> o ($rows,512):(512,1)"
  offsets_ms=$(median_ms "$layoutx" offsets "$sw")
  eq_ms=$(median_ms "$layoutx" eq -q "$sw" "($rows,512):(512,1)")
  printf '%-34s %10s %10s %10s\n' "eq $sw" "$offsets_ms" "$eq_ms" "$(ratio "$eq_ms" "$offsets_ms")"
done
