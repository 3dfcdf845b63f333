#!/usr/bin/env python3
"""ctest docs_in_sync: the man page, completions and README agree with --help.

    check_docs.py BUILD/layoutx

Fails when scripts/update_docs.py would change any file, or when a command,
option or function that `layoutx --help` lists is missing from the man page or
from a completion script.
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import update_docs  # noqa: E402
from docs import manpage  # noqa: E402
from docs.help_model import HelpFormatError, read_command_line  # noqa: E402


def words_of(text):
    return set(re.findall(r"[-A-Za-z0-9_]+", text))


def fish_option_forms(name):
    if name.startswith("--"):
        return [f"-l {name[2:]}"]
    return [f"-s {name[1:]}"] if len(name) == 2 else [f"-o {name[1:]}"]


def missing_names(model, files):
    """[(file, what, name)] for every --help name a documentation file lacks."""
    page = files[update_docs.MAN_PAGE]
    bash, zsh, fish = (files[p] for p in update_docs.COMPLETIONS)
    out = []
    for cmd in model.root.walk():
        names = [("command", n) for n in ([cmd.name, *cmd.aliases] if cmd.path else [])]
        names += [("option", n) for o in cmd.options for n in o.names]
        for what, name in names:
            if manpage.escape(name) not in page:
                out.append((update_docs.MAN_PAGE, what, name))
            for path, text in (("completions/layoutx.bash", bash), ("completions/_layoutx", zsh)):
                if name not in words_of(text):
                    out.append((path, what, name))
            forms = fish_option_forms(name) if what == "option" else [f"-a {name}", f"|{name}'"]
            if not any(f in fish for f in forms):
                out.append(("completions/layoutx.fish", what, name))
    for name in model.functions:
        if f"\\fB{manpage.escape(name)}\\fR" not in page:
            out.append((update_docs.MAN_PAGE, "function", name))
        for path in update_docs.COMPLETIONS:
            if name not in words_of(files[path]):
                out.append((path, "function", name))
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = sys.argv[1]
    shown = os.path.abspath(binary)
    if shown.startswith(ROOT + os.sep):
        shown = os.path.relpath(shown, ROOT)
    fix = f"run: python3 scripts/update_docs.py {shown}"
    try:
        model = read_command_line(binary)
        generated, notes = update_docs.generate_all(binary, model)
    except (HelpFormatError, update_docs.DocsError) as e:
        print(f"docs_in_sync: cannot generate the documentation: {e}", file=sys.stderr)
        return 1
    for note in notes:
        print(f"docs_in_sync: note: {note}")
    failed = False
    for path, diff in update_docs.changes(generated):
        print(f"docs_in_sync: {path} is out of date with `layoutx --help`:", file=sys.stderr)
        sys.stderr.write(diff[:4000] + ("\n[diff cut]\n" if len(diff) > 4000 else ""))
        failed = True
    on_disk = {path: update_docs.current(path) or "" for path in generated}
    for path, what, name in missing_names(model, on_disk):
        print(f"docs_in_sync: {path} does not mention the {what} {name}", file=sys.stderr)
        failed = True
    if failed:
        print(f"docs_in_sync: FAILED: the documentation is out of step with the binary; {fix}", file=sys.stderr)
        return 1
    commands = len(model.commands())
    options = sum(len(c.options) for c in model.root.walk())
    print(f"docs_in_sync: ok ({commands} commands, {options} options, {len(model.functions)} functions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
