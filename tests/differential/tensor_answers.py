#!/usr/bin/env python3
"""CuTe's answers for the tensor and tiled-operation table (tests/data/tensor_snippets.tsv).

Each row is an expression of layoutx's language and the C++ that builds the
same value (`=` when the expression is that C++ itself; method calls such as
`tiled_mma.get_slice(5)` are layoutx's get_slice(tiled_mma, 5)). Compiles every
row against $CUTLASS_DIR/include (host-only g++), runs it, and writes what
CuTe prints into the last column: print(v) for form `value`, print_tensor(v)
for form `print_tensor`, every byte, a newline written \\n and a backslash \\\\.
A register array lives on the stack, whose address no one knows before the
program runs: its address is written ADDR (ptr[16b](ADDR)), and the test
masks layoutx's the same way.

    tensor_answers.py [--check] [TABLE]
"""
import os
import re
import sys

from snippet_answers import compiled_output

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_TABLE = os.path.join(HERE, '..', 'data', 'tensor_snippets.tsv')

PRELUDE = r'''
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cute/atom/copy_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cstdio>
using namespace cute;
'''

REGISTER_ADDRESS = re.compile(r'(?<![a-z_])ptr\[(\d+)b\]\(0x[0-9a-f]+\)')


def escaped(text):
    return text.replace('\\', '\\\\').replace('\n', '\\n').replace('\t', '\\t')


def masked(text):
    return REGISTER_ADDRESS.sub(r'ptr[\1b](ADDR)', text)


def read_table(path):
    head, rows = [], []
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if not line or line.startswith('#') or line.startswith('form\t'):
                head.append(line)
                continue
            rows.append(line.split('\t')[:3])
    return head, rows


def program(rows):
    body = []
    for i, (form, expr, cpp) in enumerate(rows):
        value = expr if cpp == '=' else cpp
        show = 'print_tensor(v);' if form == 'print_tensor' else 'print(v);'
        body.append(f'  {{ printf("@@%d\\n", {i}); auto v = {value}; {show} }}')
    return PRELUDE + 'int main() {\n' + '\n'.join(body) + '\n  printf("@@end\\n");\n}\n'


def answers(rows):
    out = compiled_output(program(rows), 'tensor_answers.py')
    parts = re.split(r'@@(\d+|end)\n', out)  # a print without a final newline runs into the next marker
    printed = {int(parts[i]): parts[i + 1] for i in range(1, len(parts) - 2, 2)}
    return [escaped(masked(printed[i])) for i in range(len(rows))]


def main():
    args = [a for a in sys.argv[1:] if a != '--check']
    check = '--check' in sys.argv[1:]
    path = args[0] if args else DEFAULT_TABLE
    head, rows = read_table(path)
    cute = answers(rows)
    if check:
        with open(path) as f:
            stored = [l.rstrip('\n').split('\t') for l in f if l.strip() and not l.startswith('#') and not l.startswith('form\t')]
        wrong = [(r[1], r[3] if len(r) > 3 else '', c) for r, c in zip(stored, cute) if len(r) < 4 or r[3] != c]
        for expr, have, want in wrong:
            print(f'{expr}\n  table: {have}\n  CuTe:  {want}')
        sys.exit(1 if wrong else 0)
    with open(path, 'w') as f:
        for line in head:
            f.write(line + '\n')
        for (form, expr, cpp), answer in zip(rows, cute):
            f.write(f'{form}\t{expr}\t{cpp}\t{answer}\n')


if __name__ == '__main__':
    main()
