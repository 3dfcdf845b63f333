#!/usr/bin/env python3
"""Write edge-integer variants of the golden and bad-input expressions, one
file per input, for the time-out finder (fuzz/find_timeouts.py) and as extra
libFuzzer seeds.

Each variant replaces one integer literal of an expression (or every one at
once) by a value at an edge of 64 bits or of the limits: 0, 1, -1, 2^31,
2^32 - 1, 2^62, 2^63 - 1, -2^63, a product of 2^k that just fits, and so on.
A fixed seed picks COUNT variants, so the corpus is reproducible.

usage: make_edge_corpus.py OUT_DIR [--count N] [--seed S]   (run from the repository root)
"""
import argparse
import hashlib
import json
import os
import random
import re

EDGES = ['0', '1', '-1', '2', '3', '7', '65536', '2147483648', '4294967295', '4294967296',
         '4611686018427387904', '3037000499', '3037000500', '9223372036854775807',
         '-9223372036854775808', '-4611686018427387904', '9223372036854775806', '1000000007',
         '_9223372036854775807', '_4611686018427387904', '_0', '_1', '_-1']
INTEGER = re.compile(r'(?<![A-Za-z0-9_<])_?-?\d+')


def expressions():
    out = []
    for name in ('tests/data/golden/cases.jsonl', 'tests/data/golden/dynamic_cases.jsonl'):
        with open(name, encoding='utf-8') as f:
            out += [json.loads(line)['expr'] for line in f if line.strip()]
    with open('tests/data/bad_inputs.tsv', encoding='utf-8') as f:
        for line in f:
            cols = line.rstrip('\n').split('\t')
            if len(cols) == 5 and cols[0] != 'id' and not line.startswith('#'):
                try:
                    args = json.loads(cols[2])
                except ValueError:
                    continue
                out += [a for a in args if a and not a.startswith('-') and a.isprintable() and len(a) < 300]
    return sorted(set(out))


def variants(expr, rng):
    spots = list(INTEGER.finditer(expr))
    if not spots:
        return []
    out = []
    for m in spots:
        for v in rng.sample(EDGES, 4):
            out.append(expr[:m.start()] + v + expr[m.end():])
    v = rng.choice(EDGES)
    out.append(INTEGER.sub(v, expr))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('out')
    ap.add_argument('--count', type=int, default=20000)
    ap.add_argument('--seed', type=int, default=20)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    pool = []
    for e in expressions():
        pool += variants(e, rng)
    pool = sorted(set(pool))
    rng.shuffle(pool)
    os.makedirs(a.out, exist_ok=True)
    for text in pool[:a.count]:
        data = text.encode('utf-8')
        with open(os.path.join(a.out, hashlib.sha1(data).hexdigest()), 'wb') as f:
            f.write(data)
    print('%d variants written (%d possible)' % (min(a.count, len(pool)), len(pool)))


if __name__ == '__main__':
    main()
