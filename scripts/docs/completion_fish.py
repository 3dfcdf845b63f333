"""completions/layoutx.fish, generated from the command line model."""

from .shell_words import HEADER, LANGUAGE_NAMES, takes_expression


def fish_quote(text):
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def path_key(cmd):
    return " ".join(cmd.path)


def condition(cmd):
    return fish_quote(" ".join(["__layoutx_at", *cmd.path]))


def option_flags(arg):
    flags = []
    for n in arg.names:
        if n.startswith("--"):
            flags.append(f"-l {n[2:]}")
        elif len(n) == 2:
            flags.append(f"-s {n[1]}")
        else:
            flags.append(f"-o {n[1:]}")
    return " ".join(flags)


def value_flags(arg):
    if takes_expression(arg):
        return "-x -a '(__layoutx_expression)'"
    kind = arg.value_kind
    if kind == "choices":
        return "-x -a " + fish_quote(" ".join(arg.choices))
    if kind in ("file", "dir"):
        return "-r -F"
    if kind == "atom":
        return "-x -a '(__layoutx_atoms)'"
    return "-x"


def path_walker(model):
    """__layoutx_path: the command path before the cursor, skipping option values."""
    skips, steps = [], []
    for c in model.root.walk():
        for o in c.options:
            if not o.is_flag:
                skips += [fish_quote(f"{path_key(c)}|{n}") for n in o.names]
        for s in c.commands:
            steps.append(([fish_quote(f"{path_key(c)}|{n}") for n in [s.name, *s.aliases]], s.name))
    lines = ["# The command path before the cursor: commands chosen, option values skipped.",
             "function __layoutx_path",
             "    set -l path",
             "    set -l skip 0",
             "    for word in (commandline -opc)[2..-1]",
             "        if test $skip = 1",
             "            set skip 0",
             "            continue",
             "        end",
             "        switch \"$path|$word\""]
    if skips:
        lines += ["            case " + " ".join(skips), "                set skip 1"]
    for patterns, name in steps:
        lines += ["            case " + " ".join(patterns), f"                set -a path {name}"]
    lines += ["        end", "    end", "    echo \"$path\"", "end", ""]
    return lines


HELPERS = r"""# Atom names come from the catalogue of the layoutx being completed.
function __layoutx_atoms
    layoutx atom --list 2>/dev/null | string split -f1 ' '
end

function __layoutx_at --description 'Whether the command path before the cursor is $argv'
    set -l path (__layoutx_path)
    test "$path" = "$argv"
end

# Function names complete inside an expression too, after its last
# non-identifier character: "logical_divide((8,8):(8,1), comp<TAB>".
function __layoutx_expression
    # Inside open quotes, fish matches against what follows the quote.
    set -l token (string replace -r -- '^[\'"]' '' (commandline -ct))
    # A word starting with '-' is an option (or '-', standard input).
    string match -q -- '-*' "$token"; and return
    set -l head (string replace -r -- '[A-Za-z0-9_]*$' '' "$token")
    set -l tail (string sub -s (math (string length -- "$head") + 1) -- "$token")
    set -l names (string match -- "$tail*" $__layoutx_names)
    # fish closes the quote and adds a space after a single match; a second
    # candidate that extends it keeps the expression open.
    test (count $names) = 1; and set -a names "$names[1]("
    for name in $names
        printf '%s%s\n' "$head" $name
    end
end
"""


def command_lines(cmd):
    lines = []
    for s in cmd.commands:
        lines.append(f"complete -c layoutx -n {condition(cmd)} -a {s.name} -d {fish_quote(s.description)}")
    for o in cmd.options:
        flags = option_flags(o) if o.is_flag else option_flags(o) + " " + value_flags(o)
        lines.append(f"complete -c layoutx -n {condition(cmd)} {flags} -d {fish_quote(o.description)}")
    if not cmd.commands and cmd.positionals:
        p = cmd.positionals[0]
        if takes_expression(p):
            lines.append(f"complete -c layoutx -n {condition(cmd)} -a '(__layoutx_expression)'")
        elif p.value_kind == "choices":
            lines.append(f"complete -c layoutx -n {condition(cmd)} -a {fish_quote(' '.join(p.choices))}")
        elif p.value_kind in ("file", "dir"):
            lines.append(f"complete -c layoutx -n {condition(cmd)} -F")
        elif p.value_kind == "atom":
            lines.append(f"complete -c layoutx -n {condition(cmd)} -a '(__layoutx_atoms)'")
    return lines


def generate(model):
    lines = ["# fish completion for layoutx."]
    lines += ["# " + line for line in HEADER]
    lines += ["", "complete -c layoutx -f", ""]
    names = " ".join([*model.functions, *LANGUAGE_NAMES])
    lines += [f"set -g __layoutx_names {names}", ""]
    lines += path_walker(model)
    lines += HELPERS.splitlines() + [""]
    for cmd in model.root.walk():
        lines += command_lines(cmd) + [""]
    return "\n".join(lines).rstrip("\n") + "\n"
