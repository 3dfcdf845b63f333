#!/usr/bin/env python3
"""`layoutx emit` against CuTe: the emitted code must build the value layoutx printed.

    emit_cute.py LAYOUTX CASES.tsv cpp  [--work DIR]   compile the C++ forms against CuTe
    emit_cute.py LAYOUTX CASES.tsv python              read the Python DSL forms back
    emit_cute.py LAYOUTX CASES.tsv readback            read the C++ forms back through layoutx

cpp: every case's `emit --as cpp` expression goes into one translation unit,
with a static_assert that its type is exactly `emit --as type`; the unit is
compiled host-only with g++ against $CUTLASS_DIR/include (skipped, exit 77,
without it), run, and CuTe's print of each value must be what `layoutx eval`
prints (its static marks `_` dropped in the static mode, as layoutx drops them).

python: every `emit --as python` text must be one Python expression made of
the CuTe DSL calls (cute.make_layout(shape, stride=...), cute.make_swizzle(b, m,
s), cute.make_composed_layout(inner, offset, outer), cutlass.Int32/Int64(n)),
int literals and tuples; read back by a model of those calls it must print
what `layoutx --dynamic eval` prints (the DSL's Python ints are static).

readback: every `emit --as cpp` text, given back to layoutx as pasted C++ in
the case's mode, must evaluate to what `layoutx eval` printed for the case; so
must every `emit --as type` text without a run-time `int` (a type spelling
stands for its value-initialized object, whose `int` members are 0).

Each step sends the expressions of one mode through one process (`layoutx
... -`, one expression a line of standard input); where that process fails,
each expression runs alone and the failing one is named.
"""
import ast
import os
import re
import subprocess
import sys
import tempfile


def load(path):
    cases = []
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            mode, expr = line.split('\t')
            if mode not in ('static', 'dynamic'):
                sys.exit('%s:%d: mode must be static or dynamic' % (path, n))
            cases.append((mode, expr))
    return cases


def layoutx(binary, mode, *args):
    argv = [binary] + (['--dynamic'] if mode == 'dynamic' else []) + list(args)
    r = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        raise RuntimeError('%s: exit %d: %s' % (' '.join(argv), r.returncode, r.stderr.strip()))
    return r.stdout.rstrip('\n')


def outputs(binary, items, *args, errors=False):
    """What `layoutx [--dynamic] ARGS EXPR` prints (its one line) for each
    (mode, EXPR) of items, in order: the expressions of one mode go through one
    process as lines of standard input. Where that process fails, each
    expression runs alone, so that the failing one is named: its RuntimeError
    is raised, or with `errors` given back as the text 'error: ...'."""
    out = [None] * len(items)
    for mode in ('static', 'dynamic'):
        idx = [k for k, (m, _) in enumerate(items) if m == mode]
        if not idx:
            continue
        argv = [binary] + (['--dynamic'] if mode == 'dynamic' else []) + list(args) + ['-']
        r = subprocess.run(argv, input=''.join(items[k][1] + '\n' for k in idx), capture_output=True, text=True,
                           timeout=60 + len(idx))
        lines = r.stdout.split('\n')
        if r.returncode == 0 and not r.stderr and len(lines) == len(idx) + 1 and lines[-1] == '':
            for k, line in zip(idx, lines):
                out[k] = line
            continue
        for k in idx:
            try:
                out[k] = layoutx(binary, mode, *args, items[k][1])
            except RuntimeError as e:
                if not errors:
                    raise
                out[k] = 'error: %s' % e
    return out


def drop_static_marks(text):
    return re.sub(r'(?<![A-Za-z0-9_])_(?=-?[0-9])', '', text)


def run_cpp(binary, cases, work):
    cutlass = os.environ.get('CUTLASS_DIR')
    if not cutlass or not os.path.isdir(os.path.join(cutlass, 'include', 'cute')):
        print('CUTLASS_DIR is not set (or has no include/cute): skipping the CuTe compile')
        return 77
    cuda = os.environ.get('CUDA_DIR', '/usr/local/cuda')
    lines = ['#include <cstdio>', '#include <type_traits>', '#include <cute/tensor.hpp>', 'using namespace cute;', '']
    code_types, codes = outputs(binary, cases, 'emit', '--as', 'type'), outputs(binary, cases, 'emit', '--as', 'cpp')
    for k, (code_type, code) in enumerate(zip(code_types, codes)):
        lines += ['void case%d() {' % k,
                  '  auto v = %s;' % code,
                  '  static_assert(std::is_same_v<decltype(v), %s>, "case %d: the type differs");' % (code_type, k),
                  '  std::printf("@@%d ");' % k,
                  '  print(v);',
                  '  std::printf("\\n");',
                  '}', '']
    lines.append('int main() {')
    lines += ['  case%d();' % k for k in range(len(cases))]
    lines += ['}', '']
    src, exe = os.path.join(work, 'emit.cpp'), os.path.join(work, 'emit')
    with open(src, 'w') as f:
        f.write('\n'.join(lines))
    cmd = ['g++', '-std=c++17', '-O0', '-w', '-I' + os.path.join(cutlass, 'include'), '-I' + os.path.join(cuda, 'include'),
           '-I' + os.path.join(cuda, 'include', 'cccl'), src, '-o', exe]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        print('the emitted C++ does not compile against CuTe:\n' + r.stderr[:6000])
        return 1
    out = subprocess.run([exe], capture_output=True, text=True, timeout=60).stdout
    printed = dict((int(m.group(1)), m.group(2)) for m in re.finditer(r'^@@(\d+) (.*)$', out, re.M))
    failures = 0
    wants = outputs(binary, cases, 'eval')
    for k, (mode, expr) in enumerate(cases):
        want = wants[k]
        got = printed.get(k)
        if got is not None and mode == 'static':
            got = drop_static_marks(got)
        if got != want:
            failures += 1
            print('case %d (%s) %s: CuTe prints %r, layoutx %r' % (k, mode, expr, got, want))
    print('%d of %d emitted C++ values compile to their type and print as layoutx does' % (len(cases) - failures, len(cases)))
    return 1 if failures else 0


# A model of the few CuTe DSL calls emit writes: each builds the text CuTe prints.
class Dyn:
    def __init__(self, bits, value):
        self.bits, self.value = bits, value


def int_text(x):
    if isinstance(x, Dyn):
        return str(x.value)
    if isinstance(x, bool) or not isinstance(x, int):
        raise ValueError('an integer, got %r' % (x,))
    return '_%d' % x


def tuple_text(x):
    if isinstance(x, tuple):
        return '(' + ','.join(tuple_text(e) for e in x) + ')'
    return int_text(x)


def congruent(a, b):
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and all(map(congruent, a, b))
    return True


class Text(str):
    """A value the model built: what CuTe prints for it."""


def make_layout(shape, *, stride):
    if not congruent(shape, stride):
        raise ValueError('shape and stride are not congruent')
    return Text(tuple_text(shape) + ':' + tuple_text(stride))


def make_swizzle(b, m, s):
    for x in (b, m, s):
        if isinstance(x, bool) or not isinstance(x, int):
            raise ValueError('make_swizzle takes Python ints')
    return Text('Sw<%d,%d,%d>' % (b, m, s))


def make_composed_layout(inner, offset, outer):
    if not (isinstance(inner, Text) and inner.startswith('Sw<')):
        raise ValueError('make_composed_layout: the inner transformation here is a swizzle')
    return Text('%s o %s o %s' % (inner, int_text(offset), outer))


CALLS = {('cute', 'make_layout'): make_layout, ('cute', 'make_swizzle'): make_swizzle,
         ('cute', 'make_composed_layout'): make_composed_layout,
         ('cutlass', 'Int32'): lambda v: Dyn(32, v), ('cutlass', 'Int64'): lambda v: Dyn(64, v)}


def model(node):
    """Evaluate the DSL text's syntax tree; anything outside the DSL subset is an error."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return -model(node.operand)
    if isinstance(node, ast.Constant) and node.value is None:
        return Text('_')
    if isinstance(node, ast.Tuple):
        return tuple(model(e) for e in node.elts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
        fn = CALLS.get((node.func.value.id, node.func.attr))
        if fn is None:
            raise ValueError('%s.%s is not a CuTe DSL call emit writes' % (node.func.value.id, node.func.attr))
        return fn(*[model(a) for a in node.args], **{k.arg: model(k.value) for k in node.keywords})
    raise ValueError('not part of the DSL subset: %s' % ast.dump(node)[:80])


def value_text(v):
    if isinstance(v, Text):
        return str(v)
    if isinstance(v, tuple):
        return '(' + ','.join(value_text(e) for e in v) + ')'
    return int_text(v)


def run_python(binary, cases):
    failures = 0
    codes = outputs(binary, cases, 'emit', '--as', 'python', errors=True)
    # A value the DSL has no spelling for (a scaled-basis stride) must be refused as such, and is not read back.
    kept = [k for k in range(len(cases)) if not (codes[k].startswith('error:') and "counterpart" in codes[k] and "Python DSL" in codes[k])]
    refused = len(cases) - len(kept)
    cases = [cases[k] for k in kept]
    codes = [codes[k] for k in kept]
    # The DSL's Python ints are static: a dynamic case prints as `--dynamic eval` does, a static one all marked.
    dynamic = [k for k, (mode, _) in enumerate(cases) if mode == 'dynamic']
    static = [k for k, (mode, _) in enumerate(cases) if mode == 'static']
    wants = dict(zip(dynamic, outputs(binary, [cases[k] for k in dynamic], 'eval')))
    wants.update(zip(static, static_texts(binary, [cases[k] for k in static])))
    for k, (mode, expr) in enumerate(cases):
        code, want = codes[k], wants[k]
        try:
            got = value_text(model(ast.parse(code, mode='eval').body))
        except (SyntaxError, ValueError, TypeError) as e:
            got = 'error: %s' % e
        if got != want:
            failures += 1
            print('case %d (%s) %s: the DSL text %r reads back as %r, layoutx %r' % (k, mode, expr, code, got, want))
    print('%d of %d emitted Python DSL calls read back as the value layoutx printed (%d without a DSL spelling)' %
          (len(cases) - failures, len(cases), refused))
    return 1 if failures else 0


def run_readback(binary, cases):
    failures = checked = 0
    wants = outputs(binary, cases, 'eval')
    for form in ('cpp', 'type'):
        codes = outputs(binary, cases, 'emit', '--as', form)
        # A type with a run-time int member stands for no particular value.
        kept = [k for k in range(len(cases)) if form != 'type' or not re.search(r'\bint\b', codes[k])]
        got = outputs(binary, [(cases[k][0], codes[k]) for k in kept], 'eval', errors=True)
        for k, text in zip(kept, got):
            checked += 1
            if text != wants[k]:
                failures += 1
                print('case %d (%s) %s: emit --as %s gives %r, which reads back as %r, not %r' % (
                    k, cases[k][0], cases[k][1], form, codes[k], text, wants[k]))
    print('%d of %d emitted C++ texts read back through layoutx as the value it printed' % (checked - failures, checked))
    return 1 if failures else 0


def static_texts(binary, cases):
    """CuTe's print of each all-static value: layoutx's default text with every integer marked static."""
    return [re.sub(r'Sw<[^>]*>|-?[0-9]+', lambda m: m.group(0) if m.group(0).startswith('Sw') else '_' + m.group(0), plain)
            for plain in outputs(binary, [('static', expr) for _, expr in cases], 'eval')]


def main():
    if len(sys.argv) < 4 or sys.argv[3] not in ('cpp', 'python', 'readback'):
        sys.exit(__doc__)
    binary, cases = sys.argv[1], load(sys.argv[2])
    if sys.argv[3] == 'python':
        return run_python(binary, cases)
    if sys.argv[3] == 'readback':
        return run_readback(binary, cases)
    work = sys.argv[sys.argv.index('--work') + 1] if '--work' in sys.argv else None
    if work:
        os.makedirs(work, exist_ok=True)
        return run_cpp(binary, cases, work)
    with tempfile.TemporaryDirectory() as tmp:
        return run_cpp(binary, cases, tmp)


if __name__ == '__main__':
    sys.exit(main())
