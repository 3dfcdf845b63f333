#!/usr/bin/env python3
"""CuTe's own answers for the three mainloops of tests/mainloops/cute_mainloops.cpp.

  cute_mainloops.py write GOLDEN.jsonl    compile the program against CuTe, run it, store its lines
  cute_mainloops.py verify GOLDEN.jsonl   compile and run it again: its lines must equal the stored ones

The program prints one JSON line per (mainloop, operand, thread). Where a
thread's elements (offsets, coordinates, predicate) equal those of an earlier
thread of the same operand (the SS GMMA operands: every thread of the
warpgroup sees the whole shared-memory tile), the stored line names that
thread in "same_elements_as" instead of repeating them; nothing else is changed.
The CUTLASS checkout is $CUTLASS_DIR (exit 77, skipped, without it); CUDA's
headers are looked for in $CUDA_HOME/include (default /usr/local/cuda).
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ELEMENTS = ('offsets', 'coords', 'pred')


def cute_lines():
    cutlass = os.environ.get('CUTLASS_DIR')
    if not cutlass or not os.path.isdir(os.path.join(cutlass, 'include', 'cute')):
        print('CUTLASS_DIR is not set (or has no include/cute): skipping the CuTe run')
        sys.exit(77)
    cuda = os.path.join(os.environ.get('CUDA_HOME', '/usr/local/cuda'), 'include')
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, 'mainloops')
        subprocess.run(['g++', '-std=c++17', '-O0', '-w', '-I' + os.path.join(cutlass, 'include'),
                        '-I' + cuda, '-I' + os.path.join(cuda, 'cccl'),
                        os.path.join(HERE, 'cute_mainloops.cpp'), '-o', binary], check=True)
        out = subprocess.run([binary], check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def deduplicated(rows):
    first = {}
    for row in rows:
        if 'offsets' not in row:
            continue
        key = (row['loop'], row['part'], json.dumps([row[k] for k in ELEMENTS]))
        if key in first:
            for k in ELEMENTS:
                del row[k]
            row['same_elements_as'] = first[key]
        else:
            first[key] = row['thread']
    return rows


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ('write', 'verify'):
        sys.exit(__doc__)
    rows = deduplicated(cute_lines())
    text = ''.join(json.dumps(r, separators=(',', ':')) + '\n' for r in rows)
    if sys.argv[1] == 'write':
        with open(sys.argv[2], 'w') as f:
            f.write(text)
        print('%d lines written' % len(rows))
        return
    with open(sys.argv[2]) as f:
        stored = f.read()
    if stored != text:
        old, new = stored.splitlines(), text.splitlines()
        diff = [i for i in range(min(len(old), len(new))) if old[i] != new[i]]
        print('CuTe now answers differently: %d lines stored, %d printed, first differing line %s'
              % (len(old), len(new), diff[0] + 1 if diff else min(len(old), len(new)) + 1))
        sys.exit(1)
    print('%d lines: CuTe gives the stored answers' % len(rows))


if __name__ == '__main__':
    main()
