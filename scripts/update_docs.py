#!/usr/bin/env python3
"""Regenerate layoutx's documentation from the binary's --help.

    python3 scripts/update_docs.py BUILD/layoutx           rewrite the files
    python3 scripts/update_docs.py BUILD/layoutx --check   only say what would change

Writes completions/{layoutx.bash,_layoutx,layoutx.fish} entirely, the
generated blocks of man/layoutx.1 (title, synopsis, commands, options,
functions; function meanings from man/functions.txt), README.md's command
table and the output under each `$ ` command of the ```console blocks of
README.md and docs/guide.md.
Everything else is hand-written.
"""

import argparse
import difflib
import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from docs import completion_bash, completion_fish, completion_zsh, manpage, readme  # noqa: E402
from docs.help_model import HelpFormatError, read_command_line  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMPLETIONS = {
    "completions/layoutx.bash": completion_bash.generate,
    "completions/_layoutx": completion_zsh.generate,
    "completions/layoutx.fish": completion_fish.generate,
}
MAN_PAGE = "man/layoutx.1"
MEANINGS = "man/functions.txt"
README = "README.md"
GUIDE = "docs/guide.md"


class DocsError(Exception):
    pass


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def current(path):
    try:
        return read(path)
    except FileNotFoundError:
        return None


def generate_all(binary, model=None):
    """{path: new text} for every generated file, and notes for the user."""
    try:
        model = model or read_command_line(binary)
        files = {path: make(model) for path, make in COMPLETIONS.items()}
        page, stale = manpage.generate(read(MAN_PAGE), model, read(MEANINGS))
        files[MAN_PAGE] = page
        files[README] = readme.generate(read(README), binary, ROOT, model)
        files[GUIDE] = readme.generate(read(GUIDE), binary, ROOT, model, with_table=False)
    except (HelpFormatError, manpage.ManPageError, readme.ReadmeError, OSError) as e:
        raise DocsError(str(e)) from e
    notes = [f"{MEANINGS} describes {name}, which layoutx --help no longer lists" for name in stale]
    return files, notes


def changes(files):
    """[(path, unified diff)] for the files whose text would change."""
    out = []
    for path, text in files.items():
        old = current(path)
        if old != text:
            diff = difflib.unified_diff((old or "").splitlines(True), text.splitlines(True),
                                        f"{path} (now)", f"{path} (generated)", n=1)
            out.append((path, "".join(diff)))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="the layoutx binary to read --help from, e.g. build/layoutx")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file would change")
    args = parser.parse_args()
    try:
        files, notes = generate_all(args.binary)
    except DocsError as e:
        print(f"update_docs: {e}", file=sys.stderr)
        return 1
    for note in notes:
        print(f"update_docs: note: {note}", file=sys.stderr)
    pending = changes(files)
    if args.check:
        for path, diff in pending:
            print(f"update_docs: {path} is out of date", file=sys.stderr)
            sys.stderr.write(diff)
        return 1 if pending else 0
    for path, _ in pending:
        with open(os.path.join(ROOT, path), "w", encoding="utf-8") as f:
            f.write(files[path])
        print(f"update_docs: wrote {path}")
    if not pending:
        print("update_docs: everything is up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
