"""completions/_layoutx, generated from the command line model."""

import re

from .shell_words import HEADER, LANGUAGE_NAMES, sh_quote, takes_expression


def function_name(cmd):
    return "_layoutx" + "".join("_" + re.sub(r"[^A-Za-z0-9_]", "_", p) for p in cmd.path)


def explanation(text):
    """An _arguments [explanation]: brackets and colons would end it early."""
    return re.sub(r"([\[\]:\\])", r"\\\1", text)


def value_action(arg):
    if takes_expression(arg):
        return "_layoutx_expression"
    kind = arg.value_kind
    if kind == "choices":
        return "(" + " ".join(arg.choices) + ")"
    if kind == "file":
        return "_files"
    if kind == "dir":
        return "_files -/"
    if kind == "atom":
        return "_layoutx_atoms"
    return " "


def option_spec(arg):
    exits = "--help" in arg.names or "--version" in arg.names
    excluded = (arg.names if len(arg.names) > 1 else []) + arg.excludes
    exclusion = "(- *)" if exits else ("(" + " ".join(excluded) + ")" if excluded else "")
    repeat = "*" if arg.repeats else ""
    forms = []
    for n in arg.names:
        if arg.is_flag:
            forms.append(n)
        else:
            forms.append(n + ("=" if n.startswith("--") else "+"))
    tail = "[" + explanation(arg.description) + "]"
    if not arg.is_flag:
        tail += ":" + arg.placeholder.lower() + ":" + value_action(arg)
    if len(forms) == 1:
        return sh_quote(exclusion + repeat + forms[0] + tail)
    # zsh's brace expansion gives one spec per name, all sharing the exclusion list.
    return sh_quote(exclusion + repeat) + "{" + ",".join(forms) + "}" + sh_quote(tail)


def positional_spec(arg):
    many = "*" if arg.repeats else ""
    colon = ":" if arg.required or many else "::"
    return sh_quote(f"{many}{colon}{arg.names[0].lower()}:{value_action(arg)}")


def command_function(cmd):
    name = function_name(cmd)
    specs = [option_spec(o) for o in cmd.options]
    lines = [f"{name}() {{"]
    if cmd.commands:
        specs += [sh_quote(f"1: :{name}_commands"), sh_quote("*:: :->command")]
        lines += ["  local curcontext=$curcontext state state_descr line ret=1", "  typeset -A opt_args",
                  "  _arguments -C -S \\"]
        lines += [f"    {s} \\" for s in specs[:-1]] + [f"    {specs[-1]} && ret=0"]
        lines += ["  if [[ $state == command ]]; then",
                  f"    curcontext=${{curcontext%:*:*}}:{'-'.join(['layoutx', *cmd.path])}-$words[1]:",
                  "    case $words[1] in"]
        for s in cmd.commands:
            lines.append(f"      ({'|'.join([s.name, *s.aliases])}) {function_name(s)} && ret=0 ;;")
        lines += ["    esac", "  fi", "  return ret", "}", ""]
        lines += [f"{name}_commands() {{", "  local -a commands=("]
        lines += [f"    {sh_quote(s.name + ':' + s.description)}" for s in cmd.commands]
        lines += ["  )", f"  _describe -t commands {sh_quote(' '.join(['layoutx', *cmd.path, 'command']))} commands",
                  "}", ""]
        return lines
    specs += [positional_spec(p) for p in cmd.positionals]
    lines += ["  _arguments -S \\"]  # -h/--help is always there: one spec at least
    lines += [f"    {s} \\" for s in specs[:-1]] + [f"    {specs[-1]}"]
    lines += ["}", ""]
    return lines


EXPRESSION = r"""# Function names complete inside an expression too, after its last
# non-identifier character: "logical_divide((8,8):(8,1), comp<TAB>".
_layoutx_expression() {
  # A word starting with '-' is an option (or '-', standard input).
  [[ $PREFIX == -* ]] && return 1
  compset -P '*[^A-Za-z0-9_]'
  # A function name goes on with '(' rather than a space.
  compadd -S '' -a _layoutx_names
}

# Atom names come from the catalogue of the layoutx being completed.
_layoutx_atoms() {
  local -a atoms
  atoms=(${${(f)"$(layoutx atom --list 2>/dev/null)"}%% *})
  compadd -a atoms
}
"""

FOOTER = r"""
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _layoutx "$@"
else
  compdef _layoutx layoutx
fi
"""


def generate(model):
    lines = ["#compdef layoutx", "# zsh completion for layoutx."]
    lines += ["# " + line for line in HEADER]
    lines += [""]
    names = " ".join([*model.functions, *LANGUAGE_NAMES])
    lines += [f"typeset -ga _layoutx_names=({names})", ""]
    lines += EXPRESSION.splitlines() + [""]
    for cmd in model.root.walk():
        lines += command_function(cmd)
    return "\n".join(lines).rstrip("\n") + "\n" + FOOTER
