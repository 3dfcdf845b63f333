#!/usr/bin/env python3
"""Delete from known_divergences.txt the cases a layoutx binary now answers as CuTe does.

usage: prune_known.py LAYOUTX [--data tests/data/differential] [--jobs J] [--dry-run]

Runs the listed cases only, through the command line (the checks of compare.py),
rewrites the list without the cases that agree and prints how many of each
reason are left.  Divergences outside the list are the unit test's business
(tests/test_differential.cpp names them).
"""
import argparse
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('layoutx')
    ap.add_argument('--data', default=os.path.join(HERE, '..', 'data', 'differential'))
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--dry-run', action='store_true', help='report only, leave the list as it is')
    a = ap.parse_args()
    path = os.path.join(a.data, 'known_divergences.txt')
    with open(path) as f:
        lines = f.read().splitlines()
    listed = {l.split()[0]: l for l in lines if l.strip() and not l.startswith('#')}
    cases = [c for c in compare.load(sorted(os.path.join(a.data, p) for p in os.listdir(a.data) if p.endswith('.jsonl')))
             if c['id'] in listed]
    still = {c['id'] for c, r in zip(cases, compare.check_all(a.layoutx, cases, a.jobs)) if r}
    agree = [i for i in listed if i not in still]
    kept = [l for l in lines if not l.strip() or l.startswith('#') or l.split()[0] in still]
    left = collections.Counter(listed[i].split(' ', 1)[1] for i in still)
    for reason, n in sorted(left.items()):
        print('%5d  %s' % (n, reason))
    print('%d listed, %d now agree, %d still diverge' % (len(listed), len(agree), len(still)))
    if not a.dry_run:
        with open(path, 'w') as f:
            f.write('\n'.join(kept) + '\n')


if __name__ == '__main__':
    main()
