#!/usr/bin/env python3
"""Mutation fuzzing of `layoutx run` through the built binary: the corpus
programs (tests/data/programs/*.jsonl) cut, spliced, repeated and sprinkled with
C++ tokens, each run from standard input under a small step limit. A finding
is a crash (a signal), an exit status other than 0 and 1, an answer slower
than --seconds, an "internal error", or output kept after a compile-time
error. Findings are written to fuzz/program_regressions/ candidates (--out).

With --report the seeds are the kernels of tests/data/report/*.cu, run through
`layoutx report` (half of them with a random --problem and --cta), the report's
own surfaces: TMA copies, copy_if predicates, gemm call sites.

usage: mutate_programs.py LAYOUTX [--runs N] [--seed S] [--seconds T] [--out DIR] [--report]
       mutate_programs.py --write-seeds DIR      (the corpus programs, one file each)
"""
import argparse
import glob
import json
import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOKENS = ["for (;;) {", "while (1)", "{", "}", "(", ")", "<", ">", "<<<", ">>>", ";", ",", "::", "auto x = ",
          "int", "Int<", "_4{}", "make_layout(", "print(", "printf(\"%d %s %*d\\n\", ", "print_layout(", "\"",
          "'", "/*", "//", "#include <x>\n", "template <class T>", "__global__ void k() {", "k<<<2, 4>>>();",
          "static_assert(", "decltype(", "using T = ", "[", "]", "->", ".", "++", "--", "? :", "0x7fffffffffffffff",
          "-9223372036854775808", "1 << 63", "/ 0", "% 0", "thread(", "threadIdx.x", "return", "break;",
          "continue;", "new", "sizeof(", "(int)", "static_cast<int>(", "\\", "\n", "\0", "\xff"]


def report_kernels():
    progs = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "data", "report", "*.cu"))):
        with open(path) as f:
            progs.append(f.read())
    return progs


def report_command(rng, layoutx):
    command = [layoutx, "report", "-", "--max-steps", "1000000"]
    if rng.randrange(2):
        problem = ",".join(str(rng.choice([1, 7, 63, 64, 65, 100, 129, 4096, (1 << 31) - 1])) for _ in range(rng.randint(1, 3)))
        command += ["--problem", problem, "--cta", "%d,%d" % (rng.randrange(3), rng.randrange(3))]
    command += [rng.choice(["--counters", "--json", "--counters"])]
    return command


def corpus():
    progs = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "data", "programs", "*.jsonl"))):
        with open(path) as f:
            progs += [json.loads(l)["program"] for l in f if l.strip()]
    return progs


def mutate(rng, progs):
    text = rng.choice(progs)
    for _ in range(rng.randint(1, 6)):
        i, j = sorted(rng.randrange(len(text) + 1) for _ in range(2))
        op = rng.randrange(6)
        if op == 0:
            text = text[:i] + text[j:]
        elif op == 1:
            text = text[:i] + rng.choice(TOKENS) + text[i:]
        elif op == 2:
            other = rng.choice(progs)
            a, b = sorted(rng.randrange(len(other) + 1) for _ in range(2))
            text = text[:i] + other[a:b] + text[j:]
        elif op == 3:
            text = text[:i] + text[i:j] * rng.randint(2, 50) + text[j:]
        elif op == 4:
            text = text[:i] + "(" * rng.randint(1, 300) + text[i:]
        else:
            text = text[:i] + chr(rng.randrange(1, 256)) + text[i + 1:]
    return text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("layoutx", nargs="?")
    ap.add_argument("--runs", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--out", default=os.path.join(ROOT, "fuzz", "corpus-run", "program-findings"))
    ap.add_argument("--write-seeds")
    ap.add_argument("--report", action="store_true")
    a = ap.parse_args()
    progs = report_kernels() if a.report else corpus()
    if a.write_seeds:
        os.makedirs(a.write_seeds, exist_ok=True)
        for k, p in enumerate(progs):
            with open(os.path.join(a.write_seeds, "p%04d.cpp" % k), "w") as f:
                f.write(p)
        print("%d seeds in %s" % (len(progs), a.write_seeds))
        return 0
    rng = random.Random(a.seed)
    findings, slowest = 0, (0.0, "")
    for k in range(a.runs):
        text = mutate(rng, progs)
        data = text.encode("utf-8", "surrogateescape")
        start = time.monotonic()
        try:
            command = report_command(rng, a.layoutx) if a.report else [a.layoutx, "run", "-", "--max-steps", "100000"]
            r = subprocess.run(command, input=data, capture_output=True,
                               timeout=max(10.0, a.seconds * 3))
            status, err, out = r.returncode, r.stderr.decode("utf-8", "replace"), r.stdout
        except subprocess.TimeoutExpired:
            status, err, out = "timeout", "", b""
        took = time.monotonic() - start
        slowest = max(slowest, (took, "run %d" % k))
        why = None
        if status not in (0, 1):
            why = "exit status %s" % status
        elif took > a.seconds:
            why = "took %.2f s" % took
        elif "internal error" in err:
            why = "internal error: " + err.strip().split("\n")[0]
        elif status == 1 and out and ("static assertion" in err or "expected" in err or "unknown" in err):
            why = "output after what looks like a compile-time error: " + err.strip().split("\n")[0]
        if why:
            findings += 1
            os.makedirs(a.out, exist_ok=True)
            name = os.path.join(a.out, "finding-%d-%d" % (a.seed, k))
            with open(name, "wb") as f:
                f.write(data)
            print("%s: %s%s" % (name, why, " (%s)" % " ".join(command[2:]) if a.report else ""))
    print("%d runs, %d findings, slowest %.3f s (%s)" % (a.runs, findings, slowest[0], slowest[1]))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
