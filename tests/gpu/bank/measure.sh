#!/usr/bin/env bash
# Rerun the bank-conflict measurements on a machine with an sm_90 GPU, nvcc
# and Nsight Compute. probe_input.txt comes from patterns.py (run it first,
# where layoutx is built). Results land in $OUT (default /tmp/bank_out):
# ncu.tsv (per pattern line, every counter), metrics.txt, sass.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/bank_out}
mkdir -p "$out"
command -v ncu >/dev/null || { echo "ncu not found" >&2; exit 1; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee "$out/gpu.txt"
nvcc -arch=sm_90 -O2 -o /tmp/bank_probe "$here/bank_probe.cu"
cuobjdump --dump-sass /tmp/bank_probe | grep -E 'Function|LDS|STS|LDSM|STSM' > "$out/sass.txt" || true
/tmp/bank_probe "$here/probe_input.txt"  # a plain run first: every pattern must launch cleanly
python3 "$here/run_ncu.py" /tmp/bank_probe "$here/probe_input.txt" "$out" "${DEADLINE:-420}"
