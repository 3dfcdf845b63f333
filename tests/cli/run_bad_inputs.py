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

Rows that differ only in their last argument, an expression of one line
(eval, print, offsets or info refusing it with exit status 1), go through one
process as lines of standard input (`layoutx ... CMD -`), each preceded by a
boundary expression on stdout and one on stderr, so that each row's stdout
(which must be empty) and stderr are its own; the first --sample rows of each
such group also run one process each, for their exit status. --per-process
runs every row in a process of its own.

usage: run_bad_inputs.py LAYOUTX CATALOGUE.tsv [--jobs J] [--timeout S] [--min-rows N]
                         [--sample N] [--per-process]
"""
import argparse
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from catalogue import rows_of, verdict

# Commands that read their expressions as lines of standard input ('-').
LINE_COMMANDS = ('eval', 'print', 'offsets', 'info')
# The boundary expressions: one whose output no row gives, one whose error no row gives.
STDOUT_BOUNDARY = '2:987654321'
STDERR_BOUNDARY = 'zz_row_boundary_zz'


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


def encoded(text):
    return text.encode('utf-8', 'surrogateescape')


def run_row(binary, row, timeout):
    rid, _, args, code, needle = row
    argv = [os.fsencode(binary)] + [encoded(a) for a in args]
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 'timed out after %gs' % timeout
    return verdict(p.returncode, p.stdout, p.stderr, code, '', needle)


def batch_key(row):
    """The arguments before the expression when the row can go through standard
    input with others (a rejected expression of one line), else None."""
    _, _, args, code, _ = row
    if code != 1 or len(args) < 2 or args[-2] not in LINE_COMMANDS or args[-1].startswith(('-', '[')):
        return None  # an option, or a bracketed argument the command line itself refuses
    if not args[-1].strip() or re.search(r'[\x00-\x1f\x7f]', args[-1]):
        return None  # a blank line is skipped, and a line break or control byte would change the line
    return tuple(args[:-1])


def run_batch(binary, prefix, rows, timeout):
    """-> one problem (None: passed) per row, from one process reading the rows'
    expressions on standard input."""
    argv = [os.fsencode(binary)] + [encoded(a) for a in prefix]
    marks = []
    for boundary in (STDOUT_BOUNDARY, STDERR_BOUNDARY):
        p = subprocess.run(argv + [boundary.encode()], stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
        marks.append(p.stdout if boundary == STDOUT_BOUNDARY else p.stderr)
    if not marks[0] or not marks[1]:
        return ['the boundary expressions gave no output'] * len(rows)
    lines = b''.join(b'%s\n%s\n%s\n' % (STDOUT_BOUNDARY.encode(), STDERR_BOUNDARY.encode(), encoded(r[2][-1]))
                     for r in rows)
    try:
        p = subprocess.run(argv + [b'-'], input=lines, capture_output=True, timeout=timeout * len(rows))
    except subprocess.TimeoutExpired:
        return ['timed out after %gs (%d rows through standard input)' % (timeout * len(rows), len(rows))] * len(rows)
    if p.returncode != 1:
        return ['exit status %d of the rows through standard input, expected 1' % p.returncode] * len(rows)
    # An error on a line of standard input names the line; the expression given alone has none.
    err = re.sub(rb'layoutx: error: standard input, line [0-9]+: ', b'layoutx: error: ', p.stderr)
    outs, errs = p.stdout.split(marks[0])[1:], err.split(marks[1])[1:]
    if len(outs) != len(rows) or len(errs) != len(rows):
        why = 'output out of step (%d stdout and %d stderr parts for %d rows through standard input)' % (
            len(outs), len(errs), len(rows))
        return [why] * len(rows)
    return [verdict(1, o, e, 1, '', r[4]) for r, o, e in zip(rows, outs, errs)]


def run_all(binary, rows, jobs, timeout, sample):
    """-> one problem (None: passed) per row: the rows that can share a process
    through standard input do, and the first `sample` of each group also run alone."""
    groups = {}
    for i, row in enumerate(rows):
        key = batch_key(row) if sample >= 0 else None
        if key is not None:
            groups.setdefault(key, []).append(i)
    groups = {key: idx for key, idx in groups.items() if len(idx) > sample}  # else the sample is all of them
    alone = [i for i in range(len(rows)) if batch_key(rows[i]) not in groups]
    alone += [i for idx in groups.values() for i in idx[:sample]]
    results = [None] * len(rows)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        batches = {key: pool.submit(run_batch, binary, key, [rows[i] for i in idx], timeout)
                   for key, idx in groups.items()}
        singles = {i: pool.submit(run_row, binary, rows[i], timeout) for i in alone}
        for key, idx in groups.items():
            for i, problem in zip(idx, batches[key].result()):
                results[i] = problem and 'through standard input: ' + problem
        for i, fut in singles.items():
            results[i] = results[i] or fut.result()
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('layoutx')
    ap.add_argument('catalogue')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--timeout', type=float, default=20.0)
    ap.add_argument('--min-rows', type=int, default=220, help='fail when the catalogue is smaller')
    ap.add_argument('--sample', type=int, default=8, metavar='N',
                    help='rows of each group through standard input that also run alone')
    ap.add_argument('--per-process', action='store_true', help='run every row in a process of its own')
    a = ap.parse_args()

    rows = load(a.catalogue)
    results = run_all(a.layoutx, rows, a.jobs, a.timeout, -1 if a.per_process else a.sample)

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
