#!/usr/bin/env python3
"""`layoutx report` against what Nsight Compute measured on an H200.

usage: run_report.py LAYOUTX DIR

For every kernel program DIR/NAME.cu with counters in DIR/measured.tsv:
`layoutx report --counters` must print every counter it predicts that was
measured with the measured value (exactly: the programs' global pointers come
from cudaMalloc, 128-byte aligned as the report assumes), and
`layoutx report --json` must find on each copy call site the finding kinds
DIR/findings.tsv lists with the swizzle its fix proposes, and `--html` must draw a grid of the warps of each.
`layoutx report --problem P` must answer each row of DIR/problems.tsv with its
exit status and line. The programs layoutx cannot run yet are named in
DIR/known_failures.txt with the reason; one of them that runs fails the test
until it is taken off the list. A program with findings but no measurement
yet (added since the last run of tests/gpu/report/measure.sh) is checked for
its findings only.
"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile


def table(path, columns):
    rows = []
    for line in open(path, encoding='utf-8'):
        line = line.rstrip('\n')
        if not line or line.startswith('#'):
            continue
        cols = line.split('\t')
        if cols[0] == 'kernel':
            continue
        if len(cols) < columns:
            sys.exit('%s: expected %d columns: %s' % (path, columns, line))
        rows.append(cols)
    return rows


def proposed_swizzle(findings):
    """The Swizzle<B,M,S> a site's bank-conflict fix proposes, '-' for none."""
    for f in findings:
        m = re.search(r'Swizzle<\d+,\d+,\d+>', f['fix'])
        if f['kind'] == 'bank-conflict' and m:
            return m.group(0)
    return '-'


def report(layoutx, program, flag):
    r = subprocess.run([layoutx, 'report', flag, program], capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout, r.stderr


def main():
    layoutx, folder = sys.argv[1], sys.argv[2]
    measured = collections.defaultdict(dict)
    for kernel, metric, value in (r[:3] for r in table(os.path.join(folder, 'measured.tsv'), 3)):
        measured[kernel][metric] = int(value)
    expected = collections.defaultdict(dict)
    for kernel, call, kinds, swizzle in table(os.path.join(folder, 'findings.tsv'), 4):
        expected[kernel][call] = (kinds, swizzle)
    known = {}
    for line in open(os.path.join(folder, 'known_failures.txt'), encoding='utf-8'):
        if line.strip() and not line.startswith('#'):
            name, _, reason = line.partition(' ')
            known[name] = reason.strip()
    failures, matched, counters, unmeasured = [], 0, 0, 0
    measured_kernels = set(measured)
    for kernel in sorted(measured_kernels | set(expected)):
        program = os.path.join(folder, kernel + '.cu')
        code, out, err = report(layoutx, program, '--counters')
        if kernel in known:
            if code == 0:
                failures.append('%s runs now: take it off known_failures.txt' % kernel)
            continue
        if code != 0:
            failures.append('%s: exit %d: %s' % (kernel, code, err.strip()))
            continue
        predicted = dict((m, int(v)) for m, v in (line.split() for line in out.splitlines()))
        wrong = ['%s: predicted %d, measured %d' % (m, v, measured[kernel][m])
                 for m, v in predicted.items() if m in measured[kernel] and measured[kernel][m] != v]
        counters += sum(1 for m in predicted if m in measured[kernel])
        if kernel not in measured_kernels:
            unmeasured += 1
        elif wrong:
            failures.append('%s:\n  %s' % (kernel, '\n  '.join(wrong)))
        else:
            matched += 1
        code, out, err = report(layoutx, program, '--json')
        sites = [s for s in json.loads(out)['sites'] if s['call'] == 'copy']
        found = dict((s['site'].split(': ', 1)[1], (','.join(f['kind'] for f in s['findings']) or '-',
                                                     proposed_swizzle(s['findings']))) for s in sites)
        if found != expected[kernel]:
            failures.append('%s: findings %s, expected %s' % (kernel, found, expected[kernel]))
        if code != (0 if all(k == '-' for k, _ in found.values()) else 1):
            failures.append('%s: exit %d with findings %s' % (kernel, code, found))
        with tempfile.TemporaryDirectory() as tmp:
            page = os.path.join(tmp, 'report.html')
            subprocess.run([layoutx, 'report', '--html', page, program], capture_output=True, timeout=120)
            html = open(page, encoding='utf-8').read() if os.path.exists(page) else ''
            warps = sum((s['threads'] + 31) // 32 for s in sites)
            if html.count('<table>') != len(sites) or html.count('<tr><th>') < warps:
                failures.append('%s: the HTML page lacks a per-warp grid for each of its %d copy sites'
                                % (kernel, len(sites)))
    for kernel, problem, want_exit, want in table(os.path.join(folder, 'problems.tsv'), 4):
        r = subprocess.run([layoutx, 'report', '--problem', problem, os.path.join(folder, kernel + '.cu')],
                           capture_output=True, text=True, timeout=120)
        if r.returncode != int(want_exit) or want not in r.stdout + r.stderr:
            failures.append('%s --problem %s: exit %d, expected %s and %r in:\n%s%s'
                            % (kernel, problem, r.returncode, want_exit, want, r.stdout, r.stderr))
    errors = os.path.join(folder, 'errors')
    for name in sorted(os.listdir(errors)):
        program = os.path.join(errors, name)
        want = open(program, encoding='utf-8').readline().partition('// expect: ')[2].strip()
        code, out, err = report(layoutx, program, '--counters')
        if code != 1 or out or want not in err or not err.rstrip().endswith('^'):
            failures.append('%s: exit %d, stdout %r, stderr %r; expected exit 1 and %r with a caret'
                            % (name, code, out[:80], err, want))
    print('%d of %d kernels: every measured counter predicted (%d counters); %d known failures; '
          '%d not measured yet (findings only)'
          % (matched, len(measured_kernels) - len(known), counters, len(known), unmeasured))
    for f in failures:
        print('FAIL ' + f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
