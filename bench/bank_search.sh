#!/usr/bin/env bash
# Swizzle-search throughput, run by hand: candidates per second on tiles of
# growing size (128-bit row stores + ldmatrix.x4 reads of a half tile), and
# the whole search's time as a ratio of scoring the given tile alone (same
# run, same process start-up), so the numbers compare across machines.
#   bench/bank_search.sh [path/to/layoutx]
set -euo pipefail
layoutx=${1:-build/layoutx}
runs=5

median_ms() {  # median wall time of a command, in ms
  local times=()
  for _ in $(seq $runs); do
    local t0 t1
    t0=$(date +%s%N); "$@" >/dev/null; t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p" | awk '{printf "%.2f", $1 / 1000}'
}

printf '%-8s %-10s %-12s %-10s %-10s %s\n' rows candidates per-cpu-sec search-ms given-ms ratio
for rows in 16 64 128 256; do
  instr=$(( rows / 4 ))   # 32 lanes store 4 rows of 64 halves
  reads=$(( rows / 16 ))  # each ldmatrix.x4 covers 16 rows x 16 columns; 4 across
  tile="($rows,64):(64,1)"
  write="st128:(8,4,$instr):($(( rows * 8 )),1,4)"
  read="ldsm4:(16,2,$reads,4):(1,$(( rows * 8 )),16,$(( rows * 16 )))"
  stats=$("$layoutx" swizzle-search "$tile" --elem-bytes 2 --write "$write" --read "$read" --stats | tail -1)
  candidates=$(echo "$stats" | awk '{print $2}')
  per_second=$(echo "$stats" | awk '{print $10}')
  search=$(median_ms "$layoutx" swizzle-search "$tile" --elem-bytes 2 --write "$write" --read "$read")
  given=$(median_ms "$layoutx" swizzle-search "$tile" --elem-bytes 2 --write "$write" --read "$read" --no-swizzle --no-padding)
  printf '%-8s %-10s %-12s %-10s %-10s %s\n' "$rows" "$candidates" "$per_second" "$search" "$given" \
    "$(awk -v a="$search" -v b="$given" 'BEGIN {printf "%.1fx", a / b}')"
done
