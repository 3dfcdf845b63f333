#!/usr/bin/env python3
"""Turn measure.sh's ncu.csv into tests/data/report/measured.tsv.

  tabulate.py OUT_DIR tests/data/report/measured.tsv
"""
import csv
import os
import sys


def main():
    out_dir, target = sys.argv[1:3]
    gpu = open(os.path.join(out_dir, "gpu.txt")).read().strip().splitlines()
    rows = list(csv.DictReader(open(os.path.join(out_dir, "ncu.csv"))))
    with open(target, "w") as f:
        f.write("# Measured with Nsight Compute (ncu --clock-control none --cache-control none --metrics ...)\n")
        f.write("# on " + "; ".join(gpu) + ",\n")
        f.write("# one launch of one CTA per program of this directory (tests/gpu/report/measure.sh).\n")
        f.write("kernel\tmetric\tvalue\n")
        for r in rows:
            if r["metric"] == "launches" or not r["metric"].endswith(".sum") or r["metric"].startswith(("gpu__", "profiler__")):
                continue
            value = r["value"].strip()
            if value.replace(".", "", 1).isdigit():
                f.write(f"{r['kernel']}\t{r['metric']}\t{int(float(value))}\n")


if __name__ == "__main__":
    main()
