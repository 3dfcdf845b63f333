#!/usr/bin/env bash
# Peak memory is bounded by the output or by a documented limit: commands that
# once held their whole answer (or a search's whole work) in memory run under
# an address-space limit. Each either finishes within it, or fails with
# "out of memory" (or its limit's message) and exit 1 and nothing on stdout.
#   memory_limits.sh LAYOUTX
set -u
layoutx="$1"
limit_kb=$((300 * 1024))
failed=0
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# expect NAME EXIT STDERR_TEXT STDOUT ARGS...: run under the limit, stdout to a
# file; STDOUT is "empty" (nothing half-written) or "any".
expect() {
  local name="$1" want="$2" text="$3" stdout="$4"
  shift 4
  (ulimit -v "$limit_kb"; ulimit -t 60; exec "$layoutx" "$@") >"$scratch/out" 2>"$scratch/err"
  local rc=$?
  local problem=""
  [ "$rc" -eq "$want" ] || problem="exit $rc, expected $want"
  if [ -n "$text" ] && ! grep -q -F -- "$text" "$scratch/err"; then problem="$problem; stderr lacks '$text'"; fi
  if [ "$stdout" = empty ] && [ -s "$scratch/out" ]; then problem="$problem; stdout not empty"; fi
  if [ -n "$problem" ]; then
    echo "FAIL $name: $problem"
    head -c 600 "$scratch/err"
    failed=1
  else
    echo "ok   $name (exit $rc, $(wc -c <"$scratch/out") bytes out)"
  fi
}

# lookup: the matches are streamed; only their indices are kept (8 bytes
# each), so 10^8 of them exceed the limit: a message, not an abort.
expect lookup-matches 1 "out of memory" empty lookup --max-matches 100000000 "100000000:0" -o 0
# eq: the grid of differences is written row by row from two passes over the cells.
expect eq-grid-flat 1 "" any --max-cells 4194304 eq "(2048,2048):(1,2048)" "(2048,2048):(2048,1)"
# swizzle-search: every candidate replays every lane, so the lanes of all
# patterns together are capped; sixteen patterns of 8192 lanes are refused at once.
writes=()
for _ in $(seq 16); do writes+=(--write "st128:(8192):(8)"); done
expect search-lanes-capped 1 "the search replays at most" empty swizzle-search "(512,512)" --elem-bytes 2 "${writes[@]}"
# print: the grid is streamed a block of rows at a time (its output is over 250 MB here).
expect print-grid-streamed 0 "" any --max-cells 16777216 print "(4096,4096)"
exit $failed
