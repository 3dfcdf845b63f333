#!/usr/bin/env python3
"""`layoutx run` on short programs from standard input: where and how it
refuses them, what it prints before a run-time failure, kernel launches.

Each row of the tab-separated TABLE: the program (\\n for a newline), the exit
status, standard output (\\n escapes), a piece of the message on stderr, and
LINE:COL where the message points (empty: not checked). Whole programs with
CuTe's output are replayed by run_programs.py."""
import argparse
import pathlib
import subprocess
import sys


def unescape(text):
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            out.append({"n": "\n", "t": "\t", "\\": "\\"}.get(text[i + 1], "\\" + text[i + 1]))
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def run(layoutx, args, stdin=None):
    return subprocess.run([layoutx, "run", *args], input=stdin, capture_output=True, timeout=60)


def check_row(layoutx, row):
    program, status, stdout, message, place = row
    r = run(layoutx, ["-"], unescape(program).encode())
    problems = []
    if r.returncode != int(status):
        problems.append(f"exit {r.returncode}, want {status}")
    if r.stdout.decode(errors="replace") != unescape(stdout):
        problems.append(f"stdout {r.stdout!r}, want {unescape(stdout)!r}")
    err = r.stderr.decode(errors="replace")
    if message and message not in err:
        problems.append(f"stderr {err!r} lacks {message!r}")
    if place and f"<stdin>:{place}:" not in err:
        problems.append(f"stderr {err!r} not at {place}")
    return f"{program!r}: " + "; ".join(problems) if problems else None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("layoutx")
    p.add_argument("table")
    a = p.parse_args()
    failures, count = [], 0
    for line in pathlib.Path(a.table).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        count += 1
        f = check_row(a.layoutx, line.split("\t"))
        if f:
            failures.append(f)
    for f in failures:
        print(f)
    print(f"{count - len(failures)} of {count} programs answered as expected")
    return 1 if failures or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
