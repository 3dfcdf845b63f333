#!/usr/bin/env python3
"""Run the bad-input catalogue (tests/data/bad_inputs.tsv) through the command line.

Each row of the catalogue (tab-separated; '#' lines and the header are skipped):
  id  category  argv  exit  stderr_substring
where argv is a JSON array of the arguments after `layoutx`. Bytes that are not
valid UTF-8 are written as lone surrogates (Python's surrogateescape: "\\udcff" is
the byte 0xff), so the catalogue stays plain text.

For every row the call must: exit with the expected status (1 for a rejected
expression, 2 for a usage error), write nothing on stdout, write a stderr that
contains the substring, and never show a sanitizer report. Every call has a
timeout (a hang is a failure).

usage: run_bad_inputs.py LAYOUTX CATALOGUE.tsv [--jobs J] [--timeout S] [--min-rows N]
"""
import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from catalogue import rows_of, verdict


def load(path):
    rows = []
    for n, (rid, category, argv, code, needle) in rows_of(path, 5):
        try:
            args = json.loads(argv)
        except ValueError as e:
            sys.exit('%s:%d: argv is not JSON (%s)' % (path, n, e))
        if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            sys.exit('%s:%d: argv must be a JSON array of strings' % (path, n))
        if code not in ('1', '2'):
            sys.exit('%s:%d: the exit status must be 1 or 2' % (path, n))
        if not needle:
            sys.exit('%s:%d: an empty stderr substring checks nothing' % (path, n))
        rows.append((rid, category, args, int(code), needle))
    return rows


def run_row(binary, row, timeout):
    rid, _, args, code, needle = row
    argv = [os.fsencode(binary)] + [a.encode('utf-8', 'surrogateescape') for a in args]
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 'timed out after %gs' % timeout
    return verdict(p.returncode, p.stdout, p.stderr, code, '', needle)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('layoutx')
    ap.add_argument('catalogue')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--timeout', type=float, default=20.0)
    ap.add_argument('--min-rows', type=int, default=220, help='fail when the catalogue is smaller')
    a = ap.parse_args()

    rows = load(a.catalogue)
    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        results = list(pool.map(lambda r: run_row(a.layoutx, r, a.timeout), rows))

    failed = 0
    per_category = {}
    for row, problem in zip(rows, results):
        total, bad = per_category.get(row[1], (0, 0))
        per_category[row[1]] = (total + 1, bad + (problem is not None))
        if problem:
            failed += 1
            print('FAIL %s %s: %s' % (row[0], json.dumps(row[2]), problem))
    for category, (total, bad) in sorted(per_category.items()):
        print('  %-14s %3d rows, %d failed' % (category, total, bad))
    print('%d passed, %d failed' % (len(rows) - failed, failed))
    too_small = len(rows) < a.min_rows
    if too_small:
        print('the catalogue has %d rows, fewer than %d' % (len(rows), a.min_rows))
    return 1 if failed or too_small else 0


if __name__ == '__main__':
    sys.exit(main())
