#!/usr/bin/env python3
"""The interactive explorer through a pseudo-terminal, as a person uses it.

    explorer_pty.py LAYOUTX

`layoutx` alone on a terminal starts the explorer. Checked: `let` bindings
used in later lines, the grid of a layout as it is entered, an error that
leaves the session going, Ctrl-C dropping the line being typed, a grid cut
to the terminal, tab completion (a function, a bound name, an atom;
only where layoutx is built with libedit), :help, the history kept in
$XDG_DATA_HOME/layoutx/history and recalled with the up arrow in the next
session, and Ctrl-D leaving with status 0.

Keys are typed only once the line editor has the terminal in its raw mode, as
a person's typing comes after the editor is ready: libedit shows its prompt
and then switches the terminal to raw mode, waiting for the prompt to be read
(TCSADRAIN). A Ctrl-D that arrives in between is the terminal's end-of-file of
canonical mode, which the switch turns into a NUL byte: on a loaded machine
the explorer then never saw Ctrl-D and waited for more input.
"""
import fcntl
import os
import pty
import re
import select
import subprocess
import sys
import tempfile
import termios
import time

ANSI = re.compile(r'\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r|\x07|\x08')


class Session:
    def __init__(self, binary, env):
        self.master, slave = pty.openpty()
        # The terminal is the explorer's controlling terminal, as a person's is: Ctrl-C there is SIGINT.
        self.proc = subprocess.Popen([binary], stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True,
                                     start_new_session=True,
                                     preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        os.close(slave)
        self.seen = ''
        self.editing = False  # set once the explorer says it edits lines (libedit)

    def expect(self, text, timeout=120.0):
        """Read until `text` shows (escape sequences removed); the output read so far is returned and forgotten."""
        end = time.time() + timeout
        while text not in ANSI.sub('', self.seen):
            left = end - time.time()
            if left <= 0:
                raise AssertionError('waited for %r; the terminal shows:\n%s' % (text, ANSI.sub('', self.seen)[-2000:]))
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    chunk = b''
                if not chunk:
                    raise AssertionError('the explorer ended while waiting for %r:\n%s' % (text, ANSI.sub('', self.seen)))
                self.seen += chunk.decode('utf-8', 'replace')
        shown, self.seen = ANSI.sub('', self.seen), ''
        return shown

    def raw_mode(self, timeout=120.0):
        """Wait until the terminal is out of canonical mode (the line editor reads keys one by one)."""
        end = time.time() + timeout
        while termios.tcgetattr(self.master)[3] & termios.ICANON:
            if time.time() > end:
                raise AssertionError('the line editor never put the terminal in raw mode')
            time.sleep(0.01)

    def send(self, keys):
        if self.editing:
            self.raw_mode()
        os.write(self.master, keys.encode())

    def answer(self, keys, pattern):
        """Type `keys`; wait for output matching `pattern` (a regex, multiline) and the prompt after it."""
        self.send(keys)
        end = time.time() + 120
        while True:
            shown = ANSI.sub('', self.seen)
            m = re.search(pattern, shown, re.M)
            if m and 'layoutx> ' in shown[m.end():]:
                self.seen = ''
                return shown
            left = end - time.time()
            if left <= 0:
                raise AssertionError('typed %r, waited for %r; the terminal shows:\n%s' % (keys, pattern, shown[-2000:]))
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    chunk = b''
                if not chunk:
                    raise AssertionError('the explorer ended; typed %r:\n%s' % (keys, shown))
                self.seen += chunk.decode('utf-8', 'replace')

    def finish(self):
        self.send('\x04')  # Ctrl-D at an empty prompt
        try:
            status = self.proc.wait(timeout=120)
        finally:
            os.close(self.master)
        return status


def main():
    binary = os.path.abspath(sys.argv[1])
    checks = []
    with tempfile.TemporaryDirectory() as home:
        env = {'PATH': os.environ.get('PATH', '/usr/bin:/bin'), 'HOME': home, 'XDG_DATA_HOME': os.path.join(home, 'data'),
               'TERM': 'xterm', 'LANG': 'C.UTF-8', 'NO_COLOR': '1'}
        s = Session(binary, env)
        with_editing = 'no libedit' not in s.expect('layoutx> ')
        s.editing = with_editing
        s.answer('let A = (4,3):(3,1)\r', r'^ 3  \|  9 \| 10 \| 11 \|')
        checks.append('let binds a layout and shows its grid')
        s.answer('A(1,2)\r', r'^5$')
        checks.append('a bound name is used in a later line')
        s.answer('logical_divid(A, 2)\r', r"did you mean 'logical_divide'")
        checks.append('an error leaves the session going')
        s.answer(':help\r', r':quit')
        checks.append(':help')
        s.send('A(9,9')
        s.expect('A(9,9')
        s.answer('\x03', r'\^C$')
        s.answer('A(2,1)\r', r'^7$')
        checks.append('Ctrl-C drops the line being typed and keeps the session')
        s.answer('(1024,1024):(1024,1)\r', r'of its 1024x1024 grid, what fits this terminal')
        checks.append('a grid larger than the terminal is cut to it, saying how to see the rest')
        if with_editing:
            s.answer('let tile88 = (8,8):(8,1)\r', r'^tile88 = ')
            s.answer('cosiz\t(tile8\t)\r', r'^64$')
            checks.append('tab completes a function and a bound name')
            atoms = subprocess.run([binary, 'atom', '--list', 'SM80_16x8x16_F32F16F16F32_TN'], capture_output=True,
                                   text=True).stdout.split()
            if 'SM80_16x8x16_F32F16F16F32_TN' in atoms:
                s.answer(':atom SM80_16x8x16_F32F16F1\t\r', r'LayoutC_TV:')
                checks.append('tab completes an atom')
        s.answer('A(3,2)\r', r'^11$')
        status = s.finish()
        assert status == 0, 'Ctrl-D: exit status %d' % status
        checks.append('Ctrl-D leaves with status 0')

        history = os.path.join(home, 'data', 'layoutx', 'history')
        assert os.path.isfile(history), 'no history file at $XDG_DATA_HOME/layoutx/history'
        with open(history, encoding='utf-8', errors='replace') as f:
            kept = f.read()
        assert 'A(1,2)' in kept, kept
        checks.append('the history is kept in the data directory')
        if with_editing:
            s = Session(binary, env)
            s.expect('layoutx> ')
            s.editing = True
            s.answer('let A = (4,3):(2,100)\r', r'^A = ')
            # Up twice: past this session's `let` to the previous session's last line, A(3,2), now 6 + 200.
            s.answer('\x1b[A\x1b[A\r', r'^206$')
            assert s.finish() == 0
            checks.append('the up arrow recalls the previous session\'s lines')
    for c in checks:
        print('ok: ' + c)
    if not with_editing:
        print('(layoutx has no libedit: completion and recall are not checked)')
    return 0


if __name__ == '__main__':
    try:
        sys.exit(main())
    except AssertionError as e:
        print('FAILED: %s' % e)
        sys.exit(1)
