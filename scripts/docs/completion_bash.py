"""completions/layoutx.bash, generated from the command line model."""

from .shell_words import HEADER, LANGUAGE_NAMES, sh_quote, takes_expression


def path_key(cmd):
    return " ".join(cmd.path)


def value_completion(arg):
    if takes_expression(arg):
        return "expression"
    kind = arg.value_kind
    if kind == "choices":
        return "choices:" + " ".join(arg.choices)
    return kind if kind in ("file", "dir", "atom") else "none"


def case_table(name, comment, arms, default="*) return 1 ;;", subject="$1"):
    lines = [f"# {comment}", f"{name}() {{", f"  case {subject} in"]
    lines += [f"    {pattern}) REPLY={sh_quote(reply)} ;;" for pattern, reply in arms]
    lines += [f"    {default}", "  esac", "}", ""]
    return lines


def commands_table(model):
    arms = [(sh_quote(path_key(c)), " ".join(s.name for s in c.commands)) for c in model.root.walk() if c.commands]
    return case_table("_layoutx_commands_of", "The commands under the command path $1.", arms,
                      "*) REPLY='' ;;")


def command_names_table(model):
    arms = []
    for c in model.root.walk():
        for s in c.commands:
            patterns = "|".join(sh_quote(f"{path_key(c)}|{n}") for n in [s.name, *s.aliases])
            arms.append((patterns, path_key(s)))
    return case_table("_layoutx_command_named", 'The command path that "$1|$2" names (a name or an alias).', arms,
                      subject='"$1|$2"')


def options_table(model):
    arms = [(sh_quote(path_key(c)), " ".join(n for o in c.options for n in o.names)) for c in model.root.walk()]
    return case_table("_layoutx_options_of", "The options of the command path $1.", arms, "*) REPLY='' ;;")


def values_table(model):
    arms = []
    for c in model.root.walk():
        for o in c.options:
            if not o.is_flag:
                arms.append(("|".join(sh_quote(f"{path_key(c)}|{n}") for n in o.names), value_completion(o)))
    return case_table("_layoutx_value_of", 'How the value of option "$1|$2" completes; fails for a flag.', arms,
                      subject='"$1|$2"')


def positionals_table(model):
    arms = []
    for c in model.root.walk():
        if c.positionals:
            p = c.positionals[0]
            arms.append((sh_quote(path_key(c)), value_completion(p)))
    return case_table("_layoutx_positional_of", "How the positional arguments of the command path $1 complete.",
                      arms, "*) REPLY=none ;;")


BODY = r"""# Function names complete inside an expression too, after its last
# non-identifier character: "logical_divide((8,8):(8,1), comp<TAB>".
_layoutx_expression() {
  local cur=$1 quoted=$2 head
  head=${cur%"${cur##*[!A-Za-z0-9_]}"}
  local name
  COMPREPLY=()
  for name in $(compgen -W "$_layoutx_names" -- "${cur:${#head}}"); do
    COMPREPLY+=("$head$name")
  done
  # A function name goes on with '(' rather than a space.
  compopt -o nospace 2>/dev/null
  # Readline closes the quote after a single match; a second candidate that
  # extends it keeps the quote open (the common prefix is still inserted).
  if [[ -n $quoted ]] && ((${#COMPREPLY[@]} == 1)); then
    COMPREPLY+=("${COMPREPLY[0]}(")
  fi
  return 0
}

_layoutx_complete_as() {
  local how=$1 cur=$2 quoted=$3
  case $how in
    choices:*) COMPREPLY=($(compgen -W "${how#choices:}" -- "$cur")) ;;
    file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
    dir) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
    expression) _layoutx_expression "$cur" "$quoted" ;;
    # Atom names come from the catalogue of the layoutx being completed;
    # outside quotes, the '<' '>' ',' of templated names are escaped.
    atom)
      local name
      COMPREPLY=()
      for name in $(compgen -W "$(layoutx atom --list 2>/dev/null | cut -d' ' -f1)" -- "$cur"); do
        if [[ -n $quoted ]]; then COMPREPLY+=("$name"); else COMPREPLY+=("$(printf '%q' "$name")"); fi
      done ;;
    *) COMPREPLY=() ;;
  esac
}

_layoutx() {
  local cword=$COMP_CWORD cur=${COMP_WORDS[COMP_CWORD]} prev='' REPLY
  ((cword > 0)) && prev=${COMP_WORDS[cword - 1]}
  # bash splits --opt=value at '=': complete the value of --opt.
  if [[ $cur == = ]]; then
    cur=''
  elif [[ $prev == = ]] && ((cword > 1)); then
    prev=${COMP_WORDS[cword - 2]}
  fi
  # A word inside open quotes: complete what follows the quote.
  local quoted=''
  if [[ $cur == [\"\']* ]]; then
    quoted=${cur:0:1}
    cur=${cur:1}
  fi

  # Walk the words before the cursor: commands chosen, option values skipped.
  local path='' i=1 w
  while ((i < cword)); do
    w=${COMP_WORDS[i]}
    if [[ ${COMP_WORDS[i + 1]-} == = ]]; then
      ((i += 3))
      continue
    fi
    if [[ $w == -* ]]; then
      _layoutx_value_of "$path" "$w" && ((i++))
    elif _layoutx_command_named "$path" "$w"; then
      path=$REPLY
    fi
    ((i++))
  done

  if [[ $prev == -* ]] && _layoutx_value_of "$path" "$prev"; then
    _layoutx_complete_as "$REPLY" "$cur" "$quoted"
    return 0
  fi
  if [[ $cur == -* ]]; then
    _layoutx_options_of "$path"
    COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))
    return 0
  fi
  _layoutx_commands_of "$path"
  if [[ -n $REPLY ]]; then
    COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))
    return 0
  fi
  _layoutx_positional_of "$path"
  _layoutx_complete_as "$REPLY" "$cur" "$quoted"
  return 0
}

complete -F _layoutx layoutx
"""


def generate(model):
    lines = ["# bash completion for layoutx" + " " * 30 + "-*- shell-script -*-"]
    lines += ["# " + line for line in HEADER]
    lines += [""]
    lines += [f"_layoutx_names={sh_quote(' '.join([*model.functions, *LANGUAGE_NAMES]))}", ""]
    for table in (commands_table, command_names_table, options_table, values_table, positionals_table):
        lines += table(model)
    return "\n".join(lines) + "\n" + BODY
