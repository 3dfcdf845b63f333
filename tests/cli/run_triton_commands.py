#!/usr/bin/env python3
"""Every command that takes a layout takes a Triton layout too (tests/data/triton_commands.tsv).

Each row (tab-separated; '#' lines and the header are skipped):
  id  argv  shape  triton  cute
argv    a JSON array of the arguments after `layoutx --shape SHAPE`; "{T}" stands
        for the layout under test, "{C}" for the CuTe form (always CuTe)
shape   the tensor shape given with --shape (e.g. 16,32)
triton  a Triton layout: an encoding, a #ttg.linear attribute or LinearLayout's text
        (a JSON string when it holds line breaks, as LinearLayout's text does)
cute    the CuTe form of that layout

The row runs twice: once with {T} the Triton layout, once with {T} the CuTe
form. Both runs must give the same exit status, the same standard output (not
empty) and the same standard error, with no sanitizer report: the command
answers for the Triton layout exactly what it answers for its CuTe form (where
a command repeats its argument, the Triton text stands in the first run where
the CuTe text stands in the second: it is read as the CuTe text there).

usage: run_triton_commands.py LAYOUTX CATALOGUE.tsv [--timeout S]
"""
import argparse
import json
import subprocess
import sys

from catalogue import report, rows_of, sanitizer_report


def load(path):
    rows = []
    for n, (rid, argv, shape, triton, cute) in rows_of(path, 5):
        args = json.loads(argv)
        if not any('{T}' in a for a in args):
            sys.exit('%s:%d: argv has no {T}' % (path, n))
        if triton.startswith('"'):
            triton = json.loads(triton)
        rows.append((rid, args, shape, triton, cute))
    return rows


def run(binary, args, shape, layout, cute, timeout):
    argv = [binary, '--shape', shape] + [a.replace('{T}', layout).replace('{C}', cute) for a in args]
    p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def check_row(binary, row, timeout):
    rid, args, shape, triton, cute = row
    try:
        code, out, err = run(binary, args, shape, triton, cute, timeout)
        got = (code, out.replace(triton, cute), err.replace(triton, cute))
        want = run(binary, args, shape, cute, cute, timeout)
    except subprocess.TimeoutExpired:
        return 'timed out after %gs' % timeout
    problems = []
    for what, (code, out, err) in (('Triton', got), ('CuTe', want)):
        if not out:
            problems.append('the %s run printed nothing (exit %d): %s' % (what, code, err[:600]))
        if sanitizer_report(err):
            problems.append(sanitizer_report(err))
    if got[0] != want[0]:
        problems.append('exit status %d, the CuTe form gives %d' % (got[0], want[0]))
    if got[1] != want[1]:
        problems.append('stdout differs:\n    Triton: %r\n    CuTe:   %r' % (got[1][:400], want[1][:400]))
    if got[2] != want[2]:
        problems.append('stderr differs:\n    Triton: %r\n    CuTe:   %r' % (got[2][:600], want[2][:600]))
    return '; '.join(problems) if problems else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('layoutx')
    ap.add_argument('catalogue')
    ap.add_argument('--timeout', type=float, default=60.0)
    a = ap.parse_args()
    rows = load(a.catalogue)
    return report(rows, lambda row: check_row(a.layoutx, row, a.timeout))


if __name__ == '__main__':
    sys.exit(main())
