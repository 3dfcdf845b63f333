"""What `layoutx --help` says: commands, options, positionals and functions.

The documentation generators read the command line from the binary itself so
that the man page and the completions cannot drift from it. The parser knows
CLI11's help layout: section headers such as `Options:` at column 0, items
indented by two spaces, descriptions starting at column 30 (or on the next
line when the item is too long), and our footer's `Functions:` list.
"""

import re
import subprocess
from dataclasses import dataclass, field

DESCRIPTION_COLUMN = 30
OPTION_NAME = re.compile(r"^--?[A-Za-z0-9][-A-Za-z0-9_]*$")
COMMAND_NAME = re.compile(r"^[A-Za-z0-9][-A-Za-z0-9_]*$")
FUNCTION_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
POSITIONAL_SECTIONS = ("Positionals",)
COMMAND_SECTIONS = ("Subcommands",)


class HelpFormatError(Exception):
    """The help text does not look like CLI11's: the generators would guess."""


@dataclass
class OptionGroup:
    """CLI11's [Option Group: name], with its notes ("Exactly 1 of ... is required")."""

    name: str
    notes: list = field(default_factory=list)


@dataclass
class Argument:
    """An option (names start with '-') or a positional, as its help line shows it."""

    names: list
    spec: str = ""  # CLI11's type text, e.g. "TEXT:{plain,csv} ..." ; "" for a flag
    description: str = ""
    group: OptionGroup = None
    excludes: list = field(default_factory=list)
    needs: list = field(default_factory=list)

    @property
    def is_flag(self):
        return self.spec == ""

    @property
    def choices(self):
        m = re.search(r"\{([^{}]*)\}", self.spec)
        return [c for c in m.group(1).split(",") if c] if m else []

    @property
    def repeats(self):
        return bool(re.search(r"(^|\s)\.\.\.(\s|$)", self.spec)) or self.spec.startswith("...")

    @property
    def required(self):
        return "REQUIRED" in self.spec.split()

    @property
    def value_kind(self):
        """How a shell completes the value: choices, file, dir, number, atom or text."""
        head = self.spec.split(" ")[0] if self.spec else ""
        if self.choices:
            return "choices"
        if re.match(r"(The|An) (MMA or copy |copy |MMA )?atom\b", self.description):
            return "atom"
        if re.search(r":(FILE|PATH)\b", head) or re.search(r"\bFILE\b", self.description):
            return "file"
        if re.search(r":DIR\b", head):
            return "dir"
        if re.match(r"(U?INT|FLOAT|NUMBER)\b", head):
            return "number"
        return "text"

    @property
    def range(self):
        m = re.search(r"in \[(-?[0-9.e+]+) - (-?[0-9.e+]+)\]", self.spec)
        return (m.group(1), m.group(2)) if m else None

    @property
    def long_name(self):
        longs = [n for n in self.names if n.startswith("--")]
        return (longs or self.names)[0]

    @property
    def placeholder(self):
        """The value's name in the man page: N for numbers, else the option's name."""
        if self.value_kind == "number":
            return "N"
        if self.value_kind in ("file", "dir"):
            return "FILE" if self.value_kind == "file" else "DIR"
        return self.long_name.lstrip("-").upper().replace("-", "_")


@dataclass
class Command:
    path: list  # [] for layoutx itself, ["offsets"] for `layoutx offsets`
    description: str = ""
    usage: str = ""
    options: list = field(default_factory=list)
    positionals: list = field(default_factory=list)
    commands: list = field(default_factory=list)
    aliases: list = field(default_factory=list)

    @property
    def name(self):
        return self.path[-1] if self.path else "layoutx"

    def walk(self):
        """This command and every command below it, depth first."""
        yield self
        for c in self.commands:
            yield from c.walk()


@dataclass
class CommandLine:
    root: Command
    functions: list
    version: str = ""  # what `layoutx --version` prints, e.g. "layoutx 0.1.0"

    def commands(self):
        return [c for c in self.root.walk() if c.path]


def run_help(binary, path):
    result = subprocess.run([binary, *path, "--help"], capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise HelpFormatError(f"`{' '.join(['layoutx', *path, '--help'])}` exited with {result.returncode}: "
                              f"{result.stderr.strip()}")
    return result.stdout


def is_item(line):
    return line.startswith("  ") and len(line) > 2 and line[2] != " "


def block(lines, i):
    """The end of the indented block that starts at lines[i]."""
    while i < len(lines) and lines[i].startswith(" ") and lines[i].strip():
        i += 1
    return i


def split_item(line, next_line):
    """The item text and the description that starts on this line (maybe none)."""
    w = DESCRIPTION_COLUMN
    continued = next_line is not None and next_line.startswith(" " * w) and next_line[w:w + 1] != " "
    if len(line) <= w:
        return line.strip(), ""
    if line[w - 2:w] == "  ":
        return line[:w].strip(), line[w:].strip()
    if not continued and line[w - 1] == " " and line[w] != " ":
        return line[:w].strip(), line[w:].strip()
    return line.strip(), ""


def parse_items(lines):
    """[(item, description)] of a section; continuation lines join the description."""
    items = []
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else None
        if is_item(line):
            items.append(list(split_item(line, nxt)))
        elif items and line.startswith(" " * DESCRIPTION_COLUMN):
            items[-1][1] = (items[-1][1] + " " + line.strip()).strip()
        else:
            raise HelpFormatError(f"unexpected help line: {line!r}")
    return items


def parse_sections(lines):
    """[(header, items, group)] up to the footer (free text, our own or a command's).

    A section is `Header:` followed by items; CLI11's `[Option Group: name]`
    blocks hold an indented section of their own, noted with the group.
    """
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        if re.match(r"^[A-Za-z][^:]*:$", line) and i + 1 < len(lines) and is_item(lines[i + 1]):
            end = block(lines, i + 1)
            header, items = line[:-1], parse_items(lines[i + 1:end])
            known = header in POSITIONAL_SECTIONS + COMMAND_SECTIONS
            if not known and not all(item.startswith("-") for item, _ in items):
                break  # free text that happens to look like a section: the footer
            out.append((header, items, None))
            i = end
        elif line.startswith("[Option Group: ") and line.endswith("]"):
            end = block(lines, i + 1)
            inner = [x[2:] for x in lines[i + 1:end]]
            split = next((k for k, x in enumerate(inner) if re.match(r"^[A-Za-z][^:]*:$", x)), len(inner))
            notes = [x.strip().strip("[]").strip() for x in inner[:split] if x.strip()]
            group = OptionGroup(line[len("[Option Group: "):-1], notes)
            out += [(h, items, group) for h, items, _ in parse_sections(inner[split:])]
            i = end
        else:
            break
    return out


# CLI11's type names; a positional's name (which may hold spaces) ends before one.
TYPE_NAMES = ("TEXT", "INT", "UINT", "FLOAT", "NUMBER", "BOOLEAN", "ENUM", "FILE", "DIR", "PATH")


def split_spec(item):
    """(names text, type spec, annotations): `--json Excludes: --grid` -> ('--json', '', ...)."""
    words = item.split(" ")
    at = next((k for k, w in enumerate(words) if k > 0 and re.split(r"[:=]", w)[0] in TYPE_NAMES), None)
    names = " ".join(words[:at]) if at else words[0]
    rest = " ".join(words[at:]) if at else " ".join(words[1:])
    m = re.search(r"\s*\b(Excludes|Needs):.*$|\s*\(Env:.*$", rest)
    spec, notes = (rest[:m.start()], rest[m.start():]) if m else (rest, "")
    return names, spec.strip(), notes.strip()


def related(notes, label):
    m = re.search(label + r":((?:\s+-[-A-Za-z0-9_]+)+)", notes)
    return m.group(1).split() if m else []


def parse_option(item, description, group):
    head, spec, notes = split_spec(item)
    names = head.split(",")
    if not all(OPTION_NAME.match(n) for n in names):
        raise HelpFormatError(f"not an option name: {head!r}")
    return Argument(names, spec, description, group, related(notes, "Excludes"), related(notes, "Needs"))


def parse_positional(item, description):
    head, spec, _ = split_spec(item)
    return Argument([head], spec, description)


def parse_command_entry(item, description):
    names = [n.strip() for n in item.split(",")]
    if not all(COMMAND_NAME.match(n) for n in names):
        raise HelpFormatError(f"not a command name: {item!r}")
    return Command(path=[names[0]], description=description, aliases=names[1:])


def parse_functions(text):
    lines = text.splitlines()
    if "Functions:" not in lines:
        return []
    start = lines.index("Functions:") + 1
    body = []
    for line in lines[start:]:
        if not line.startswith(" ") or not line.strip():
            break
        body.append(line)
    names = " ".join(body).split()
    bad = [n for n in names if not FUNCTION_NAME.match(n)]
    if bad:
        raise HelpFormatError(f"not a function name in the Functions: list: {bad[0]!r}")
    return names


def parse_command(binary, path, description=""):
    text = run_help(binary, path)
    lines = text.splitlines()
    usage_at = next((k for k, x in enumerate(lines) if x.startswith("Usage: ")), None)
    if usage_at is None:
        raise HelpFormatError(f"no Usage: line in the help of {' '.join(['layoutx', *path])}")
    cmd = Command(path=list(path), description=description, usage=lines[usage_at][len("Usage: "):].strip())
    head = " ".join(x.strip() for x in lines[:usage_at]).strip()
    if head:
        cmd.description = head if path else head.split(": ", 1)[-1]
    for header, items, group in parse_sections(lines[usage_at + 1:]):
        for item, desc in items:
            if header in POSITIONAL_SECTIONS:
                cmd.positionals.append(parse_positional(item, desc))
            elif header in COMMAND_SECTIONS:
                entry = parse_command_entry(item, desc)
                sub = parse_command(binary, [*path, entry.name], entry.description)
                sub.aliases = entry.aliases
                cmd.commands.append(sub)
            else:
                cmd.options.append(parse_option(item, desc, group))
    return cmd


def read_command_line(binary):
    """Everything the documentation needs from the binary's --help pages."""
    root = parse_command(binary, [])
    functions = parse_functions(run_help(binary, []))
    if not root.commands:
        raise HelpFormatError("`layoutx --help` lists no commands")
    if not functions:
        raise HelpFormatError("`layoutx --help` has no Functions: list")
    return CommandLine(root, functions, read_version(binary))


def read_version(binary):
    result = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60)
    version = result.stdout.strip()
    if result.returncode != 0 or not re.match(r"^layoutx \S+$", version):
        raise HelpFormatError(f"`layoutx --version` printed {version!r} (exit {result.returncode})")
    return version
