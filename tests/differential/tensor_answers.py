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

from snippet_answers import compiled_output, read_table, update_table

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tools'))
from check_cases import masked  # noqa: E402

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

def escaped(text):
    return text.replace('\\', '\\\\').replace('\n', '\\n').replace('\t', '\\t')


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
    path = args[0] if args else DEFAULT_TABLE
    head, rows = read_table(path, 3)
    update_table(path, head, rows, answers(rows), '--check' in sys.argv[1:])


if __name__ == '__main__':
    main()
