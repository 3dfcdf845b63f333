#!/usr/bin/env python3
"""Join the patterns with Nsight Compute's counters into the measured tables
the CPU test reads.

  tabulate.py PATTERNS_TSV ADDRESSES_TSV NCU_TSV GPU_TXT OUT_LAYOUTS_TSV OUT_ADDRESSES_TSV

wavefronts = l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld + _op_st (the
instruction is a load or a store, the other counter reads 0); ideal =
wavefronts - l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld/_op_st,
Nsight Compute's own count of the conflict-free wavefronts.
"""
import csv
import sys

LD, ST = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
CLD, CST = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"


def counts(row):
    value = lambda k: int(float(row[k])) if row.get(k, "") not in ("", "n/a") else 0
    wavefronts = value(LD) + value(ST)
    return wavefronts, wavefronts - (value(CLD) + value(CST))


def main():
    patterns_tsv, addresses_tsv, ncu_tsv, gpu_txt, out_layouts, out_addresses = sys.argv[1:7]
    measured = {int(r["line"]): r for r in csv.DictReader(open(ncu_tsv), delimiter="\t")}
    name, driver = [f.strip() for f in open(gpu_txt).read().split(",")[:2]]
    header = (f"# Measured on an {name} (driver {driver}) with Nsight Compute: ncu --clock-control none --metrics\n"
              f"# {LD},{ST} (and the bank-conflict counters for ideal),\n"
              "# one warp executing one instruction per launch (tests/gpu/bank/measure.sh).\n")
    with open(out_layouts, "w") as out:
        out.write(header + "# Each row is `layoutx bank THREADS --elem-bytes ELEM_BYTES --access ACCESS`.\n")
        out.write("threads\telem_bytes\taccess\twavefronts\tideal\tnote\n")
        for p in csv.DictReader(open(patterns_tsv), delimiter="\t"):
            i = int(p["id"])
            if i in measured:
                w, ideal = counts(measured[i])
                out.write(f"{p['threads']}\t{p['elem_bytes']}\t{p['access']}\t{w}\t{ideal}\t{p['note']}\n")
    with open(out_addresses, "w") as out:
        out.write(header + "# Raw address tables: lanes 0..ACTIVE-1 access these byte offsets.\n")
        out.write("access\tactive\tbyte_offsets\twavefronts\tideal\tnote\n")
        for p in csv.DictReader(open(addresses_tsv), delimiter="\t"):
            i = int(p["id"])
            if i in measured:
                w, ideal = counts(measured[i])
                out.write(f"{p['access']}\t{p['active']}\t{p['byte_offsets']}\t{w}\t{ideal}\t{p['note']}\n")


if __name__ == "__main__":
    main()
