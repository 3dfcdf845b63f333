#!/usr/bin/env bash
# Measure every kernel program of tests/data/report on a machine with an sm_90
# GPU, nvcc and Nsight Compute: build each with nvcc for sm_90a, run it once
# plainly (it must launch cleanly), then under ncu collecting the counters
# `layoutx report --counters` predicts. Each program launches one CTA, so the
# totals are one CTA's.
#
#   CUTLASS_DIR=... OUT=... tests/gpu/report/measure.sh [KERNEL_DIR]
#
# Writes to $OUT: ncu.csv (kernel, metric, value), sass.txt (each binary's
# memory instructions, counted), build.log, gpu.txt.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kernels=${1:-$here/../../data/report}
out=${OUT:-/tmp/report_out}
bin=/tmp/report_bin
mkdir -p "$out" "$bin"
: "${CUTLASS_DIR:?set CUTLASS_DIR to a CUTLASS checkout (its include/ is used)}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
nvcc --version | tail -1 >> "$out/gpu.txt"
ncu --version | tail -1 >> "$out/gpu.txt"

build() {
  local src=$1 name
  name=$(basename "$src" .cu)
  if nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -I"$CUTLASS_DIR/include" \
       -o "$bin/$name" "$src" -lcuda > "$bin/$name.log" 2>&1; then echo "built $name"
  else echo "FAILED $name"; tail -20 "$bin/$name.log"; fi
}
export -f build
export bin CUTLASS_DIR
ls "$kernels"/*.cu | xargs -P "$(nproc)" -I{} bash -c 'build {}' > "$out/build.log" 2>&1
cat "$out/build.log" | grep -v '^built' | head -60

metrics=(
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
  l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
  smsp__sass_inst_executed_op_ldsm.sum
  smsp__sass_inst_executed_op_ldgsts.sum
  smsp__sass_inst_executed_op_global_ld.sum
  smsp__sass_inst_executed_op_global_st.sum
  smsp__sass_inst_executed_op_shared_ld.sum
  smsp__sass_inst_executed_op_shared_st.sum
)
# Counters beyond the contract's, kept where this ncu knows them: where cp.async's
# shared-memory side and TMA's traffic are counted.
ncu --query-metrics > "$out/query.txt" 2>&1
for m in l1tex__data_pipe_lsu_wavefronts_mem_shared.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum \
         l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum \
         l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum \
         smsp__sass_inst_executed_op_stsm.sum smsp__sass_inst_executed_op_shared.sum \
         smsp__inst_executed_op_ldgsts.sum l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum \
         l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum smsp__sass_inst_executed_op_ld.sum \
         smsp__sass_inst_executed_op_st.sum; do
  grep -q "^${m%.sum} " "$out/query.txt" && metrics+=("$m")
done
list=$(IFS=,; echo "${metrics[*]}")
echo "metrics: $list"
echo "kernel,metric,value" > "$out/ncu.csv"
: > "$out/sass.txt"
for exe in "$bin"/*; do
  [ -x "$exe" ] && [ -f "$exe" ] || continue
  name=$(basename "$exe")
  if ! timeout 60 "$exe"; then echo "RUN FAILED $name"; continue; fi
  timeout 120 ncu --csv --page raw --clock-control none --cache-control none --metrics "$list" \
      --log-file "$bin/$name.csv" "$exe" > /dev/null 2>&1 || echo "NCU FAILED $name"
  python3 - "$name" "$bin/$name.csv" >> "$out/ncu.csv" <<'PY'
import csv, io, sys
name, path = sys.argv[1:3]
text = open(path).read()
rows = list(csv.DictReader(io.StringIO("\n".join(l for l in text.splitlines() if l.startswith('"')))))
rows = [r for r in rows if r.get("ID", "").strip().isdigit()]
if len(rows) != 1:
    print(f"{name},launches,{len(rows)}")
for r in rows:
    for k, v in r.items():
        if "__" in k:
            print(f"{name},{k},{v.replace(',', '')}")
PY
  { echo "== $name"; cuobjdump --dump-sass "$exe" | grep -oE '\b(LDGSTS|LDG|STG|LDS|STS|LDSM|STSM|UTMALDG|HGMMA|HMMA|LDL|STL|SYNCS)[.A-Z0-9_]*' | sort | uniq -c; } >> "$out/sass.txt"
done
python3 - "$out/ncu.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
short = {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "wf_ld", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": "wf_st",
         "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": "g_ld_req", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": "g_ld_sec",
         "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum": "g_st_req", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": "g_st_sec",
         "smsp__sass_inst_executed_op_ldsm.sum": "ldsm", "smsp__sass_inst_executed_op_ldgsts.sum": "ldgsts"}
table = {}
for r in rows: table.setdefault(r["kernel"], {})[r["metric"]] = r["value"]
print("kernel".ljust(30), *[s.rjust(9) for s in short.values()])
for k, m in table.items(): print(k.ljust(30), *[str(m.get(x, "-")).rjust(9) for x in short])
PY
