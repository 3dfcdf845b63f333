#!/usr/bin/env python3
"""CuTe's answers for the pasted-C++ table (tests/data/cpp_snippets.tsv).

Compiles every snippet against $CUTLASS_DIR/include (host-only g++, as
cute_runner.py does), runs it, and writes CuTe's print of each value into the
table's third column.

    snippet_answers.py [--check] [TABLE]

--check: change nothing; exit 1 when a stored answer differs from CuTe's.
A snippet CuTe refuses to compile is an error: the table holds only values.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_TABLE = os.path.join(HERE, '..', 'data', 'cpp_snippets.tsv')

PRELUDE = r'''
#include <cute/layout.hpp>
#include <cute/layout_composed.hpp>
#include <cute/swizzle_layout.hpp>
#include <cute/numeric/numeric_types.hpp>
#include <cstdio>
using namespace cute;
'''


def read_table(path, columns=2):
    """(comment and header lines, [the first `columns` fields of each row]) of the table"""
    head, rows = [], []
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if not line or line.startswith('#') or line.startswith('form\t'):
                head.append(line)
                continue
            rows.append(tuple(line.split('\t')[:columns]))
    return head, rows


def update_table(path, head, rows, cute, check):
    """Write CuTe's answers as the table's last column, or with `check` exit 1 when one differs."""
    if check:
        with open(path) as f:
            stored = [l.rstrip('\n').split('\t') for l in f
                      if l.strip() and not l.startswith('#') and not l.startswith('form\t')]
        width = len(rows[0]) if rows else 0
        wrong = [(r[1], r[width] if len(r) > width else '', c) for r, c in zip(stored, cute) if len(r) <= width or r[width] != c]
        for snippet, have, want in wrong:
            print(f'{snippet}\n  table: {have}\n  CuTe:  {want}')
        sys.exit(1 if wrong else 0)
    with open(path, 'w') as f:
        for line in head:
            f.write(line + '\n')
        for row, answer in zip(rows, cute):
            f.write('\t'.join(row) + f'\t{answer}\n')


def program(rows):
    body = []
    for i, (form, snippet) in enumerate(rows):
        value = snippet + '{}' if form == 'type' else snippet
        body.append(f'  {{ auto v = {value}; printf("%d\\t", {i}); print(v); printf("\\n"); }}')
    return PRELUDE + 'int main() {\n' + '\n'.join(body) + '\n}\n'


def compiled_output(source_text, what='snippet_answers.py'):
    """stdout of the program source_text, compiled host-only against $CUTLASS_DIR"""
    cutlass = os.environ.get('CUTLASS_DIR')
    if not cutlass:
        sys.exit(what + ': set CUTLASS_DIR to a CUTLASS checkout')
    cuda = os.environ.get('CUDA_DIR', '/usr/local/cuda')
    with tempfile.TemporaryDirectory() as work:
        source, binary = os.path.join(work, 'snippets.cpp'), os.path.join(work, 'snippets')
        with open(source, 'w') as f:
            f.write(source_text)
        cmd = ['g++', '-std=c++17', '-O0', '-w', '-I' + os.path.join(cutlass, 'include'),
               '-I' + os.path.join(cuda, 'include'), '-I' + os.path.join(cuda, 'include', 'cccl'), source, '-o', binary]
        built = subprocess.run(cmd, capture_output=True, text=True)
        if built.returncode != 0:
            sys.exit(what + ': CuTe refuses a snippet:\n' + built.stderr[:4000])
        return subprocess.run([binary], capture_output=True, text=True, check=True).stdout


def answers(rows):
    out = compiled_output(program(rows))
    printed = {}
    for line in out.splitlines():
        index, text = line.split('\t', 1)
        printed[int(index)] = text
    return [printed[i] for i in range(len(rows))]


def main():
    args = [a for a in sys.argv[1:] if a != '--check']
    path = args[0] if args else DEFAULT_TABLE
    head, rows = read_table(path)
    update_table(path, head, rows, answers(rows), '--check' in sys.argv[1:])


if __name__ == '__main__':
    main()
