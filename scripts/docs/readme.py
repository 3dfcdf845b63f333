"""The README's generated parts: the command table, and the output of each
`$ command` line of its ```console blocks.

The tour shows real output: the generator runs every command with the binary
first on PATH (as `layoutx`) from the repository root, and writes what it
printed (standard output and error together) under the command.
"""

import os
import subprocess

FENCE_OPEN = "```console"
FENCE_CLOSE = "```"
PROMPT = "$ "
TABLE_BEGIN = "<!-- BEGIN GENERATED commands: scripts/update_docs.py -->"
TABLE_END = "<!-- END GENERATED commands -->"


class ReadmeError(Exception):
    pass


def run_command(command, binary_dir, cwd):
    env = dict(os.environ)
    env["PATH"] = binary_dir + os.pathsep + env.get("PATH", "")
    env.pop("NO_COLOR", None)
    env["LC_ALL"] = "C.UTF-8"
    result = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, timeout=60)
    return result.stdout


def rerun_block(lines, binary_dir, cwd):
    commands = [line for line in lines if line.startswith(PROMPT)]
    if not commands:
        raise ReadmeError("a ```console block without a `$ ` command line")
    out = []
    for command in commands:
        out.append(command)
        text = run_command(command[len(PROMPT):], binary_dir, cwd)
        out += text.splitlines()
    return out


def command_table(model):
    """The markdown table of every command and what it does (from --help)."""
    rows = ["| command | what it does |", "| --- | --- |"]
    for cmd in model.commands():
        name = " ".join(cmd.path)
        rows.append(f"| `{name}` | {cmd.description.replace('|', '&#124;')} |")
    return rows


def generate(readme, binary, cwd, model, with_table=True):
    binary_dir = os.path.dirname(os.path.abspath(binary))
    if os.path.basename(binary) != "layoutx":
        raise ReadmeError(f"the binary must be called layoutx (the README runs `layoutx ...`): {binary}")
    out, lines, i = [], readme.splitlines(), 0
    found_table = False
    while i < len(lines):
        out.append(lines[i])
        if lines[i].strip() == TABLE_BEGIN:
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == TABLE_END), None)
            if end is None:
                raise ReadmeError(f"README.md:{i + 1}: {TABLE_BEGIN} without {TABLE_END}")
            out += command_table(model) + [lines[end]]
            found_table = True
            i = end + 1
            continue
        if lines[i].strip() != FENCE_OPEN:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].strip() != FENCE_CLOSE:
            j += 1
        if j == len(lines):
            raise ReadmeError(f"README.md:{i + 1}: unclosed ```console block")
        out += rerun_block(lines[i + 1:j], binary_dir, cwd)
        out.append(lines[j])
        i = j + 1
    if with_table and not found_table:
        raise ReadmeError(f"README.md lacks the command table ({TABLE_BEGIN} ... {TABLE_END})")
    return "\n".join(out) + "\n"

