#!/usr/bin/env python3
"""Run the edge-case catalogue (tests/data/edge_cases.tsv) through the command line.

The bad-input catalogue pins what is refused; this one pins what hostile but
legal use must get: answers at integer edges within a time limit, honest exit
statuses when standard output or standard input fail, short messages for
huge inputs, and warnings next to CuTe's dubious answers.

Each row (tab-separated; '#' lines and the header are skipped):
  id  argv  stdin  stdout  exit  out_has  err_has
argv    a JSON array of the arguments after `layoutx`; an argument may be a JSON
        object {"repeat": TEXT, "count": N, "prefix": P, "suffix": S}
stdin   none (empty input) | closed | directory | a JSON string (the input) |
        a JSON object {"repeat": TEXT, "count": N, "prefix": P, "suffix": S}
stdout  pipe | full (/dev/full: every write fails)
exit    the expected exit status
out_has a JSON string stdout must contain ("" : stdout must be empty)
err_has a JSON string stderr must contain ("" : stderr must be empty)

Every call must finish within --cpu seconds of CPU (a hard limit: the process
is killed past it) and --timeout seconds of wall time, write at most 4 KiB on
stderr and show no sanitizer report.

usage: run_edge_cases.py LAYOUTX CATALOGUE.tsv [--cpu S] [--timeout S]
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile

from catalogue import report, rows_of, verdict

MAX_STDERR = 4096


def expanded(arg):
    """An argument as written, or {"repeat", "count", "prefix", "suffix"} spelled out."""
    if isinstance(arg, str):
        return arg
    return arg.get('prefix', '') + arg['repeat'] * arg['count'] + arg.get('suffix', '')


def load(path):
    rows = []
    for n, (rid, argv, stdin, stdout, code, out_has, err_has) in rows_of(path, 7):
        if stdin not in ('none', 'closed', 'directory'):
            stdin = json.loads(stdin)
        if stdout not in ('pipe', 'full'):
            sys.exit('%s:%d: stdout must be pipe or full' % (path, n))
        rows.append((rid, [expanded(a) for a in json.loads(argv)], stdin, stdout, int(code), json.loads(out_has),
                     json.loads(err_has)))
    return rows


def write_input(f, stdin):
    """Writes the row's input to f, a repeated text in blocks of about a
    megabyte (the largest inputs are megabytes: never whole in memory)."""
    if isinstance(stdin, str):
        f.write(stdin.encode('utf-8'))
        return
    f.write(stdin.get('prefix', '').encode('utf-8'))
    unit = stdin['repeat'].encode('utf-8')
    per_block = max(1, (1 << 20) // max(1, len(unit)))
    whole, rest = divmod(stdin['count'], per_block)
    block = unit * per_block
    for _ in range(whole):
        f.write(block)
    f.write(unit * rest)
    f.write(stdin.get('suffix', '').encode('utf-8'))


def run_row(binary, row, timeout, cpu, scratch):
    rid, args, stdin, stdout, code, out_has, err_has = row
    argv = [binary] + args
    closed = stdin == 'closed'

    def limits():
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
        if closed:
            os.close(0)

    stdin_file = None
    if stdin == 'directory':
        stdin_file = os.open(scratch, os.O_RDONLY | os.O_DIRECTORY)
    elif stdin not in ('none', 'closed'):
        f = tempfile.TemporaryFile()
        write_input(f, stdin)
        f.seek(0)
        stdin_file = f
    full = open('/dev/full', 'wb') if stdout == 'full' else None
    try:
        p = subprocess.run(argv, stdin=stdin_file if stdin_file is not None else subprocess.DEVNULL,
                           stdout=full if full else subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout, preexec_fn=limits)
    except subprocess.TimeoutExpired:
        return 'timed out after %gs' % timeout
    finally:
        if isinstance(stdin_file, int):
            os.close(stdin_file)
        elif stdin_file is not None:
            stdin_file.close()
        if full:
            full.close()
    return verdict(p.returncode, p.stdout, p.stderr, code, out_has, err_has, MAX_STDERR)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('layoutx')
    ap.add_argument('catalogue')
    ap.add_argument('--timeout', type=float, default=60.0)
    ap.add_argument('--cpu', type=int, default=2)
    a = ap.parse_args()
    rows = load(a.catalogue)
    with tempfile.TemporaryDirectory() as scratch:
        return report(rows, lambda row: run_row(a.layoutx, row, a.timeout, a.cpu, scratch))


if __name__ == '__main__':
    sys.exit(main())
