#!/usr/bin/env python3
"""The table of CuTe-answered cases per function and mode (Markdown), from the data files.

usage: table.py tests/data/differential/*.jsonl [--known tests/data/differential/known_divergences.txt]
A case counts for the function it exercises: the outermost call (`op`), or the
form (`o`, evaluation, slicing, literals).
"""
import argparse
import collections
import json

FORMS = {'o': 'A o B', 'eval': 'L(i) evaluation', 'slice': 'L(_,j) slicing', 'swizzle': 'swizzle literal',
         'composed': 'composed literal', 'tile': 'tile literal', 'inttuple': 'int tuple literal',
         'layout_literal': 'layout literal', 'basis_literal': 'scaled-basis literal (coordinate layout, E<N>)',
         'coord_eval': 'L(i) of a coordinate layout', 'coord_slice': 'L(_,j) of a coordinate layout',
         'coord_composition_rhs': 'A o (coordinate layout)'}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('files', nargs='+')
    ap.add_argument('--known', default=None)
    a = ap.parse_args()
    known = set()
    if a.known:
        with open(a.known) as f:
            known = {l.split()[0] for l in f if l.strip() and not l.startswith('#')}
    rows = collections.defaultdict(lambda: collections.Counter())
    exprs = set()
    total = collections.Counter()
    for path in a.files:
        with open(path) as f:
            for line in f:
                c = json.loads(line)
                mode = c.get('mode', 'static')
                name = FORMS.get(c['op'], c['op'])
                if name.startswith('coord_'):
                    name = name[len('coord_'):] + ' of a coordinate layout'
                r = rows[name]
                r[mode] += 1
                r[mode + '-error'] += c['error']
                r[mode + '-known'] += c['id'] in known
                exprs.add((mode, c['expr']))
                total[mode] += 1
                total[mode + '-error'] += c['error']
                total[mode + '-known'] += c['id'] in known
    print('| function or form | static cases | static refused by CuTe | dynamic cases | dynamic refused by CuTe | known divergences |')
    print('| --- | ---: | ---: | ---: | ---: | ---: |')
    for name in sorted(rows, key=lambda n: (n in FORMS.values(), n)):
        r = rows[name]
        print('| %s | %d | %d | %d | %d | %d |' % (name, r['static'], r['static-error'], r['dynamic'],
                                                   r['dynamic-error'], r['static-known'] + r['dynamic-known']))
    print('| **total** | %d | %d | %d | %d | %d |' % (total['static'], total['static-error'], total['dynamic'],
                                                       total['dynamic-error'], total['static-known'] + total['dynamic-known']))
    print()
    print('%d distinct expressions (%d static, %d dynamic).' % (len(exprs), total['static'], total['dynamic']))


if __name__ == '__main__':
    main()
