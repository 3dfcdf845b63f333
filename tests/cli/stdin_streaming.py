#!/usr/bin/env python3
"""Each line read from standard input is answered before the next one is read.

For every command line below, the lines are written one at a time through a
pipe; after each line the answer must arrive on stdout (within a few seconds)
while the pipe is still open and the next line not yet written.

usage: stdin_streaming.py LAYOUTX
"""
import os
import select
import subprocess
import sys

# (arguments, [(line written, text its answer contains), ...])
CASES = [
    (['eval', '-'], [('(4,3):(1,4)', '(4,3):(1,4)'), ('coalesce((2,4):(1,2))', '8:1'), ('size((4,8))', '32')]),
    (['offsets', '-'], [('2:3', '0\n3'), ('(2,2):(1,10)', '11')]),
    (['info', '-'], [('(4,3)', 'size: 12'), ('8:2', 'cosize: 15')]),
    (['lookup', '(4,3):(3,1)', '-o', '-'], [('5', '(1,2)'), ('0', '(0,0)')]),
    (['print', '-'], [('(2,2)', '+---'), ('(1,3)', '  2 ')]),
]


def read_until(p, needle, seconds):
    got = b''
    fd = p.stdout.fileno()
    while needle.encode() not in got:
        ready, _, _ = select.select([fd], [], [], seconds)
        if not ready:
            return None
        chunk = os.read(fd, 65536)
        if not chunk:
            return None
        got += chunk
    return got


def main():
    binary = sys.argv[1]
    failed = 0
    for args, lines in CASES:
        p = subprocess.Popen([binary] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for line, want in lines:
            p.stdin.write((line + '\n').encode())
            p.stdin.flush()
            if read_until(p, want, 5.0) is None:
                print('FAIL %s: no answer containing %r to %r while standard input stayed open' % (args, want, line))
                failed += 1
                break
        p.stdin.close()
        p.stdout.read()
        err = p.stderr.read().decode('utf-8', 'replace')
        if p.wait() != 0:
            print('FAIL %s: exit %d, stderr: %s' % (args, p.returncode, err[:500]))
            failed += 1
    print('%d of %d commands answered line by line' % (len(CASES) - failed, len(CASES)))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
