#!/usr/bin/env python3
"""Each line read from standard input is answered before the next one is read,
and memory stays flat however many lines or cells there are.

For every command line below, the lines are written one at a time through a
pipe; after each line the answer must arrive on stdout while the pipe is
still open and the next line not yet written (no pause is needed: a program
that waited for more input before answering would leave the answer missing
until the 60 s wait for it fails). Long inputs, whose lines are shared among
threads, must be answered byte for byte as one line at a time answers them.
Then 10^6 lines through `eval -` and a 2048x2048 `print` grid must each stay
within 16 MiB of peak resident memory (skipped with
--no-peak-memory: a sanitizer's shadow memory and quarantine of freed blocks
make resident memory grow whatever the program keeps).

usage: stdin_streaming.py LAYOUTX [--no-peak-memory]
"""
import os
import select
import subprocess
import sys
import tempfile

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


# Long inputs, whose lines are at hand many at a time and so shared among
# threads: stdout, stderr and the exit status must be exactly those of one
# line at a time (eval --jobs 1), whatever the number of threads. Each row:
# the global options, the lines repeated (blank, comment, CRLF, Triton and
# over-long lines among them), how many times, and the exit status; the input
# runs over several reads of standard input, with lines split across them.
TRITON = '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>'
MIXED = ['(4,3):(3,1)', 'logical_divide((8,8):(8,1), (2,4))', '', '# a comment', '   ', 'M', 'composition(M:1, (3,4))',
         'composition((6,2):(1,6), 4:2)', '(4,3):(3,', 'no_such_function(4:1)', 'complement(4:2, 32)\r', TRITON,
         'Sw<3,4,3> o (8,64):(64,1)', 'size(M)', 'left_inverse((2,4):(1,3))', '  coalesce(((2,4),(3,5)):((1,2),(8,24)))  ',
         'x' * 300, '#ttg.blocked<{sizePerThread = [1]}>', 'blocked_product((2,2):(1,2), (3,4))']
SHARED_LINES = [
    (['--dynamic', '-D', 'M=12', '--shape', '16,32'], MIXED, 400, 1),
    (['--dynamic', '--strict', '-D', 'M=12', '--shape', '16,32', '--max-length', '200'], MIXED, 400, 1),
    ([], ['(4,3):(3,1)', 'complement(4:2, 32)', 'right_inverse((4,8):(8,1))'], 3000, 0),
    ([], ['(4,3):(3,1)'] * 99 + ['(4,3):(3,'], 50, 1),
]


def shared_lines(binary):
    failed = 0
    for k, (options, lines, times, want) in enumerate(SHARED_LINES):
        with tempfile.TemporaryFile() as f:
            f.write(('\n'.join(lines * times) + '\n').encode())
            answers = []
            for jobs in ['1', '3', '0']:
                f.seek(0)
                r = subprocess.run([binary] + options + ['eval', '--jobs', jobs, '-'], stdin=f, capture_output=True)
                answers.append((jobs, r.returncode, r.stdout, r.stderr))
        _, rc, out, err = answers[0]
        if not out or rc != want or bool(err) != (want != 0):
            print('FAIL shared lines %d: one line at a time gave exit %d (want %d), %d bytes out, %d bytes err' %
                  (k, rc, want, len(out), len(err)))
            failed += 1
        for jobs, rc2, out2, err2 in answers[1:]:
            if (rc2, out2, err2) != (rc, out, err):
                print('FAIL shared lines %d: --jobs %s answers differ from --jobs 1 (exit %d/%d, stdout %s, stderr %s)' %
                      (k, jobs, rc2, rc, out2 == out, err2 == err))
                failed += 1
    print('%d of %d long inputs answered as one line at a time' % (len(SHARED_LINES) - failed, len(SHARED_LINES)))
    return failed


PEAK_LIMIT_KIB = 16 * 1024
TIME = '/usr/bin/time'


def peak_kib(binary, args, stdin):
    """Exit status, peak resident memory (KiB) and stderr of one run, stdout
    discarded. GNU time measures it: a child of this (larger) Python process
    would report Python's peak too, as Linux carries it across fork and exec."""
    r = subprocess.run([TIME, '-f', 'peak %M', binary] + args, stdin=stdin, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    err = r.stderr.decode('utf-8', 'replace').splitlines()
    return r.returncode, int(err[-1].split()[1]), '\n'.join(err[:-1])


def flat_memory(binary):
    if not os.access(TIME, os.X_OK):
        print('skipped the peak-memory cases: no %s' % TIME)
        return 0
    exprs = [b'(4,3):(3,1)', b'logical_divide((8,8):(8,1), (2,4))', b'composition((4,6):(1,4), (3,2):(2,1))',
             b'complement(4:2, 32)', b'Sw<3,4,3> o (8,64):(64,1)']
    failed = 0
    with tempfile.TemporaryFile() as lines, open(os.devnull, 'rb') as nothing:
        block = b''.join(e + b'\n' for e in exprs) * 1000
        for _ in range(10 ** 6 // (len(exprs) * 1000)):
            lines.write(block)
        lines.seek(0)
        for name, args, stdin in [('eval - of 10^6 lines', ['eval', '-'], lines),
                                  ('print of a 2048x2048 grid', ['--max-cells', '4194304', 'print', '(2048,2048)'],
                                   nothing)]:
            rc, kib, err = peak_kib(binary, args, stdin)
            if rc != 0 or kib > PEAK_LIMIT_KIB:
                print('FAIL %s: exit %d, peak %d KiB (limit %d), stderr: %s' % (name, rc, kib, PEAK_LIMIT_KIB, err[:300]))
                failed += 1
            else:
                print('ok   %s: peak %d KiB' % (name, kib))
    return failed


def main():
    binary = sys.argv[1]
    failed = 0
    for args, lines in CASES:
        p = subprocess.Popen([binary] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for line, want in lines:
            p.stdin.write((line + '\n').encode())
            p.stdin.flush()
            # Generous: only a missing answer waits this long, and a busy
            # machine must not make a streaming answer look missing.
            if read_until(p, want, 60.0) is None:
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
    failed += shared_lines(binary)
    if '--no-peak-memory' in sys.argv[2:]:
        print('skipped the peak-memory cases (--no-peak-memory)')
    else:
        failed += flat_memory(binary)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
