#!/usr/bin/env python3
"""Compare a layoutx binary with CuTe's answers (golden-case JSON Lines) and list divergences.

For each case, through the command line exactly as tests/tools/check_cases.py
does (batches of expressions through stdin, one process per batch and check) (`--dynamic` for dynamic cases, static marks compared exactly there):
eval against `print`, print against `print_layout`, offsets against `offsets`,
info against shape/stride/size/cosize/rank/depth, and for CuTe's refusals a
non-zero exit with an empty stdout.  The later checks run only where eval
agrees (one divergence is reported once).

usage: compare.py LAYOUTX ANSWERS.jsonl... [--jobs J] [--out DIVERGENCES.jsonl]
Prints each divergence as it is found (id, mode, check, expression, CuTe,
layoutx), then a table of cases and divergences per outermost function and mode.
"""
import argparse
import collections
import json
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tools'))
import check_cases  # noqa: E402

CALL = re.compile(r'^([A-Za-z_][A-Za-z_0-9]*)\s*(<[^>()]*>)?\s*\(')


def outer_function(expr):
    """the function a case exercises: the outermost call, `o`, evaluation, or the literal's kind"""
    depth = 0
    i = 0
    while i < len(expr):  # a top-level ` o ` makes it a composition
        ch = expr[i]
        if ch in '(<':
            depth += 1
        elif ch in ')>':
            depth -= 1
        elif depth == 0 and expr.startswith(' o ', i):
            return 'Sw o L' if expr.startswith('Sw<') or expr.startswith('Swizzle<') else 'A o B'
        i += 1
    m = CALL.match(expr)
    if m:
        # a call followed by (...) is an evaluation or a slice of its result
        depth, j = 0, m.end() - 1
        for j in range(m.end() - 1, len(expr)):
            if expr[j] == '(':
                depth += 1
            elif expr[j] == ')':
                depth -= 1
                if depth == 0:
                    break
        if j + 1 < len(expr) and expr[j + 1] == '(':
            return 'L(_,j) slice' if re.search(r'(^|[(,])_(?=[,)])', expr[j + 1:]) else 'L(i) eval'
        return m.group(1)
    if expr.startswith('Sw<') or expr.startswith('Swizzle<'):
        return 'swizzle'
    if ':' in expr:
        return 'layout literal'
    return 'int tuple / tile literal'


def check_case(binary, case):
    """-> list of (check, expected, got) that disagree (one process per check)"""
    dyn = case.get('mode') == 'dynamic'
    for c, chk in check_cases.plan([case]):
        ok, exp, got = check_cases.check_one(binary, c, chk, dyn)
        if not ok:
            return [(chk, exp, got)]  # one divergence per case: the first check that fails
    return []


def check_all(binary, cases, jobs, batch=1000):
    """check_case for every case, with one layoutx process per batch of expressions
    (check_cases.run_batch) -> list of results in the order of cases"""
    work = collections.defaultdict(list)  # (dynamic, check) -> [(case index, case)]
    for i, case in enumerate(cases):
        for c, chk in check_cases.plan([case]):
            work[(case.get('mode') == 'dynamic', chk)].append(i)
    jobs_list = []
    for (dyn, chk), idx in work.items():
        for s in range(0, len(idx), batch):
            jobs_list.append((dyn, chk, idx[s:s + batch]))
    failed = collections.defaultdict(dict)  # case index -> {check: (expected, got)}

    def run(job):
        dyn, chk, idx = job
        results = check_cases.run_batch(binary, check_cases.COMMAND[chk], [cases[i]['expr'] for i in idx], dyn)
        return [(i, chk, check_cases.judge(cases[i], chk, r, dyn)) for i, r in zip(idx, results)]
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        for part in ex.map(run, jobs_list):
            for i, chk, (ok, exp, got) in part:
                if not ok:
                    failed[i][chk] = (exp, got)
    out = []
    for i, case in enumerate(cases):
        first = [(chk, *failed[i][chk]) for _c, chk in check_cases.plan([case]) if chk in failed[i]][:1]
        out.append(first)
    return out


def load(paths):
    cases = []
    for p in paths:
        with open(p) as f:
            cases += [json.loads(l) for l in f if l.strip()]
    return cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('layoutx')
    ap.add_argument('answers', nargs='+')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--out', default=None, help='write the divergences as JSON Lines')
    ap.add_argument('--one-process-per-check', action='store_true',
                    help='one layoutx process per case and check (slow; the default feeds batches through stdin)')
    a = ap.parse_args()
    cases = load(a.answers)
    table = collections.OrderedDict()
    divs = []
    if a.one_process_per_check:
        ex = ThreadPoolExecutor(max_workers=a.jobs)
        results = ex.map(lambda c: check_case(a.layoutx, c), cases)
    else:
        results = check_all(a.layoutx, cases, a.jobs)
    for c, r in zip(cases, results):
        key = (outer_function(c['expr']), c.get('mode', 'static'))
        t = table.setdefault(key, [0, 0, 0])
        t[0] += 1
        t[1] += 0 if c['error'] else 1
        if r:
            t[2] += 1
            chk, exp, got = r[0]
            divs.append({'id': c['id'], 'mode': c.get('mode', 'static'), 'function': key[0], 'check': chk,
                         'expr': c['expr'], 'cute': exp if chk != 'error' else 'error: ' + str(c.get('reason')),
                         'layoutx': got, 'cute_error': c['error']})
            d = divs[-1]
            print('%s [%s] %s: %s\n    CuTe:    %s\n    layoutx: %s' % (
                d['id'], d['mode'], d['check'], d['expr'], str(d['cute'])[:400], str(d['layoutx'])[:400]), flush=True)
    print('%-28s %-8s %7s %9s %11s' % ('function', 'mode', 'cases', 'accepted', 'divergent'))
    for (fn, mode), (n, acc, bad) in sorted(table.items()):
        print('%-28s %-8s %7d %9d %11d' % (fn, mode, n, acc, bad))
    if a.out:
        with open(a.out, 'w') as f:
            for d in divs:
                f.write(json.dumps(d) + '\n')
    print('%d cases, %d divergent' % (len(cases), len(divs)))
    return 1 if divs else 0


if __name__ == '__main__':
    sys.exit(main())
