#!/usr/bin/env python3
"""Run the probe under Nsight Compute, one kernel per pattern, and tabulate the
shared-memory wavefront counters of every launch.

  run_ncu.py PROBE PROBE_INPUT OUT_DIR [DEADLINE_SECONDS]

Writes OUT_DIR/ncu.tsv: the pattern's line number in PROBE_INPUT, then one
column per metric. Patterns go through ncu in chunks so that a run stopped by
the deadline keeps what it measured.
"""
import csv
import io
import os
import subprocess
import sys
import time

REQUIRED = [
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
]
OPTIONAL = [
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "smsp__sass_inst_executed_op_ldsm.sum",
    "smsp__sass_inst_executed_op_stsm.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_ideal.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld_ideal.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st_ideal.sum",
    "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared.sum",
]
CHUNK = 120


def available(out_dir):
    """Metric base names this ncu knows, from --query-metrics (empty if it failed)."""
    try:
        text = subprocess.run(["ncu", "--query-metrics"], capture_output=True, text=True, timeout=120).stdout
    except Exception:
        return None
    with open(os.path.join(out_dir, "metrics.txt"), "w") as f:
        f.write("\n".join(l for l in text.splitlines() if "shared" in l or "ldsm" in l or "stsm" in l or "ideal" in l))
    return {line.split()[0] for line in text.splitlines() if line.strip()}


def main():
    probe, probe_input, out_dir = sys.argv[1:4]
    deadline = time.time() + (float(sys.argv[4]) if len(sys.argv) > 4 else 420)
    names = available(out_dir)
    metrics = REQUIRED + [m for m in OPTIONAL if names and m.rsplit(".", 1)[0] in names]
    print("metrics:", ",".join(metrics), flush=True)
    lines = [l for l in open(probe_input) if l.strip() and not l.startswith("#")]
    rows = []
    for start in range(0, len(lines), CHUNK):
        if time.time() > deadline:
            print(f"deadline: stopped before pattern {start}", flush=True)
            break
        chunk_path = f"/tmp/bank_chunk_{start}.txt"
        log_path = f"/tmp/bank_chunk_{start}.csv"
        with open(chunk_path, "w") as f:
            f.writelines(lines[start:start + CHUNK])
        t0 = time.time()
        cmd = ["ncu", "--csv", "--page", "raw", "--clock-control", "none", "--cache-control", "none",
               "--metrics", ",".join(metrics), "--log-file", log_path, probe, chunk_path]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=max(30, deadline - time.time() + 60))
        if done.returncode != 0:
            print(done.stdout[-2000:], done.stderr[-2000:], flush=True)
        text = open(log_path).read() if os.path.exists(log_path) else ""
        records = list(csv.DictReader(io.StringIO("\n".join(l for l in text.splitlines() if l.startswith('"')))))
        records = [r for r in records if r.get("ID", "").strip().isdigit()]  # drop the units row
        if len(records) != len(lines[start:start + CHUNK]):
            print(f"chunk {start}: {len(records)} kernels for {len(lines[start:start + CHUNK])} patterns", flush=True)
            print(text[-3000:], flush=True)
        for r in records:
            rows.append([start + int(r["ID"])] + [r.get(m, "").replace(",", "") for m in metrics])
        print(f"chunk {start}: {len(records)} kernels in {time.time() - t0:.1f}s", flush=True)
    with open(os.path.join(out_dir, "ncu.tsv"), "w") as f:
        f.write("\t".join(["line"] + metrics) + "\n")
        for r in rows:
            f.write("\t".join(map(str, r)) + "\n")
    print(f"measured {len(rows)} of {len(lines)} patterns", flush=True)


if __name__ == "__main__":
    main()
