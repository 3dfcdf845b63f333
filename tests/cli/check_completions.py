#!/usr/bin/env python3
"""ctest completions: the bash, zsh and fish scripts load and complete for real.

    check_completions.py BUILD/layoutx

The cases come from `layoutx --help`: every command, every option of every
command, the choices of every option that has them, the functions inside an
expression. bash runs the completion function as readline would call it; fish
answers `complete -C`; zsh is driven through a pseudo-terminal and must show
the candidates. Where zsh or fish is not installed, the test exits 77 (skipped) after the others pass.
"""

import os
import pty
import re
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from docs.help_model import read_command_line  # noqa: E402
from docs.shell_words import takes_expression  # noqa: E402

BASH = os.path.join(ROOT, "completions", "layoutx.bash")
ZSH_DIR = os.path.join(ROOT, "completions")
FISH = os.path.join(ROOT, "completions", "layoutx.fish")


class Case:
    """The words typed (the last one is being completed) and names that must be offered."""

    def __init__(self, words, expected):
        self.words, self.expected = words, expected

    def line(self):
        return " ".join(["layoutx", *self.words])

    def __str__(self):
        return f"`{self.line()}<TAB>`"


def value_for(option):
    return option.choices[0] if option.choices else "1"


def atom_case(model, words):
    """An atom name cut short must be offered whole (the catalogue of the binary under test)."""
    listing = subprocess.run([model.binary, "atom", "--list"], capture_output=True, text=True, timeout=60).stdout
    name = next(line.split()[0] for line in listing.splitlines() if re.fullmatch(r"\w+", line.split()[0]))
    return Case([*words, name[:-2]], [name])


def cases(model):
    out = []
    root_values = [o for o in model.root.options if not o.is_flag]
    for cmd in model.root.walk():
        p = cmd.path
        out.append(Case([*p, "-"], [n for o in cmd.options for n in o.names]))
        if cmd.commands:
            out.append(Case([*p, ""], [s.name for s in cmd.commands]))
        name = max(model.functions, key=len)
        for o in cmd.options:
            if o.choices:
                out.append(Case([*p, o.names[-1], ""], o.choices))
            elif takes_expression(o):
                out.append(Case([*p, o.names[-1], name[:-1]], [name]))
            elif o.value_kind == "atom":
                out.append(atom_case(model, [*p, o.names[-1]]))
        if cmd.positionals and cmd.positionals[0].value_kind == "atom":
            out.append(atom_case(model, cmd.path))
        if cmd.positionals and takes_expression(cmd.positionals[0]):
            out.append(Case([*p, ""], model.functions))
            head = '"make_layout((4,3):(3,1)), '
            out.append(Case([*p, head + name[:-1]], [head[1:] + name]))
    if root_values:
        o = root_values[0]
        out.append(Case([o.names[-1], value_for(o), ""], [s.name for s in model.root.commands]))
    return out


def check_bash(model, all_cases):
    script = [f"source {BASH!r} || exit 3", "complete -p layoutx",
              't() { COMP_WORDS=(layoutx "$@"); COMP_CWORD=$#; COMPREPLY=();'
              ' _layoutx layoutx "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}";'
              ' printf "%s\\n" "${COMPREPLY[@]}"; }']
    for i, case in enumerate(all_cases):
        quoted = " ".join("'" + w.replace("'", "'\\''") + "'" for w in case.words)
        script += [f"echo '### {i}'", f"t {quoted}"]
    result = subprocess.run(["bash", "--norc", "--noprofile", "-c", "\n".join(script)], capture_output=True,
                            text=True, timeout=120)
    problems = []
    if result.returncode != 0 or result.stderr:
        problems.append(f"bash: the script failed to load or run (exit {result.returncode}): {result.stderr.strip()}")
    if "complete -F _layoutx layoutx" not in result.stdout:
        problems.append("bash: `complete -p layoutx` does not show the _layoutx function")
    replies = re.split(r"^### (\d+)\n", result.stdout, flags=re.MULTILINE)
    offered = {int(replies[i]): set(replies[i + 1].splitlines()) for i in range(1, len(replies) - 1, 2)}
    for i, case in enumerate(all_cases):
        missing = [e for e in case.expected if e not in offered.get(i, set())]
        if missing:
            problems.append(f"bash: {case} does not offer {missing}")
    return problems


def check_fish(model, all_cases):
    problems = []
    load = subprocess.run(["fish", "--no-config", "-c", f"source {FISH}"], capture_output=True, text=True,
                          timeout=60)
    if load.returncode != 0 or load.stderr:
        return [f"fish: the script does not load: {load.stderr.strip()}"]
    # One fish process for every case (a process each is most of this test's time).
    script = [f"source {FISH}"]
    for i, case in enumerate(all_cases):
        # fish's `complete -C` takes the command line as typed, quotes included.
        script += [f"echo '### {i}'", f"complete -C {fish_quote(case.line())}"]
    result = subprocess.run(["fish", "--no-config", "-c", "\n".join(script)], capture_output=True, text=True,
                            timeout=120)
    if result.returncode != 0 or result.stderr:
        problems.append(f"fish: the cases failed to run (exit {result.returncode}): {result.stderr.strip()}")
    replies = re.split(r"^### (\d+)\n", result.stdout, flags=re.MULTILINE)
    offered_by_case = {int(replies[i]): {entry.split("\t")[0] for entry in replies[i + 1].splitlines()}
                       for i in range(1, len(replies) - 1, 2)}
    for i, case in enumerate(all_cases):
        offered = offered_by_case.get(i, set())
        missing = [e for e in case.expected if e not in offered and not any(o.endswith(e) for o in offered)]
        if missing:
            problems.append(f"fish: {case} does not offer {missing}")
    return problems


def fish_quote(text):
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


class Terminal:
    """An interactive shell on a pseudo-terminal, read until text shows up."""

    def __init__(self, argv, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execvpe(argv[0], argv, env)
        import fcntl
        import termios
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 1000, 250, 0, 0))
        self.seen = ""

    def send(self, text):
        os.write(self.fd, text.encode())

    def wait_for(self, pattern, timeout):
        end = time.time() + timeout
        while time.time() < end:
            if re.search(pattern, self.seen):
                return True
            ready, _, _ = select.select([self.fd], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536).decode(errors="replace")
                except OSError:
                    break
                self.seen += re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|[\r\x07]", "", chunk)
        return re.search(pattern, self.seen) is not None

    def close(self):
        try:
            self.send("\x03exit\n")
            time.sleep(0.2)
            os.close(self.fd)
        finally:
            os.waitpid(self.pid, 0)


def check_zsh(model, all_cases):
    with tempfile.TemporaryDirectory() as scratch:
        return zsh_problems(all_cases, os.path.join(scratch, "zcompdump"))


def zsh_problems(all_cases, dump):
    # compinit reads the first line of every function file on fpath (about a
    # thousand); the dump it writes here lets the interactive shell skip that.
    compinit = f"fpath=({ZSH_DIR} $fpath); autoload -U compinit && compinit -u -d {dump}"
    load = subprocess.run(["zsh", "-f", "-c", f"{compinit} && source {os.path.join(ZSH_DIR, '_layoutx')}"],
                          capture_output=True, text=True, timeout=60)
    if load.returncode != 0 or load.stderr:
        return [f"zsh: the script does not load: {load.stderr.strip()}"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("ZDOTDIR")}
    env.update(TERM="dumb", PS1="> ")
    term = Terminal(["zsh", "-f", "-i"], env)
    problems = []
    try:
        setup = [compinit, "LISTMAX=100000",
                 "zstyle ':completion:*' list-prompt ''", "unsetopt beep", "bindkey -e", "PS1='> '", "print READY"]
        term.send("\n".join(setup) + "\n")
        if not term.wait_for(r"(^|\n)READY\n", 30):
            return ["zsh: the interactive shell did not start"]
        for i, case in enumerate(all_cases):
            term.seen = ""
            term.send(case.line() + "\t")
            wanted = [re.escape(e) for e in case.expected]
            found = term.wait_for(r"(?s)" + "".join(f"(?=.*{w})" for w in wanted), 10)
            if not found:
                missing = [e for e in case.expected if e not in term.seen]
                problems.append(f"zsh: {case} does not offer {missing}")
                if len(problems) >= 3:
                    return problems + ["zsh: stopped after three failures (each waits 10 s)"]
            # Kill the line (^U: no signal, so no typeahead is dropped) and sync.
            term.seen = ""
            term.send(f"\x15print DONE{i}\n")
            if not term.wait_for(rf"(^|\n)DONE{i}\n", 20):
                return problems + [f"zsh: the shell stopped answering after {case}: {term.seen[-600:]!r}"]
    finally:
        term.close()
    return problems


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    model = read_command_line(sys.argv[1])
    model.binary = os.path.abspath(sys.argv[1])
    # Atom names complete by running `layoutx atom --list`: the binary under test.
    os.environ["PATH"] = os.path.dirname(model.binary) + os.pathsep + os.environ.get("PATH", "")
    all_cases = cases(model)
    problems = check_bash(model, all_cases)
    tested, missing = ["bash"], []
    for shell, check in (("zsh", check_zsh), ("fish", check_fish)):
        if shutil.which(shell):
            problems += check(model, all_cases)
            tested.append(shell)
        else:
            missing.append(shell)
    for p in problems:
        print(f"completions: {p}", file=sys.stderr)
    if problems:
        return 1
    print(f"completions: ok ({len(all_cases)} cases in {', '.join(tested)})")
    if missing:
        # ctest counts 77 as skipped: a shell not installed is not a pass for its script.
        print(f"completions: skipped: {', '.join(missing)} not installed; its script is not tested")
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
