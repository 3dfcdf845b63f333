#!/usr/bin/env python3
"""The time-out finder: run every input of the given directories alone through
the fuzz target (which evaluates it and renders it every way, with small
outputs) and report each one that takes more than LIMIT seconds of CPU.

Inputs run in parallel (--jobs), each in its own process with a hard CPU
limit, so a hang is a finding too. The CPU time is the child's own (wait4).

usage: find_timeouts.py FUZZ_BINARY DIR... [--jobs J] [--limit S] [--report FILE]
"""
import argparse
import os
import resource
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor


def run_one(binary, path, limit):
    hard = int(limit * 5) + 2

    def cap():
        resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))

    p = subprocess.Popen([binary, '-rss_limit_mb=4096', path], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, preexec_fn=cap)
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    cpu = usage.ru_utime + usage.ru_stime
    crashed = not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0
    return path, cpu, crashed, err.decode('utf-8', 'replace')[-2000:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('binary')
    ap.add_argument('dirs', nargs='+')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('--limit', type=float, default=1.0)
    ap.add_argument('--report', default=None)
    a = ap.parse_args()
    files = sorted(os.path.join(d, f) for d in a.dirs for f in os.listdir(d))
    start = time.time()
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        results = list(pool.map(lambda f: run_one(a.binary, f, a.limit), files))
    slow = [r for r in results if r[1] > a.limit]
    crashed = [r for r in results if r[2]]
    lines = ['inputs: %d, wall %.0f s, CPU %.0f s in all, slowest %.2f s' %
             (len(results), time.time() - start, sum(r[1] for r in results), max((r[1] for r in results), default=0))]
    for path, cpu, _, _ in sorted(slow, key=lambda r: -r[1]):
        with open(path, 'rb') as f:
            lines.append('SLOW %.2f s %s: %r' % (cpu, path, f.read()[:300]))
    for path, cpu, _, err in crashed:
        with open(path, 'rb') as f:
            lines.append('CRASH %s: %r\n%s' % (path, f.read()[:300], err))
    text = '\n'.join(lines) + '\n'
    sys.stdout.write(text)
    if a.report:
        with open(a.report, 'w') as f:
            f.write(text)
    return 1 if slow or crashed else 0


if __name__ == '__main__':
    sys.exit(main())
