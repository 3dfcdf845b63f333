#!/usr/bin/env python3
"""Replay whole CuTe programs through `layoutx run`: stdout byte for byte, exit status.

Every line of DATA/*.jsonl is a program with CuTe's answer (tests/differential/
program_runner.py compiled and ran it; device.jsonl was printed by a GPU):
  id, group, program (the C++ text), flags (given after `layoutx run FILE`),
  stdout, exit, and for a program the compiler refuses `reason` (g++'s message:
  stdout must stay empty and stderr must name the reason: at least half the words
  of a static assertion's message), for one failing at run time `runtime`
  (stdout: what it printed before failing).

Programs listed in DATA/known_failures.txt (one `ID  why` a line; '#' comments)
are the ones `layoutx run` does not answer yet: they are reported apart and do
not fail the test, but a listed program that now passes does (delete its line:
`--prune` rewrites the list without every listed program that passes).

usage: run_programs.py LAYOUTX DATA_DIR [--jobs J] [--only ID,...] [--group G]
                       [--prune] [--list-failures] [--write DIR] [--quiet]
  --write DIR      write every program to DIR/ID.cpp (with its flags in ID.flags) and stop
  --list-failures  print `ID  first difference` for every failing program (a known-failures list)
"""
import argparse
import collections
import concurrent.futures
import difflib
import json
import os
import re
import subprocess
import sys
import tempfile

TIMEOUT = 20


def load(data_dir):
    progs = []
    for name in sorted(os.listdir(data_dir)):
        if name.endswith('.jsonl'):
            with open(os.path.join(data_dir, name)) as f:
                progs += [json.loads(l) for l in f if l.strip()]
    return progs


def read_known(path):
    known = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip() and not line.startswith('#'):
                    pid, _, why = line.strip().partition(' ')
                    known[pid] = why.strip()
    return known


# g++'s own diagnostics (not a static assertion's message)
GXX_OWN = ('no matching', 'no match', 'incomplete type', 'invalid', 'conflicting', 'expected', 'cannot', 'could not',
           'void value', 'use of deleted', 'call of overloaded', 'request for member', 'template argument')
WORD = re.compile(r'[A-Za-z]{4,}')


def names_reason(prog, stderr):
    """stderr names a static assertion's message: half of its words, loosely"""
    reason = prog.get('reason', '')
    assertion = prog.get('where', '').startswith('cute/') or reason.startswith(('CUTE_STATIC_ASSERT', 'static_assert'))
    if not assertion or '\u2018' in reason or reason.startswith(GXX_OWN):
        return True  # another compile error: g++'s wording is its own
    words = {w.lower() for w in WORD.findall(reason)}
    if not words:
        return True
    err = stderr.lower()
    return sum(w in err for w in words) * 2 >= len(words)


def check(binary, prog, scratch):
    """-> None when layoutx answers as CuTe did, else what differs (text)"""
    path = os.path.join(scratch, prog['id'] + '.cpp')
    with open(path, 'w') as f:
        f.write(prog['program'])
    try:
        p = subprocess.run([binary, 'run', path] + prog.get('flags', []), capture_output=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return 'no answer within %d s' % TIMEOUT
    out = p.stdout.decode('utf-8', 'replace')
    err = p.stderr.decode('utf-8', 'replace')
    problems = []
    if p.returncode != prog['exit']:
        problems.append('exit status %d, CuTe\'s program %d%s' % (
            p.returncode, prog['exit'], ' (compile error: %s)' % prog['reason'] if 'reason' in prog else
            ' (%s at run time)' % prog['runtime'] if 'runtime' in prog else ''))
    if out != prog['stdout']:
        diff = list(difflib.unified_diff(prog['stdout'].splitlines(True), out.splitlines(True), 'CuTe', 'layoutx', n=1))
        shown = ''.join(diff[:40]) + ('  ... (%d more diff lines)\n' % (len(diff) - 40) if len(diff) > 40 else '')
        if not diff:  # only a final newline differs
            shown = 'the outputs differ in their final newline\n'
        problems.append('stdout differs:\n' + shown)
    if prog['exit'] != 0 and not err.strip():
        problems.append('nothing on stderr')
    if 'reason' in prog and p.returncode == prog['exit'] and not names_reason(prog, err):
        problems.append('stderr does not name the reason (%s)' % prog['reason'])
    if problems and err.strip():
        problems.append('stderr: ' + err.strip().split('\n')[0][:300])
    return '\n'.join(problems) if problems else None


def first_line(text):
    """the first difference, and layoutx's message where it wrote one (without the file's path)"""
    head = text.strip().split('\n')[0]
    err = [l for l in text.split('\n') if l.startswith('stderr: ')]
    if err:
        head += ': ' + re.sub(r'^stderr: \S*?\.cpp:', '', err[0])
    return head[:200]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('layoutx')
    ap.add_argument('data')
    ap.add_argument('--known', default=None, help='known failures (default DATA/known_failures.txt)')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--only', default=None, help='comma-separated program ids')
    ap.add_argument('--group', default=None, help='only this group')
    ap.add_argument('--prune', action='store_true', help='rewrite the known-failures list without those that pass')
    ap.add_argument('--list-failures', action='store_true')
    ap.add_argument('--write', default=None, metavar='DIR')
    ap.add_argument('--quiet', action='store_true', help='no diff for listed (known) failures')
    a = ap.parse_args()
    progs = load(a.data)
    if a.only:
        ids = set(a.only.split(','))
        progs = [p for p in progs if p['id'] in ids]
    if a.group:
        progs = [p for p in progs if p['group'] == a.group]
    if a.write:
        os.makedirs(a.write, exist_ok=True)
        for p in progs:
            with open(os.path.join(a.write, p['id'] + '.cpp'), 'w') as f:
                f.write(p['program'])
            with open(os.path.join(a.write, p['id'] + '.expected'), 'w') as f:
                f.write(p['stdout'])
            with open(os.path.join(a.write, p['id'] + '.flags'), 'w') as f:
                f.write(' '.join(p.get('flags', [])) + '\n')
        print('%d programs written to %s' % (len(progs), a.write))
        return 0
    known_path = a.known or os.path.join(a.data, 'known_failures.txt')
    known = read_known(known_path)
    with tempfile.TemporaryDirectory(prefix='layoutx-run-') as scratch:
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
            results = list(ex.map(lambda p: check(a.layoutx, p, scratch), progs))
    by_group = collections.defaultdict(lambda: [0, 0])
    failed_new, failed_known, now_pass = [], [], []
    for p, r in zip(progs, results):
        by_group[p['group']][0 if r is None else 1] += 1
        if r is None:
            if p['id'] in known:
                now_pass.append(p['id'])
        elif p['id'] in known:
            failed_known.append((p, r))
        else:
            failed_new.append((p, r))
    if a.list_failures:
        for p, r in failed_new + failed_known:
            print('%s  %s' % (p['id'], first_line(r)))
        return 0
    for p, r in failed_new + ([] if a.quiet else failed_known):
        tag = 'KNOWN FAILURE' if p['id'] in known else 'FAIL'
        flags = ' '.join(p.get('flags', []))
        print('=== %s %s (%s)%s' % (tag, p['id'], p['group'], ' flags: ' + flags if flags else ''))
        print(r.rstrip())
    for pid in now_pass:
        print('=== NOW PASSES %s: delete it from %s (or run with --prune)' % (pid, os.path.basename(known_path)))
    print('per group (passed/total): ' + ', '.join('%s %d/%d' % (g, v[0], v[0] + v[1]) for g, v in sorted(by_group.items())))
    passed = sum(r is None for r in results)
    print('%d known failures still fail, %d listed programs now pass' % (len(failed_known), len(now_pass)))
    print('%d passed, %d failed' % (passed, len(results) - passed))
    if a.prune:
        with open(known_path) as f:
            lines = f.read().splitlines()
        gone = set(now_pass)
        kept = [l for l in lines if not l.strip() or l.startswith('#') or l.split()[0] not in gone]
        with open(known_path, 'w') as f:
            f.write('\n'.join(kept) + '\n')
        print('pruned %d lines from %s' % (len(gone), known_path))
        return 1 if failed_new else 0
    return 1 if failed_new or now_pass else 0


if __name__ == '__main__':
    sys.exit(main())
