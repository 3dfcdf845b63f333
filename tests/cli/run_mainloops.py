#!/usr/bin/env python3
"""The partition command against CuTe's own partitions of three mainloops.

usage: run_mainloops.py LAYOUTX TABLE.tsv GOLDEN.jsonl

Each row of TABLE (tests/data/mainloops.tsv) is a `layoutx partition` call
(--json is added to elements rows) for one operand of one mainloop, over every thread. Its
answer must hold, for every thread, what CuTe printed (GOLDEN, written by
tests/mainloops/cute_mainloops.py):
  elements rows: the partition's layout and origin, the identity partition's
    layout and origin, the fragment (none where CuTe made none), all as CuTe
    prints them, static marks included (the calls run --dynamic); every
    element's offset and coordinate, and the predicate elem_less(coordinate,
    bound); the access width must be the widest aligned contiguous run CuTe's
    offsets allow (capped at the copy atom's values per call, else 128 bits);
    and --owner for three coordinates must name exactly the (thread, index,
    offset) CuTe's coordinates give;
  kernel rows: the partition's layout and origin with k kept as `_` (read
    from the text table, which has one line per thread).
"""
import json
import os
import subprocess
import sys

from catalogue import rows_of


def unmarked(s):
    return s.replace('_', '')


def golden_rows(path):
    rows = {}
    for line in open(path, encoding='utf-8'):
        d = json.loads(line)
        key = (d['loop'], d['part'], d['thread'])
        rows.setdefault(key, {}).update(d)
    for (loop, part, _), d in rows.items():
        if 'same_elements_as' in d:
            src = rows[(loop, part, d['same_elements_as'])]
            for k in ('offsets', 'coords', 'pred'):
                d[k] = src[k]
    plain = {}  # the coordinates without marks, once per list (threads may share one)
    for d in rows.values():
        if 'coords' in d:
            d['plain_coords'] = plain.setdefault(id(d['coords']), [unmarked(c) for c in d['coords']])
    return rows


def call(layoutx, argv):
    p = subprocess.run([layoutx] + argv, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError('exit status %d: %s' % (p.returncode, p.stderr.strip()[:400]))
    return json.loads(p.stdout)


def widest_run(offsets, cap):
    best, v = 1, 2
    while v <= cap and len(offsets) % v == 0:
        if not all(offsets[i] % v == 0 and offsets[i:i + v] == list(range(offsets[i], offsets[i] + v))
                   for i in range(0, len(offsets), v)):
            break
        best, v = v, v * 2
    return best


def check_elements(layoutx, argv, loop, part, golden, answer, problems):
    bits = answer['bits']
    for t in answer['partitions']:
        g = golden.get((loop, part, t['thread']))
        where = '%s %s thread %d' % (loop, part, t['thread'])
        if g is None:
            problems.append('%s: CuTe has no such thread' % where)
            continue
        for key in ('layout', 'coord_layout', 'coord_origin'):
            if t[key] != g[key]:
                problems.append('%s: %s %s, CuTe %s' % (where, key, t[key], g[key]))
        if t['origin'] != g['origin']:
            problems.append('%s: origin %s, CuTe %s' % (where, t['origin'], g['origin']))
        if t['offsets'] != g['offsets']:
            problems.append('%s: offsets differ from CuTe\'s' % where)
        if t['coords'] != g['plain_coords']:
            problems.append('%s: coordinates differ from CuTe\'s' % where)
        if t['pred'] != g['pred']:
            problems.append('%s: predicate %s, CuTe %s' % (where, t['pred'], g['pred']))
        fragment = g.get('fragment')
        if t['fragment'] != fragment:
            problems.append('%s: fragment %s, CuTe %s' % (where, t['fragment'], fragment))
        limit = 128 // bits if part not in ('S', 'D') else values_per_call(g)
        if t['vector'] != widest_run(g['offsets'], limit):
            problems.append('%s: access %d elements, CuTe\'s offsets allow %d' % (where, t['vector'], widest_run(g['offsets'], limit)))
    threads = sorted(k[2] for k in golden if k[0] == loop and k[1] == part and 'offsets' in golden[k])
    if len(answer['partitions']) != len(threads):
        problems.append('%s %s: %d threads, CuTe %d' % (loop, part, len(answer['partitions']), len(threads)))
    check_owners(layoutx, argv, loop, part, golden, threads, problems)


def values_per_call(g):
    """A copy atom's values per call: the size of the partition's first mode."""
    mode0 = g['layout'].split(':')[0][1:]
    depth, end = 0, 0
    for i, ch in enumerate(mode0):
        depth += ch == '('
        depth -= ch == ')'
        if depth == 0 and ch in ',)':
            end = i
            break
    first = mode0[:end + 1] if mode0.startswith('(') else mode0[:end]
    size = 1
    for n in first.replace('(', ' ').replace(')', ' ').replace(',', ' ').replace('_', '').split():
        size *= int(n)
    return size


def check_owners(layoutx, argv, loop, part, golden, threads, problems):
    masked = next(((t, i) for t in threads for i, p in enumerate(golden[(loop, part, t)]['pred']) if p == '0'), None)
    picks = [(threads[0], 0), (threads[-1], len(golden[(loop, part, threads[-1])]['coords']) - 1)]
    if masked:
        picks.append(masked)
    # Each picked coordinate -> every (thread, index, offset) CuTe gives it.
    holders = {golden[(loop, part, t)]['plain_coords'][i]: [] for t, i in picks}
    for u in threads:
        g = golden[(loop, part, u)]
        for j, c in enumerate(g['plain_coords']):
            if c in holders:
                holders[c].append((u, j, g['offsets'][j]))
    for t, i in picks:
        coord = golden[(loop, part, t)]['plain_coords'][i]
        expected = sorted(holders[coord])
        answer = call(layoutx, argv + ['--owner', coord])
        got = sorted((o['thread'], o['index'], o['offset']) for o in answer['owners'])
        if got != expected:
            problems.append('%s %s: owners of %s %s, CuTe %s' % (loop, part, coord, got[:4], expected[:4]))


def kernel_forms(layoutx, argv):
    """Each thread's partition and origin, read from the text table: a kernel
    row checks only these, and its JSON would list every element of every
    k-tile (megabytes per row)."""
    p = subprocess.run([layoutx] + argv, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError('exit status %d: %s' % (p.returncode, p.stderr.strip()[:400]))
    lines = p.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split()[:3] == ['thread', 'partition', 'at'])
    forms = []
    for line in lines[header + 1:]:
        thread, layout, origin = line.split()[:3]
        forms.append({'thread': int(thread), 'layout': layout, 'origin': int(origin)})
    return forms


def check_kernel(loop, part, golden, forms, problems):
    threads = sum(1 for k in golden if k[0] == loop and k[1] == part and 'kernel_layout' in golden[k])
    if len(forms) != threads:
        problems.append('%s %s: %d threads in the kernel form, CuTe %d' % (loop, part, len(forms), threads))
    for t in forms:
        g = golden[(loop, part, t['thread'])]
        if t['layout'] != g['kernel_layout'] or t['origin'] != g['kernel_origin']:
            problems.append('%s %s thread %d: kernel form %s at %s, CuTe %s at %s' % (
                loop, part, t['thread'], t['layout'], t['origin'], g['kernel_layout'], g['kernel_origin']))


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    layoutx, table, golden_path = sys.argv[1:]
    golden = golden_rows(golden_path)
    failed, checked = 0, 0
    for n, (rid, loop, part, check, argv) in rows_of(table, 5):
        argv = json.loads(argv)
        problems = []
        try:
            if check == 'kernel':
                forms = kernel_forms(layoutx, argv)
                check_kernel(loop, part, golden, forms, problems)
                checked += len(forms)
            else:
                answer = call(layoutx, argv + ['--json'])
                check_elements(layoutx, argv + ['--json'], loop, part, golden, answer, problems)
                checked += len(answer['partitions'])
        except (RuntimeError, ValueError, KeyError, StopIteration, subprocess.TimeoutExpired) as e:
            problems.append('%s %s: %s' % (loop, part, e))
        if problems:
            failed += 1
            print('FAIL %s (%s:%d): %d problems' % (rid, table, n, len(problems)))
            for p in problems[:10]:
                print('  ' + p)
    print('%d rows, %d thread partitions checked, %d rows failed' % (len(rows_of(table, 5)), checked, failed))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
