#!/usr/bin/env bash
# layoutx's speed figures, each measured against its baseline in the
# same run and printed as a ratio, as a Markdown table for bench/RESULTS.md:
#   (a) offsets of a 2^24-element layout, plain and swizzled, vs `seq` and vs
#       a naive program (the general evaluator per index + printf);
#   (b) --format csv/tsv/json/jsonl vs plain;
#   (c) peak memory of offsets at 2^24 and 2^30 elements;
#   (d) whole-process time of `print` and `eval` vs a hello-world built alike,
#       and the instructions each process runs (callgrind, where valgrind is installed);
#   (e) batch mode: 10^6 small expressions on stdin (on every core, and on one thread);
#   (f) a 1024x1024 print grid;
#   (g) the algebra on layouts with 16 modes and depth 4 (bench/algebra_bench.cpp);
#   (h) print per cell against offsets, peak memory of print and of 10^6 stdin lines;
#   (k) `layoutx run` of a 100-line CuTe program vs g++ compiling it (CUTLASS_DIR);
#   (i) the algebra through `eval -` against pycute (bench/vs_pycute.py), when
#       PYCUTE_DIR names the directory holding CUTLASS's pycute package;
#   (j) side by side with earlier builds (bench/compare.sh), when BASELINES
#       lists them as NAME=LAYOUTX words.
# Usage: bench/run.sh [--quick | --startup]   (--quick: fewer runs, skips the 2^30 table;
#        --startup: the machine and the two start-up tables (d) only)
# Times are medians over the runs (hyperfine when installed, else a loop).
# BUILD names the build folder (build-bench), CMAKE_ARGS adds to its configuration
# (as in CMAKE_ARGS=-DLAYOUTX_CUDA=OFF).
set -euo pipefail
cd "$(dirname "$0")/.."

QUICK=0 STARTUP_ONLY=0
[[ ${1:-} == --quick ]] && QUICK=1
[[ ${1:-} == --startup ]] && STARTUP_ONLY=1
BUILD=${BUILD:-build-bench}

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
read -ra cmake_args <<<"${CMAKE_ARGS:-}"
build_log=$(mktemp)
# Built as the README and CI build layoutx (a unity build): file by file, each
# of the command line's 36 files (CLI11 is their precompiled header) makes and
# destroys its own copy of CLI11's validator objects at every start.
if ! { cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON -DLAYOUTX_BUILD_BENCH=ON \
         -DLAYOUTX_BUILD_TESTS=OFF "${launcher[@]}" "${cmake_args[@]}" &&
       cmake --build "$BUILD" --target layoutx layoutx_bench_naive layoutx_bench_hello layoutx_bench_algebra; } \
     >"$build_log" 2>&1; then
  cat "$build_log" >&2
  echo "bench/run.sh: the build failed" >&2
  exit 1
fi
rm -f "$build_log"

LX=$BUILD/layoutx
NAIVE=$BUILD/bench/layoutx_bench_naive
HELLO=$BUILD/bench/layoutx_bench_hello
ALGEBRA=$BUILD/bench/layoutx_bench_algebra
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

L24='((32,128),(32,128)):((1,1024),(32,131072))'
S24="Sw<3,4,3> o $L24"
L30='((32,1024),(32,1024)):((1,1024),(32,1048576))'
# A hard case for the odometer: the innermost mode has extent 2, so a run is two rows.
LSHORT='((2,2048),(2,2048)):((8388608,1),(4194304,2048))'

# median_seconds RUNS COMMAND...: the median wall time of COMMAND (stdout to /dev/null).
median_seconds() {
  local runs=$1
  shift
  if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 1 --runs "$runs" --output=null --export-json "$WORK/h.json" -- "$(printf '%q ' "$@")" \
      >/dev/null 2>&1
    python3 -c 'import json,sys; print("%.6f" % json.load(open(sys.argv[1]))["results"][0]["median"])' "$WORK/h.json"
  else
    local times=() t0 t1
    for ((i = 0; i < runs; i++)); do
      t0=$(date +%s%N)
      "$@" >/dev/null
      t1=$(date +%s%N)
      times+=($((t1 - t0)))
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.6f\n", a[int((NR+1)/2)]/1e9}'
  fi
}

# Many short runs of a process (RUNS of them): hyperfine's median, or a loop's mean.
median_startup() {
  local runs=$1
  shift
  if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 10 --runs "$runs" --output=null --export-json "$WORK/h.json" -- "$(printf '%q ' "$@")" \
      >/dev/null 2>&1
    python3 -c 'import json,sys; print("%.6f" % json.load(open(sys.argv[1]))["results"][0]["median"])' "$WORK/h.json"
  else
    local t0 t1
    t0=$(date +%s%N)
    for ((i = 0; i < runs; i++)); do "$@" >/dev/null; done
    t1=$(date +%s%N)
    awk -v ns=$((t1 - t0)) -v n="$runs" 'BEGIN {printf "%.6f\n", ns/n/1e9}'
  fi
}

median_of() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

peak_kib() {
  if [[ -x /usr/bin/time ]]; then
    /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1
  else
    echo "n/a"
  fi
}

row() {  # figure, layoutx seconds, baseline name, baseline seconds, target text
  awk -v f="$1" -v a="$2" -v bn="$3" -v b="$4" -v t="$5" \
    'BEGIN {printf "| %s | %.3f s | %s %.3f s | %.2f | %s |\n", f, a, bn, b, a/b, t}'
}

row_ms() {  # the same in milliseconds, for process start-up
  awk -v f="$1" -v a="$2" -v bn="$3" -v b="$4" -v t="$5" \
    'BEGIN {printf "| %s | %.2f ms | %s %.2f ms | %.2f | %s |\n", f, a*1e3, bn, b*1e3, a/b, t}'
}

# The instructions a whole process runs, the loader, static initialisers and
# exit included (valgrind's callgrind): unlike its time, the count does not
# move with the machine's load.
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/^==[0-9]*== Collected : //p'
}

row_instructions() {  # command, layoutx instructions, baseline name, baseline instructions, target
  awk -v f="$1" -v a="$2" -v bn="$3" -v b="$4" -v t="$5" \
    'BEGIN {printf "| %s | %.2f M | %s %.2f M | %.2f | %s |\n", f, a/1e6, bn, b/1e6, a/b, t}'
}

# (d): start-up of print and eval against the hello-world, in time and in instructions.
startup_tables() {
  echo "## Start-up: whole-process time"
  echo
  echo "| command | layoutx | baseline | ratio | target |"
  echo "| --- | --- | --- | --- | --- |"
  # Rounds that alternate the three programs, so that a change in the machine's
  # load between measurements does not land on one of them only.
  hello_rounds=() print_rounds=() eval_rounds=()
  for ((round = 0; round < (QUICK ? 2 : 5); round++)); do
    hello_rounds+=("$(median_startup 60 "$HELLO")")
    print_rounds+=("$(median_startup 60 "$LX" print '(4,3):(3,1)')")
    eval_rounds+=("$(median_startup 60 "$LX" eval 'logical_divide((8,8):(8,1), (2,4))')")
  done
  t_hello=$(median_of "${hello_rounds[@]}")
  t_print=$(median_of "${print_rounds[@]}")
  t_eval=$(median_of "${eval_rounds[@]}")
  row_ms "layoutx print \"(4,3):(3,1)\"" "$t_print" "hello" "$t_hello" "<= 1.2"
  row_ms "layoutx eval \"logical_divide((8,8):(8,1), (2,4))\"" "$t_eval" "hello" "$t_hello" "<= 1.5"
  echo
  echo "## Start-up: instructions of the whole process"
  echo
  if ! command -v valgrind >/dev/null; then
    echo "(valgrind is not installed: not measured)"
    return
  fi
  local i_hello i_print i_eval
  i_hello=$(instructions "$HELLO")
  i_print=$(instructions "$LX" print '(4,3):(3,1)')
  i_eval=$(instructions "$LX" eval 'logical_divide((8,8):(8,1), (2,4))')
  echo "| command | layoutx | baseline | ratio | target |"
  echo "| --- | --- | --- | --- | --- |"
  row_instructions "layoutx print \"(4,3):(3,1)\"" "$i_print" "hello" "$i_hello" "<= 1.2"
  row_instructions "layoutx eval \"logical_divide((8,8):(8,1), (2,4))\"" "$i_eval" "hello" "$i_hello" "<= 1.5"
}

R=$((QUICK ? 3 : 7))
echo "## Machine"
echo
echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') ($(nproc) cores online)"
echo "- Compiler: $(${CXX:-c++} --version | head -1)"
echo "- Load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- Timer: $(command -v hyperfine >/dev/null && hyperfine --version || echo 'shell loop'), medians"
echo
if ((STARTUP_ONLY)); then
  startup_tables
  exit 0
fi
echo "## Streaming offsets (ratio = layoutx / baseline; lower is better)"
echo
echo "| figure | layoutx | baseline | ratio | target |"
echo "| --- | --- | --- | --- | --- |"
t_plain=$(median_seconds "$R" "$LX" offsets "$L24")
t_seq=$(median_seconds "$R" seq 0 16777215)
row "offsets 2^24 \`$L24\`" "$t_plain" "seq" "$t_seq" "<= 1"
t_naive=$(median_seconds 1 "$NAIVE" "$L24")
row "offsets 2^24, same layout" "$t_plain" "naive" "$t_naive" "<= 0.25"
t_swz=$(median_seconds "$R" "$LX" offsets "$S24")
row "offsets 2^24 \`Sw<3,4,3> o ...\`" "$t_swz" "seq" "$t_seq" "<= 1"
t_naive_swz=$(median_seconds 1 "$NAIVE" "$S24")
row "offsets 2^24 swizzled" "$t_swz" "naive" "$t_naive_swz" "<= 0.25"
t_short=$(median_seconds "$R" "$LX" offsets "$LSHORT")
row "offsets 2^24 \`$LSHORT\` (runs of 2)" "$t_short" "seq" "$t_seq" "<= 1"
t_short_csv=$(median_seconds "$R" "$LX" offsets -f csv "$LSHORT")
row "offsets 2^24 runs of 2, --format csv" "$t_short_csv" "plain" "$t_short" ""
for f in csv tsv json jsonl; do
  t_f=$(median_seconds "$R" "$LX" offsets -f "$f" "$L24")
  row "offsets 2^24 --format $f" "$t_f" "plain" "$t_plain" "<= 2 (csv)"
done
echo
echo "## Peak memory of offsets (maximum resident set size)"
echo
echo "| table | peak RSS | target |"
echo "| --- | --- | --- |"
echo "| 2^24 plain | $(peak_kib "$LX" offsets "$L24") KiB | <= 16384 KiB |"
echo "| 2^24 csv | $(peak_kib "$LX" offsets -f csv "$L24") KiB | <= 16384 KiB |"
if ((!QUICK)); then
  echo "| 2^30 plain \`$L30\` | $(peak_kib "$LX" offsets "$L30") KiB | <= 16384 KiB |"
fi
echo "| hello-world (for scale) | $(peak_kib "$HELLO") KiB | |"
echo
startup_tables
echo
echo "## Batch mode and big grids (absolute)"
echo
exprs=('(4,3):(3,1)' 'logical_divide((8,8):(8,1), (2,4))' 'composition((4,6):(1,4), (3,2):(2,1))'
  'complement(4:2, 32)' 'right_inverse((4,8):(8,1))' 'Sw<3,4,3> o (8,64):(64,1)'
  'coalesce(((2,4),(3,5)):((1,2),(8,24)))' 'blocked_product((2,2):(1,2), (3,4))')
for ((i = 0; i < 1000000; i++)); do echo "${exprs[i % ${#exprs[@]}]}"; done >"$WORK/batch.txt"
# Standard input is the file: median_seconds runs the command without a shell.
median_batch() {
  local times=() t0 t1
  for ((i = 0; i < R; i++)); do
    t0=$(date +%s%N)
    "$LX" "$@" - <"$WORK/batch.txt" >/dev/null
    t1=$(date +%s%N)
    times+=($((t1 - t0)))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.6f\n", a[int((NR+1)/2)]/1e9}'
}
t_batch=$(median_batch eval)
t_batch1=$(median_batch eval --jobs 1)
t_grid=$(median_seconds "$R" "$LX" --max-cells 1048576 print '(1024,1024):(1024,1)')
echo "| figure | time | per item | target |"
echo "| --- | --- | --- | --- |"
awk -v t="$t_batch" -v c="$(nproc)" 'BEGIN {printf "| eval - (10^6 small expressions, one process, %d cores) | %.3f s | %.0fk expressions/s | >= 1M/s on 2 cores |\n", c, t, 1e3/t}'
awk -v t="$t_batch1" 'BEGIN {printf "| eval --jobs 1 - (the same, one thread) | %.3f s | %.0fk expressions/s | |\n", t, 1e3/t}'
awk -v t="$t_grid" 'BEGIN {printf "| print 1024x1024 grid | %.3f s | %.1f ns/cell | well under 1 s |\n", t, t*1e9/1048576}'
echo
echo "## Algebra microbenchmark (bench/algebra_bench.cpp)"
echo
echo '```'
"$ALGEBRA"
echo '```'
echo
echo "## print against offsets, and memory of streams"
echo
LGRID='(4096,4096):(4096,1)'
t_print_grid=$(median_seconds "$R" "$LX" --max-cells 16777216 print "$LGRID")
t_offsets_grid=$(median_seconds "$R" "$LX" offsets "$LGRID")
echo "| figure | layoutx | baseline | ratio | target |"
echo "| --- | --- | --- | --- | --- |"
row "print 4096x4096 grid (2^24 cells)" "$t_print_grid" "offsets" "$t_offsets_grid" "<= 3 (1/3 of the per-cell rate)"
for ((i = 0; i < 10; i++)); do cat "$WORK/batch.txt"; done >"$WORK/million.txt"
echo
echo "| stream | peak RSS | target |"
echo "| --- | --- | --- |"
echo "| print 4096x4096 | $(peak_kib "$LX" --max-cells 16777216 print "$LGRID") KiB | <= 16384 KiB |"
echo "| eval - of 10^6 lines | $(/usr/bin/time -f %M "$LX" eval - <"$WORK/million.txt" 2>&1 >/dev/null | tail -1) KiB | <= 16384 KiB |"
echo
echo "## layoutx run: a 100-line CuTe program (bench/program_100_lines.cpp)"
echo
PROGRAM=bench/program_100_lines.cpp
t_run=$(median_startup 30 "$LX" run "$PROGRAM")
if [[ -n ${CUTLASS_DIR:-} ]]; then
  # What a print-debug round costs without layoutx: compiling the program host-only (-O0), median of 3.
  cuda=${CUDA_DIR:-/usr/local/cuda}
  t_gxx=$(median_seconds 3 g++ -std=c++17 -O0 -w -I"$CUTLASS_DIR/include" -I"$cuda/include" -I"$cuda/include/cccl" \
    -x c++ "$PROGRAM" -o "$WORK/program_100_lines")
  echo "| figure | layoutx | baseline | ratio | target |"
  echo "| --- | --- | --- | --- | --- |"
  row_ms "layoutx run $PROGRAM" "$t_run" "g++ compiling it" "$t_gxx" "layoutx <= 10 ms"
else
  echo "| figure | layoutx | target |"
  echo "| --- | --- | --- |"
  awk -v a="$t_run" 'BEGIN {printf "| layoutx run bench/program_100_lines.cpp | %.2f ms | <= 10 ms (CUTLASS_DIR unset: no g++ baseline) |\n", a*1e3}'
fi
if [[ -n ${PYCUTE_DIR:-} ]]; then
  echo
  echo "## Algebra through eval - against pycute (bench/vs_pycute.py)"
  echo
  python3 bench/vs_pycute.py "$LX"
fi
if [[ -n ${BASELINES:-} ]]; then
  echo
  echo "## Side by side with earlier builds (bench/compare.sh)"
  echo
  # shellcheck disable=SC2086
  bench/compare.sh "this=$LX" $BASELINES
fi
