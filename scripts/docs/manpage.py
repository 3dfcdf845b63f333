"""The generated parts of man/layoutx.1: title, synopsis, commands, options,
limits, functions.

The page's prose is hand-written; between the marker comments

    .\\" BEGIN GENERATED name
    .\\" END GENERATED name

the generator owns the text. Function meanings come from man/functions.txt
(hand-written), the list of functions from `layoutx --help`.
"""

import datetime
import re

BEGIN = re.compile(r'^\.\\" BEGIN GENERATED (\w+)$')


class ManPageError(Exception):
    pass


def escape(text):
    """Plain text as roff: backslashes, minus signs, non-ASCII, control lines."""
    out = text.replace("\\", "\\e").replace("-", "\\-")
    out = "".join(c if ord(c) < 128 else f"\\[u{ord(c):04X}]" for c in out)
    return "\\&" + out if out.startswith((".", "'")) else out


def inline(text):
    """Escaped text where `code` is set in bold."""
    parts = text.split("`")
    return "".join(escape(p) if i % 2 == 0 else "\\fB" + escape(p) + "\\fR" for i, p in enumerate(parts))


def sentence(text):
    text = text.strip()
    return text if not text or text.endswith((".", "!", "?")) else text + "."


def usage_line(cmd):
    """`layoutx offsets [OPTIONS] EXPR...` in roff, with the global [OPTIONS] shown."""
    words = cmd.usage.split()
    out = ["\\fBlayoutx\\fR", "[\\fIOPTIONS\\fR]"]
    for w in words[1:]:
        if w in cmd.path:
            out.append(f"\\fB{escape(w)}\\fR")
        elif w == "[OPTIONS]":
            out.append("[\\fICOMMAND OPTIONS\\fR]" if cmd.path else "")
        else:
            m = re.match(r"^(\[?)([A-Z][A-Z0-9_]*)(\.\.\.)?(\]?)$", w)
            out.append(f"{m.group(1)}\\fI{m.group(2)}\\fR{m.group(3) or ''}{m.group(4)}" if m else escape(w))
    return " ".join(x for x in out if x)


def argument_tag(arg):
    if arg.names[0].startswith("-"):
        names = ", ".join(f"\\fB{escape(n)}\\fR" for n in arg.names)
        return names if arg.is_flag else f"{names} \\fI{escape(arg.placeholder)}\\fR"
    return f"\\fI{escape(arg.names[0])}\\fR" + ("..." if arg.repeats else "")


def argument_entry(arg):
    lines = [".TP", argument_tag(arg), inline(sentence(arg.description))]
    if arg.excludes:
        lines.append("Not with " + " or ".join(f"\\fB{escape(n)}\\fR" for n in arg.excludes) + ".")
    if arg.needs:
        lines.append("Needs " + " and ".join(f"\\fB{escape(n)}\\fR" for n in arg.needs) + ".")
    if arg.required:
        lines.append("Required.")
    if arg.repeats and arg.names[0].startswith("-"):
        lines.append("May be given more than once.")
    if arg.choices:
        lines.append("One of: " + ", ".join(f"\\fB{escape(c)}\\fR" for c in arg.choices) + ".")
    if arg.range:
        lines.append(f"Accepted: {escape(arg.range[0])} to {escape(arg.range[1])}.")
    return lines


def is_help(arg):
    return "--help" in arg.names


def synopsis_block(model):
    lines = []
    for cmd in model.commands():
        if not cmd.commands:
            lines += [usage_line(cmd), ".br"]
    return lines[:-1]


def commands_block(model):
    lines = []
    for cmd in model.commands():
        lines += [f".SS {escape(' '.join(cmd.path))}", inline(sentence(cmd.description))]
        if cmd.aliases:
            lines.append("Also spelled " + ", ".join(f"\\fB{escape(a)}\\fR" for a in cmd.aliases) + ".")
        lines += [".PP", usage_line(cmd)]
        lines += arguments_entries([*cmd.positionals, *[o for o in cmd.options if not is_help(o)]])
    return lines


def arguments_entries(args):
    """`.TP` entries; the options of a CLI11 option group under a paragraph naming it."""
    lines, group = [], None
    for arg in args:
        if arg.group != group and arg.group is not None:
            lines += [".PP", f"Option group \\fI{escape(arg.group.name)}\\fR:"]
            lines += [inline(sentence(note)) for note in arg.group.notes]
        group = arg.group
        lines += argument_entry(arg)
    return lines


def options_block(model):
    return arguments_entries(model.root.options)


def is_limit(arg):
    """A --max-* or --limit option that caps work or output (not a hardware parameter)."""
    capped = re.search(r"\b(at most|largest|longest|deepest|listed|limit)\b", arg.description, re.IGNORECASE)
    return re.match(r"^--(max-|limit$)", arg.long_name) is not None and capped is not None


def limits_block(model):
    """Every option that bounds work or output (--max-*, --limit), by command."""
    lines = []
    for cmd in model.root.walk():
        where = "every command" if not cmd.path else "\\fB" + escape(" ".join(cmd.path)) + "\\fR"
        for arg in filter(is_limit, cmd.options):
            lines += [".TP", f"{argument_tag(arg)} ({where})", inline(sentence(arg.description))]
    return lines


def read_meanings(text):
    """Entries of man/functions.txt: ([signatures], [meaning lines])."""
    entries, current = [], None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            current = None if not line.strip() else current
            continue
        if not line[0].isspace():
            if current is None or current[1]:
                current = ([], [])
                entries.append(current)
            if not re.match(r"^[A-Za-z_]\w*", line):
                raise ManPageError(f"man/functions.txt:{n}: a signature must start with a function name: {line!r}")
            current[0].append(line.strip())
        elif current is None:
            raise ManPageError(f"man/functions.txt:{n}: a meaning needs a signature line above it")
        else:
            current[1].append(line.strip())
    for sigs, meaning in entries:
        if not meaning:
            raise ManPageError(f"man/functions.txt: {sigs[0]!r} has no meaning (indented lines below it)")
    return entries


def function_name(signature):
    return re.match(r"^[A-Za-z_]\w*", signature).group(0)


def signature_roff(signature):
    name = function_name(signature)
    return f"\\fB{escape(name)}\\fR{escape(signature[len(name):])}"


def functions_block(model, meanings_text):
    entries = read_meanings(meanings_text)
    described = {function_name(s): e for e in entries for s in e[0]}
    missing = [f for f in model.functions if f not in described]
    if missing:
        raise ManPageError("these functions from `layoutx --help` have no meaning in man/functions.txt: "
                           + ", ".join(missing) + " (describe them there, then run scripts/update_docs.py)")
    stale = sorted({n for n in described if n not in model.functions})
    order = {f: i for i, f in enumerate(model.functions)}
    listed = [e for e in entries if any(function_name(s) in order for s in e[0])]
    listed.sort(key=lambda e: min(order.get(function_name(s), len(order)) for s in e[0]))
    lines = []
    for sigs, meaning in listed:
        sigs = [s for s in sigs if function_name(s) in order]
        lines += [".TP", signature_roff(sigs[0])]
        for s in sigs[1:]:
            lines += [".TQ", signature_roff(s)]
        lines.append(inline(" ".join(meaning)))
    return lines, stale


def wrap(line, width=78):
    """A text line as several (roff joins them); control lines stay whole."""
    if line.startswith(".") or len(line) <= width:
        return [line]
    out, current = [], ""
    for word in line.split(" "):
        if current and len(current) + 1 + len(word) > width:
            out.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    out.append(current)
    return [("\\&" + x if x.startswith((".", "'")) else x) for x in out]


def replace_blocks(page, blocks):
    """The page with each generated block's body replaced; every block must be present."""
    found = set()

    def body(name):
        if name not in blocks:
            raise ManPageError(f"man/layoutx.1 has a generated block {name!r} the generator does not know")
        found.add(name)
        return blocks[name]

    out, lines, i = [], page.splitlines(), 0
    while i < len(lines):
        m = BEGIN.match(lines[i])
        out.append(lines[i])
        i += 1
        if not m:
            continue
        end = f'.\\" END GENERATED {m.group(1)}'
        while i < len(lines) and lines[i] != end:
            i += 1
        if i == len(lines):
            raise ManPageError(f"man/layoutx.1: no {end!r} after its BEGIN line")
        out += [w for line in body(m.group(1)) for w in wrap(line)]
        out.append(lines[i])
        i += 1
    absent = sorted(set(blocks) - found)
    if absent:
        raise ManPageError("man/layoutx.1 lacks the generated blocks: " + ", ".join(absent))
    return "\n".join(out) + "\n"


def page_date(page):
    """The date of the page's .TH line (kept, so that regenerating changes nothing), else today."""
    m = re.search(r'^\.TH \S+ \S+ "([^"]+)"', page, re.MULTILINE)
    return m.group(1) if m else datetime.date.today().isoformat()


def generate(page, model, meanings_text):
    """(the new page, functions described in man/functions.txt that layoutx no longer has)."""
    functions, stale = functions_block(model, meanings_text)
    blocks = {
        "title": [f'.TH LAYOUTX 1 "{page_date(page)}" "{escape(model.version)}" "User Commands"'],
        "synopsis": synopsis_block(model),
        "commands": commands_block(model),
        "options": options_block(model),
        "limits": limits_block(model),
        "functions": functions,
    }
    return replace_blocks(page, blocks), stale
