#!/usr/bin/env bash
# On a machine with a CUDA GPU: the GPU tests, `check --device` on every golden
# case and on large random layouts (up to 2^32 points), `offsets --device`
# against `offsets`, and the bench. Prints a summary last.
#
#   tests/gpu/device_run.sh BIN_DIR GOLDEN_CASES [LOG_DIR]
# BIN_DIR holds layoutx, layoutx_gpu_tests and layoutx_gpu_bench (and any
# shared libraries they need, found through LD_LIBRARY_PATH).
set -uo pipefail
bin=$(realpath "$1")
golden=$(realpath "$2")
log=${3:-/tmp/layoutx-gpu}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$log"
summary=()
note() { summary+=("$*"); echo "== $*"; }
seconds() { local t0=$1; echo "$(( $(date +%s%N) / 1000000 - t0 ))"; }
now_ms() { echo "$(( $(date +%s%N) / 1000000 ))"; }

nvidia-smi -L
"$bin/layoutx" --version || { ldd "$bin/layoutx"; exit 1; }

# 1. The GPU unit tests (they read the golden cases where the build said the test data is).
data=$(strings "$bin/layoutx_gpu_tests" 2>/dev/null | grep -m1 '/tests/data$' || true)
data=${data:-$here/../data}
if [ ! -e "$data/golden/cases.jsonl" ]; then mkdir -p "$data/golden" && cp "$golden" "$data/golden/"; fi
t=$(now_ms); "$bin/layoutx_gpu_tests" > "$log/gpu_tests.txt" 2>&1; rc=$?
tail -4 "$log/gpu_tests.txt"
note "layoutx_gpu_tests: exit $rc ($(seconds $t) ms)"
cmake -DLAYOUTX="$bin/layoutx" -P "$here/../cli/device.cmake" > "$log/cli_device.txt" 2>&1
note "cli_device script: exit $?"

# 2. check --device on every golden case that CuTe answers, and the same on the CPU.
python3 -c '
import json, sys
for line in open(sys.argv[1]):
    c = json.loads(line)
    if not c["error"]: print(c["expr"])' "$golden" > "$log/golden_exprs.txt"
t=$(now_ms); "$bin/layoutx" check --device - < "$log/golden_exprs.txt" > "$log/golden_gpu.txt" 2> "$log/golden_gpu.err"
rc=$?; ms=$(seconds $t)
"$bin/layoutx" check - < "$log/golden_exprs.txt" > "$log/golden_cpu.txt" 2> /dev/null
same=$(diff <(tail -n +2 "$log/golden_gpu.txt") "$log/golden_cpu.txt" > /dev/null && echo identical || echo DIFFERENT)
note "golden: $(grep -c '^check' "$log/golden_gpu.txt") cases, exit $rc, $(grep -c '^  ok' "$log/golden_gpu.txt") ok," \
     "$(grep -c '^  FAIL' "$log/golden_gpu.txt") FAIL, $(grep -c '^  note' "$log/golden_gpu.txt") notes," \
     "$(grep -c '^  --' "$log/golden_gpu.txt") not checked, $ms ms; GPU report vs CPU report: $same"
grep -B3 '^  FAIL' "$log/golden_gpu.txt" | grep '^check' | head -5

# 3. Large random layouts, then five of 2^32 points.
python3 "$here/random_layouts.py" 2024 60 20 28 > "$log/random_exprs.txt"
cat >> "$log/random_exprs.txt" <<'EOF'
(65536,65536):(65536,1)
Sw<3,4,3> o (65536,65536):(1,65536)
logical_divide((65536,65536):(65536,1), (256,128))
composition((65536,65536):(65536,1), (65536,65536):(65536,1))
right_inverse(((256,256),(256,256)):((1,65536),(256,16777216)))
EOF
t=$(now_ms); "$bin/layoutx" check --device --limit 4294967296 - < "$log/random_exprs.txt" > "$log/random_gpu.txt" 2> "$log/random_gpu.err"
rc=$?
note "random: $(grep -c '^check' "$log/random_gpu.txt") layouts (5 of 2^32 points), exit $rc," \
     "$(grep -c '^  ok' "$log/random_gpu.txt") ok, $(grep -c '^  FAIL' "$log/random_gpu.txt") FAIL," \
     "$(grep -c 'error' "$log/random_gpu.err") errors, $(seconds $t) ms"
t=$(now_ms); "$bin/layoutx" check --device --limit 4294967296 "(65536,65536):(1,65536)" > "$log/one_2_32.txt" 2>&1
note "one check --device of 2^32 points (host walk + GPU): $(seconds $t) ms: $(grep -c '^  ok' "$log/one_2_32.txt") ok"

# 4. offsets --device against offsets, 2^27 offsets.
L='Sw<3,4,3> o ((8,2048),(8,1024)):((65536,524288),(1,8))'
t=$(now_ms); "$bin/layoutx" offsets "$L" > /dev/null; host_ms=$(seconds $t)
t=$(now_ms); "$bin/layoutx" offsets --device "$L" > /dev/null; dev_ms=$(seconds $t)
cmp <("$bin/layoutx" offsets "$L") <("$bin/layoutx" offsets --device "$L") && same=identical || same=DIFFERENT
note "offsets of 2^27: host $host_ms ms, --device $dev_ms ms, outputs $same"

# 5. The bench.
"$bin/layoutx_gpu_bench" > "$log/bench.txt" 2>&1
note "bench: exit $?"
cat "$log/bench.txt"

echo
printf '%s\n' "${summary[@]}"
