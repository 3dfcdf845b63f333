#!/usr/bin/env python3
"""Random whole CuTe programs, the input of `layoutx run`.

Each program is C++ as a CuTe user writes it (`#include <cute/tensor.hpp>`,
`using namespace cute;`, `int main() {...}`), built from the value generators of
generate.py (layouts, swizzles, tilers, TiledMMA/TiledCopy atoms) and
statements around them: declarations (`auto`, `constexpr int`, `Layout<...>{}`
types, `using X = decltype(...)`), loops, branches, integer arithmetic and
output (`print`, `print_layout`, `print_tensor`, `printf` with many formats,
`std::cout`).  Groups (the `group` field):

  layouts   straight-line layouts of every value kind, static and dynamic
  algebra   composition, divides, products, complement, inverses, coalesce, ...
  loops     for / while / if / range-for / break / continue over layout values
  printf    printf formats as glibc writes them, std::cout
  swizzle   swizzles, composed layouts, GMMA shared-memory atoms
  tensor    identity and coordinate tensors, local_tile, local_partition, nullptr-based
            gmem/smem tensors (their pointers print from address 0: deterministic)
  tiled     TiledMMA / TiledCopy and their per-thread slices, fragments, retiling
  kernel    `__global__ void k()` bodies reading threadIdx/blockIdx, with the
            flags of the thread they are run as (`--thread`, `--cta`, `--block`, `--grid`)
  refused   programs CuTe refuses at compile time (static_assert, mismatches)
  runtime   programs that fail at run time (division by zero) after some output
  values    integers and their static arithmetic, int tuples, coordinates, tilers, steps,
            scaled bases, swizzle functions (added after seed 1: `--groups` names the
            groups of seed 1 to make it again, SEED1_GROUPS)

Deterministic: the same seed and count give the same programs.

usage: generate_programs.py --seed S --count N [--groups a,b] > programs.jsonl
Each line: {"id", "group", "program", "flags"}; program_runner.py adds CuTe's answers.
"""
import argparse
import json
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate as G  # noqa: E402

# ----------------------------------------------------------------------------
# A program being written: its includes, the lines before main, main's body.


class Program:
    def __init__(self, g):
        self.g = g
        self.includes = ['<cute/tensor.hpp>']
        self.top = []
        self.body = []
        self.depth = 1
        self.names = set()
        self.flags = []

    def include(self, h):
        if h not in self.includes:
            self.includes.append(h)

    def add(self, line):
        self.body.append('  ' * self.depth + line)

    def open(self, header):
        self.add(header + ' {')
        self.depth += 1

    def close(self, tail=''):
        self.depth -= 1
        self.add('}' + tail)

    def name(self, base):
        n, k = base, 1
        while n in self.names:
            k += 1
            n = '%s%d' % (base, k)
        self.names.add(n)
        return n

    def text(self, main=True):
        lines = ['#include %s' % h for h in self.includes] + ['', 'using namespace cute;', '']
        lines += self.top
        if main:
            if self.top:
                lines.append('')
            lines.append('int main() {')
            lines += self.body
            if self.g.chance(0.5):
                lines.append('  return 0;')
            lines.append('}')
        return '\n'.join(lines) + '\n'


def cpp_of(node, g, policy=None):
    """the C++ of a generate.py node; integers static or dynamic as the policy says"""
    marks = G.Marks('dynamic', policy or g.pick(G.POLICIES), g.rng)
    return unwrap(node.render(marks)[1])


def unwrap(cpp):
    """generate.py's partitions print (layout, origin) pairs through its harness: a program
    prints the tensor itself"""
    key = 'diffx::layout_and_origin('
    while key in cpp:
        i = cpp.index(key)
        depth, j = 0, i + len(key) - 1
        while True:
            if cpp[j] == '(':
                depth += 1
            elif cpp[j] == ')':
                depth -= 1
                if depth == 0:
                    break
            j += 1
        cpp = cpp[:i] + cpp[i + len(key):j] + cpp[j + 1:]
    return cpp


# ----------------------------------------------------------------------------
# Ways to write a layout of known shape and stride (Python lists of ints).


def tup(t, static, maker='make_shape'):
    if isinstance(t, int):
        return ('Int<%d>{}' % t if static == 'Int' else '_%d{}' % t) if static else str(t)
    return '%s(%s)' % (maker, ', '.join(tup(e, static, maker) for e in t))


def type_tup(t, kind):
    if isinstance(t, int):
        return '_%d' % t
    return '%s<%s>' % (kind, ', '.join(type_tup(e, kind) for e in t))


def layout_cpp(g, s, d, style=None):
    """C++ for the layout s:d in one of the ways CuTe code writes one"""
    style = style or g.pick(['dyn', 'dyn', 'int', 'us', 'type', 'type', 'mixed'])
    compact_col = d == G.col_major(s)
    compact_row = d == G.row_major(s)
    if style == 'type':
        if compact_col and g.chance(0.3):
            return 'Layout<%s>{}' % type_tup(s, 'Shape')
        return 'Layout<%s, %s>{}' % (type_tup(s, 'Shape'), type_tup(d, 'Stride'))
    if style == 'mixed':  # static shape, dynamic strides
        return 'make_layout(%s, %s)' % (tup(s, True, 'make_shape'), tup(d, False, 'make_stride'))
    st = {'dyn': False, 'int': 'Int', 'us': True}[style]
    if compact_col and g.chance(0.4):
        return 'make_layout(%s)' % tup(s, st)
    if compact_row and g.chance(0.4):
        return 'make_layout(%s, LayoutRight{})' % tup(s, st)
    return 'make_layout(%s, %s)' % (tup(s, st), tup(d, st, 'make_stride'))


def rank2_layout(g, max_size=128, nest=0.2):
    s, d = g.layout_value(max_size=max_size, rank=2, nest=nest)
    return s, d


def print_stmt(p, x, newline=True):
    """print a value the ways programs do"""
    g = p.g
    r = g.rng.random()
    if r < 0.55:
        p.add('print(%s);%s' % (x, ' printf("\\n");' if newline else ''))
    elif r < 0.7:
        p.add('cute::print(%s);%s' % (x, ' cute::print("\\n");' if newline else ''))
    elif r < 0.85:
        p.add('printf("%s: ");' % x)
        p.add('print(%s);%s' % (x, ' printf("\\n");' if newline else ''))
    else:
        p.add('print("%s = "); print(%s); print("\\n");' % (x, x))


def queries(p, x, composed=False):
    g = p.g
    for q in g.rng.sample(['size', 'cosize', 'rank', 'depth', 'shape', 'stride'], g.pick([1, 2, 3])):
        if q == 'stride' and composed:
            continue
        r = g.rng.random()
        if q in ('size', 'cosize', 'rank', 'depth') and r < 0.5:
            p.add('printf("%s = %%d\\n", int(%s(%s)));' % (q, q, x))
        else:
            p.add('print(%s(%s)); printf("\\n");' % (q, x))


def values_loop(p, x, n_hint=None):
    g = p.g
    fmt = g.pick(['%d ', '%3d', '%4d', '%d,', ' %d'])
    i = p.name('i')
    limit = 'size(%s)' % x if g.chance(0.7) else 'int(size(%s))' % x
    p.open('for (int %s = 0; %s < %s; ++%s)' % (i, i, limit, i))
    p.add('printf("%s", int(%s(%s)));' % (fmt, x, i))
    p.close()
    p.add('printf("\\n");')


# ----------------------------------------------------------------------------
# Groups


def grp_layouts(p):
    g = p.g
    for _ in range(g.pick([1, 2, 3])):
        s, d = g.layout_value(max_size=256, rank=g.pick([1, 2, 2, 3]), nest=0.3)
        x = p.name(g.pick(['layout', 'L', 'a', 'sA', 'tv']))
        r = g.rng.random()
        if r < 0.15 and not isinstance(s, int):
            # a type alias, then a value of it
            t = p.name('Layout' + x.capitalize())
            p.top.append('using %s = Layout<%s, %s>;' % (t, type_tup(s, 'Shape'), type_tup(d, 'Stride')))
            p.add('auto %s = %s{};' % (x, t))
        elif r < 0.3:
            n = p.name(g.pick(['M', 'N', 'K']))
            v = s[0] if isinstance(s[0], int) else G.size_of(s[0])
            kw = g.pick(['constexpr int', 'int', 'static constexpr int'])
            p.add('%s %s = %d;' % (kw, n, v))
            rest = [tup(e, False) for e in s[1:]]
            inner = 'Int<%s>{}' % n if 'constexpr' in kw else n
            p.add('auto %s = make_layout(make_shape(%s));' % (x, ', '.join([inner] + rest)))
            s = None
        else:
            decl = g.pick(['auto', 'auto', 'Layout'])
            p.add('%s %s = %s;' % (decl, x, layout_cpp(g, s, d)))
        print_stmt(p, x)
        if s is not None and len(s) == 2 and G.size_of(s) <= 256 and g.chance(0.5):
            p.add('print_layout(%s);' % x)
        if g.chance(0.6):
            queries(p, x)
        if g.chance(0.3):
            p.add('printf("%%d\\n", int(%s(%d)));' % (x, g.rng.randrange(8)))
        if g.chance(0.2) and s is not None and len(s) >= 2:
            k = g.rng.randrange(len(s))
            p.add('print(get<%d>(%s)); printf("\\n");' % (k, x))
            p.add('print(size<%d>(%s)); printf("\\n");' % (k, x))
    if g.chance(0.3):
        t = G.tuple_node(g.shape(4096, nest=0.4), 'shape')
        y = p.name('shp')
        p.add('auto %s = %s;' % (y, cpp_of(t, g)))
        print_stmt(p, y)
        p.add('printf("%%d %%d\\n", int(size(%s)), int(rank(%s)));' % (y, y))


ALGEBRA = ['composition', 'logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide', 'blocked_product',
           'raked_product', 'logical_product', 'zipped_product', 'tile_to_shape', 'coalesce', 'complement',
           'right_inverse', 'left_inverse', 'filter', 'flatten', 'select', 'upcast', 'downcast', 'make_layout',
           'make_ordered_layout', 'max_common_layout', 'max_common_vector', 'append', 'group', 'o', 'get', 'take']


def grp_algebra(p):
    g = p.g
    for _ in range(g.pick([1, 2, 2, 3])):
        op = g.pick(ALGEBRA)
        node = G.RECIPES[op](G.Recipes(g))
        x = p.name(g.pick(['r', 'res', 'tiled', 'd', 'prod', 'out']))
        p.add('auto %s = %s;' % (x, cpp_of(node, g)))
        print_stmt(p, x)
        if op == 'max_common_vector':
            continue
        if g.chance(0.5):
            queries(p, x, composed=True)
        if g.chance(0.4):
            values_loop(p, x)
    # a hand-written classic: a rank-2 layout and a 2-D tile of it, printed as a grid
    if g.chance(0.5):
        s, d = rank2_layout(g, 64, 0.0)
        a = p.name('A')
        p.add('auto %s = %s;' % (a, layout_cpp(g, s, d)))
        op = g.pick(['logical_divide', 'zipped_divide', 'blocked_product', 'raked_product', 'composition'])
        if op in ('blocked_product', 'raked_product'):
            bs, bd = rank2_layout(g, 16, 0.0)
            arg = layout_cpp(g, bs, bd)
        else:
            arg = 'make_tile(%s, %s)' % (tup(g.pick([1, 2, 4]), True), tup(g.pick([1, 2, 4]), True)) \
                if g.chance(0.5) else 'Shape<_%d, _%d>{}' % (g.pick([1, 2, 4]), g.pick([1, 2, 4]))
        b = p.name('B')
        p.add('auto %s = %s(%s, %s);' % (b, op, a, arg))
        p.add('print_layout(%s);' % b)


def grp_loops(p):
    g = p.g
    s, d = g.layout_value(max_size=64, rank=2, nest=0.15)
    x = p.name(g.pick(['layout', 'L', 'tile']))
    p.add('auto %s = %s;' % (x, layout_cpp(g, s, d)))
    for _ in range(g.pick([1, 2, 3])):
        k = g.pick(['for1', 'for2', 'while', 'range', 'ifelse', 'sum', 'break', 'ternary', 'dowhile'])
        i, j = p.name('i'), p.name('j')
        if k == 'for1':
            w = g.pick(['%d', '%3d', '%-4d', '%2d', '%x', '%03d'])
            p.open('for (int %s = 0; %s < size(%s); ++%s)' % (i, i, x, i))
            p.add('printf("%s(%%d) = %s\\n", %s, int(%s(%s)));' % (x, w, i, x, i))
            p.close()
        elif k == 'for2':
            p.open('for (int %s = 0; %s < size<0>(%s); ++%s)' % (i, i, x, i))
            p.open('for (int %s = 0; %s < size<1>(%s); %s++)' % (j, j, x, j))
            p.add('printf("%s", int(%s(%s, %s)));' % (g.pick(['%4d', '%-3d ', '%d ']), x, i, j))
            p.close()
            p.add('printf("\\n");')
            p.close()
        elif k == 'while':
            step = g.pick([1, 2, 3, 5])
            p.add('int %s = %d;' % (i, g.rng.randrange(3)))
            p.open('while (%s < size(%s))' % (i, x))
            p.add('printf("%%d:%%d ", %s, int(%s(%s)));' % (i, x, i))
            p.add('%s += %d;' % (i, step))
            p.close()
            p.add('printf("\\n");')
        elif k == 'dowhile':
            p.add('int %s = size(%s) - 1;' % (i, x))
            p.open('while (%s >= 0)' % i)
            p.add('printf("%%d ", int(%s(%s)));' % (x, i))
            p.add('%s -= %d;' % (i, g.pick([1, 3, 4])))
            p.close()
            p.add('printf("\\n");')
        elif k == 'range':
            vals = sorted(g.rng.sample(range(0, G.size_of(s)), min(4, G.size_of(s))))
            p.open('for (int %s : {%s})' % (i, ', '.join(map(str, vals))))
            p.add('printf("%s[%%d] -> %%d\\n", %s, int(%s(%s)));' % (x, i, x, i))
            p.close()
        elif k == 'ifelse':
            t = g.pick([2, 3, 4])
            p.open('for (int %s = 0; %s < size(%s); ++%s)' % (i, i, x, i))
            p.open('if (%s(%s) %% %d == 0)' % (x, i, t))
            p.add('printf("%%d is a multiple of %d\\n", int(%s(%s)));' % (t, x, i))
            p.close(' else if (%s > %d) {' % (i, g.pick([3, 8, 20])))
            p.depth += 1
            p.add('continue;')
            p.close(' else {')
            p.depth += 1
            p.add('printf("%%d\\n", int(%s(%s)) * %d + %d);' % (x, i, g.pick([1, 2, 3]), g.pick([0, 1, -1])))
            p.close()
            p.close()
        elif k == 'sum':
            sm = p.name('sum')
            p.add('int %s = 0;' % sm)
            p.open('for (int %s = 0; %s < size(%s); %s += %d)' % (i, i, x, i, g.pick([1, 2])))
            p.add('%s += %s(%s);' % (sm, x, i))
            p.close()
            op = g.pick(['%', '/', '<<', '>>', '&', '|', '^', '*'])
            p.add('printf("sum %%d, %%d\\n", %s, %s %s %d);' % (sm, sm, op, g.pick([1, 2, 3, 7])))
        elif k == 'break':
            lim = g.pick([5, 10, 20])
            p.open('for (int %s = 0; %s < size(%s); ++%s)' % (i, i, x, i))
            p.open('if (%s(%s) > %d)' % (x, i, lim))
            p.add('printf("stop at %%d\\n", %s);' % i)
            p.add('break;')
            p.close()
            p.close()
        else:
            p.open('for (int %s = 0; %s < size<0>(%s); ++%s)' % (i, i, x, i))
            p.add('int v = %s(%s, 0);' % (x, i))
            p.add('printf("%s %d\\n", v % 2 == 0 ? "even" : "odd", v > 4 ? v - 4 : -v);')
            p.close()


FORMATS = [
    ('%d', 'int'), ('%5d', 'int'), ('%-5d|', 'int'), ('%05d', 'int'), ('%+d', 'int'), ('%i', 'int'),
    ('%u', 'uint'), ('%x', 'uint'), ('%X', 'uint'), ('%#x', 'uint'), ('%o', 'uint'), ('%ld', 'long'),
    ('%lld', 'llong'), ('%8lld', 'llong'), ('%s', 'str'), ('%-8s|', 'str'), ('%c', 'char'), ('%f', 'double'),
    ('%.2f', 'double'), ('%8.3f', 'double'), ('%e', 'double'), ('%g', 'double'), ('%%', None), ('%3d%%', 'int'),
]


def grp_printf(p):
    g = p.g
    s, d = g.layout_value(max_size=64, rank=g.pick([1, 2]), nest=0.2)
    x = p.name(g.pick(['layout', 'L']))
    p.add('auto %s = %s;' % (x, layout_cpp(g, s, d)))
    for _ in range(g.pick([2, 3, 4])):
        fmt, kind = g.pick(FORMATS)
        idx = g.rng.randrange(G.size_of(s))
        val = {'int': 'int(%s(%d))' % (x, idx), 'uint': 'unsigned(%s(%d))' % (x, idx),
               'long': 'long(%s(%d))' % (x, idx), 'llong': '(long long)(size(%s)) * %d' % (x, g.pick([1, 1000, 100000])),
               'str': g.pick(['"row"', '"col-major"', '"x"', '""']), 'char': "'%s'" % g.pick('abxyz#'),
               'double': '%s(%s(%d)) / %d' % (g.pick(['double', 'float']), x, idx, g.pick([1, 2, 3, 8])), None: None}[kind]
        lead = g.pick(['', 'v=', '[', '%s: ' % x])
        if val is None:
            p.add('printf("%s%s\\n");' % (lead, fmt))
        else:
            p.add('printf("%s%s\\n", %s);' % (lead, fmt, val))
    if g.chance(0.6):
        p.include('<iostream>')
        r = g.rng.random()
        if r < 0.4:
            p.add('std::cout << %s << std::endl;' % x)
        elif r < 0.7:
            p.add('std::cout << "shape " << shape(%s) << ", stride " << stride(%s) << "\\n";' % (x, x))
        else:
            p.add('std::cout << size(%s) << " " << cosize(%s) << " " << %s(%d) << std::endl;'
                  % (x, x, x, g.rng.randrange(G.size_of(s))))
    if g.chance(0.3):
        p.add('printf("%%d %%d %%d\\n", %d / %d, %d %% %d, -%d / %d);'
              % (g.pick([7, 100, 33]), g.pick([2, 3, 4]), g.pick([7, 100, 33]), g.pick([2, 3, 4]), g.pick([7, 9]), 2))


SWIZZLE_ATOMS = [
    ('Swizzle<3,3,3>{}', 'Layout<Shape<_8,_64>, Stride<_64,_1>>{}'),
    ('Swizzle<2,3,3>{}', 'Layout<Shape<_8,_32>, Stride<_32,_1>>{}'),
    ('Swizzle<1,3,3>{}', 'Layout<Shape<_8,_16>, Stride<_16,_1>>{}'),
    ('Swizzle<3,4,3>{}', 'Layout<Shape<_8,_64>, Stride<_64,_1>>{}'),
    ('Swizzle<2,2,3>{}', 'make_layout(make_shape(Int<8>{}, Int<32>{}), LayoutRight{})'),
    ('Swizzle<3,3,3>{}', 'Layout<Shape<_64,_8>, Stride<_1,_64>>{}'),
    ('Swizzle<2,4,3>{}', 'Layout<Shape<_16,_16>, Stride<_16,_1>>{}'),
]
GMMA_ATOMS = ['Layout_K_SW128_Atom', 'Layout_K_SW64_Atom', 'Layout_K_SW32_Atom', 'Layout_K_INTER_Atom',
              'Layout_MN_SW128_Atom', 'Layout_MN_SW64_Atom', 'Layout_MN_SW32_Atom', 'Layout_MN_INTER_Atom']


def grp_swizzle(p):
    g = p.g
    r = g.rng.random()
    if r < 0.45:
        sw, lay = g.pick(SWIZZLE_ATOMS)
        a = p.name(g.pick(['smem_atom', 'atom', 'sw_layout']))
        if g.chance(0.3):
            t = p.name('SmemLayoutAtom')
            p.top.append('using %s = decltype(composition(%s, %s));' % (t, sw, lay))
            p.add('auto %s = %s{};' % (a, t))
        else:
            p.add('auto %s = composition(%s, %s);' % (a, sw, lay))
        print_stmt(p, a)
        if g.chance(0.3):
            p.add('print_layout(%s);' % a)
        if g.chance(0.5):
            m, n = g.pick([(64, 64), (128, 64), (64, 128), (32, 64), (128, 32)])
            big = p.name('sA')
            order = g.pick(['', ', Step<_1,_2>{}', ', Step<_2,_1>{}'])
            p.add('auto %s = tile_to_shape(%s, make_shape(Int<%d>{}, Int<%d>{})%s);' % (big, a, m, n, order))
            print_stmt(p, big)
            p.add('printf("%%d %%d\\n", int(size(%s)), int(cosize(%s)));' % (big, big))
            a = big
        i = p.name('i')
        p.open('for (int %s = 0; %s < %d; ++%s)' % (i, i, g.pick([8, 16, 24]), i))
        p.add('printf("%%d ", int(%s(%s%s)));' % (a, i, g.pick(['', ' * 9', ' * 64 + 1', ' * 7'])))
        p.close()
        p.add('printf("\\n");')
    elif r < 0.7:
        name = g.pick(GMMA_ATOMS)
        ty = g.pick(['half_t', 'float', 'bfloat16_t', 'uint8_t', 'tfloat32_t'])
        a = p.name('atom')
        p.add('auto %s = GMMA::%s<%s>{};' % (a, name, ty))
        print_stmt(p, a)
        if g.chance(0.5):
            p.add('printf("%%d\\n", int(size(%s)));' % a)
        if g.chance(0.4):
            p.add('print(%s.layout_b()); printf("\\n");' % a)
        if g.chance(0.4):
            big = p.name('sB')
            p.add('auto %s = tile_to_shape(%s, make_shape(Int<%d>{}, Int<%d>{}, Int<%d>{}));'
                  % (big, a, g.pick([64, 128]), g.pick([64, 128]), g.pick([2, 3, 4])))
            print_stmt(p, big)
    else:
        b, m, s = g.swz()
        x = p.name('sw')
        p.add('auto %s = Swizzle<%d,%d,%d>{};' % (x, b, m, s))
        print_stmt(p, x)
        i = p.name('i')
        p.open('for (int %s = 0; %s < %d; %s += %d)' % (i, i, g.pick([16, 32, 64]), i, g.pick([1, 3, 5, 8])))
        p.add('printf("%%d -> %%d\\n", %s, int(%s(%s)));' % (i, x, i))
        p.close()
        c = G.Recipes(g).composition() if g.chance(0.5) else g.composed()
        y = p.name('c')
        p.add('auto %s = %s;' % (y, cpp_of(c, g)))
        print_stmt(p, y)


def grp_tensor(p):
    g = p.g
    r = g.rng.random()
    m, n = g.pick([(8, 4), (4, 8), (16, 16), (6, 4), (32, 8), (8, 8)])
    st = g.chance(0.5)
    shp = 'make_shape(%s, %s)' % (tup(m, st and 'Int'), tup(n, st and 'Int'))
    t = p.name(g.pick(['id', 'cA', 'coord', 'mC']))
    pointer = False  # a tensor over memory: its elements are never read (its base is nullptr)
    if r < 0.5:
        p.add('auto %s = make_identity_tensor(%s);' % (t, shp))
    elif r < 0.75:
        s, d = rank2_layout(g, 256, 0.1)
        m, n = G.size_of(s[0]), G.size_of(s[1])
        p.add('auto %s = make_coord_tensor(%s);' % (t, layout_cpp(g, s, d)))
    else:
        ty, bits = g.pick([('float', 32), ('half_t', 16), ('double', 64), ('int', 32)])
        ptr = g.pick(['make_gmem_ptr', 'make_smem_ptr'])
        pointer = True
        p.add('%s* base = nullptr;' % ty)
        p.add('Tensor %s = make_tensor(%s(base), %s, %s);' % (t, ptr, shp, g.pick(['LayoutRight{}', 'LayoutLeft{}', 'make_stride(%d, 1)' % n])))
    print_stmt(p, t)
    if g.chance(0.4) and m * n <= 64:
        p.add('print(%s.layout()); printf("\\n");' % t if pointer else 'print_tensor(%s);' % t)
    if g.chance(0.5) and not pointer:
        p.add('print(%s(%d, %d)); printf("\\n");' % (t, g.rng.randrange(m), g.rng.randrange(n)))
    if g.chance(0.3) and not pointer:
        p.add('print(%s(%d)); printf("\\n");' % (t, g.rng.randrange(m * n)))
    tm = g.pick([d for d in (1, 2, 4, 8) if m % d == 0])
    tn = g.pick([d for d in (1, 2, 4, 8) if n % d == 0])
    k = g.pick(['tile', 'part', 'both', 'slice', 'divide'])
    if k in ('tile', 'both'):
        x = p.name('tile')
        p.add('auto %s = local_tile(%s, make_shape(Int<%d>{}, Int<%d>{}), make_coord(%d, %d));'
              % (x, t, tm, tn, g.rng.randrange(m // tm), g.rng.randrange(n // tn)))
        print_stmt(p, x)
        if g.chance(0.5):
            p.add('print(%s.layout()); printf("\\n");' % x)
            p.add('print(%s.shape()); printf(" "); print(%s.stride()); printf("\\n");' % (x, x))
        if k == 'both':
            t = x
            m, n = tm, tn
    if k in ('part', 'both'):
        am = g.pick([d for d in (1, 2, 4) if m % d == 0])
        an = g.pick([d for d in (1, 2, 4) if n % d == 0])
        thr = 'make_layout(make_shape(Int<%d>{}, Int<%d>{})%s)' % (am, an, g.pick(['', ', LayoutRight{}']))
        x = p.name('part')
        p.add('auto %s = local_partition(%s, %s, %d);' % (x, t, thr, g.rng.randrange(am * an)))
        print_stmt(p, x)
        if g.chance(0.5) and not pointer:
            i = p.name('i')
            p.open('for (int %s = 0; %s < size(%s); ++%s)' % (i, i, x, i))
            p.add('print(%s(%s)); printf(" ");' % (x, i))
            p.close()
            p.add('printf("\\n");')
    if k == 'slice':
        x = p.name('row')
        p.add('auto %s = %s(%d, _);' % (x, t, g.rng.randrange(m)))
        print_stmt(p, x)
        y = p.name('col')
        p.add('auto %s = %s(_, %d);' % (y, t, g.rng.randrange(n)))
        print_stmt(p, y)
        p.add('printf("%%d %%d\\n", int(size<0>(%s)), int(size(%s)));' % (t, y))
    if k == 'divide':
        x = p.name('dv')
        p.add('auto %s = %s(%s, make_tile(Int<%d>{}, Int<%d>{}));' % (x, g.pick(['zipped_divide', 'flat_divide', 'logical_divide']), t, tm, tn))
        print_stmt(p, x)


MMA_ATOMS = [
    'SM80_16x8x16_F32F16F16F32_TN', 'SM80_16x8x8_F16F16F16F16_TN', 'SM80_16x8x16_F16F16F16F16_TN',
    'SM80_16x8x8_F32TF32TF32F32_TN', 'SM80_16x8x32_S32S8S8S32_TN', 'SM75_16x8x8_F32F16F16F32_TN',
    'SM70_8x8x4_F16F16F16F16_TN', 'SM80_8x8x4_F64F64F64F64_TN', 'SM80_16x8x16_F32BF16BF16F32_TN',
    'UniversalFMA<float,float,float>', 'UniversalFMA<float>', 'UniversalFMA<half_t,half_t,half_t>',
    'SM90_64x64x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>', 'SM90_64x128x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>',
    'SM90_64x32x16_F32BF16BF16_RS<GMMA::Major::K,GMMA::Major::K>',
]
COPIES = [
    ('UniversalCopy<uint128_t>', 'half_t', 8), ('UniversalCopy<uint128_t>', 'float', 4), ('UniversalCopy<uint64_t>', 'half_t', 4),
    ('UniversalCopy<uint32_t>', 'float', 1), ('UniversalCopy<float>', 'float', 1), ('UniversalCopy<half_t>', 'half_t', 1),
    ('SM80_CP_ASYNC_CACHEALWAYS<uint128_t>', 'half_t', 8), ('SM80_CP_ASYNC_CACHEALWAYS<uint128_t>', 'float', 4),
    ('SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>', 'half_t', 8), ('SM80_CP_ASYNC_CACHEALWAYS<uint64_t>', 'half_t', 4),
    ('DefaultCopy', 'float', 1),
]
LDSM = ['SM75_U32x4_LDSM_N', 'SM75_U32x2_LDSM_N', 'SM75_U32x1_LDSM_N', 'SM75_U16x8_LDSM_T', 'SM75_U16x4_LDSM_T']


def mma_decl(p, mma):
    g = p.g
    atom = g.pick(MMA_ATOMS)
    gmma = atom.startswith('SM90')
    if gmma or atom.startswith('Universal'):
        thr = g.pick(['Layout<Shape<_1,_1,_1>>{}', 'Layout<Shape<_2,_1,_1>>{}'] if gmma else
                     ['Layout<Shape<_16,_16,_1>>{}', 'Layout<Shape<_8,_8,_1>>{}', 'Layout<Shape<_32,_8,_1>>{}',
                      'make_layout(make_shape(Int<16>{}, Int<8>{}, Int<1>{}))'])
    else:
        thr = g.pick(['Layout<Shape<_2,_2,_1>>{}', 'Layout<Shape<_1,_1,_1>>{}', 'Layout<Shape<_2,_1,_1>>{}',
                      'Layout<Shape<_4,_1,_1>>{}', 'Layout<Shape<_1,_2>>{}', 'Layout<Shape<_2,_2>, Stride<_2,_1>>{}'])
    perm = ''
    if not gmma and not atom.startswith('Universal') and g.chance(0.5):
        perm = ', ' + g.pick(['Tile<_32,_32,_16>{}', 'Tile<_32,_16,_16>{}', 'Tile<_64,_32,_16>{}',
                              'Tile<_32, Layout<Shape<_2,_4,_2>, Stride<_1,_4,_2>>, _16>{}', 'Tile<_16,_16,_8>{}'])
    if g.chance(0.3):
        t = p.name('TiledMma')
        p.top.append('using %s = decltype(make_tiled_mma(%s{}, %s%s));' % (t, atom, thr, perm))
        p.add('%s %s = %s{};' % (g.pick(['auto', 'TiledMMA']), mma, t) if g.chance(0.5) else '%s %s;' % (t, mma))
    else:
        p.add('%s %s = make_tiled_mma(%s{}, %s%s);' % (g.pick(['auto', 'TiledMMA']), mma, atom, thr, perm))
    return atom


def grp_tiled(p):
    g = p.g
    if g.chance(0.6):
        mma = p.name(g.pick(['tiled_mma', 'mma']))
        atom = mma_decl(p, mma)
        if g.chance(0.4):
            print_stmt(p, mma, newline=False)
        p.add('printf("%%d threads, tile %%d x %%d x %%d\\n", int(size(%s)), int(tile_size<0>(%s)), int(tile_size<1>(%s)), int(tile_size<2>(%s)));'
              % (mma, mma, mma, mma))
        big = g.pick([64, 128])
        c = p.name(g.pick(['gC', 'cC', 'tC']))
        shp = 'make_shape(Int<%d>{}, Int<%d>{})' % (big, big) if g.chance(0.6) else 'make_shape(%d, %d)' % (big, big)
        pointer = not g.chance(0.7)
        if not pointer:
            p.add('Tensor %s = make_identity_tensor(%s);' % (c, shp))
        else:
            p.add('Tensor %s = make_tensor(make_gmem_ptr((float*)nullptr), %s, LayoutRight{});' % (c, shp))
        tid = g.pick([0, 1, 2, 5, 17, 31, 32, 37, 63, 64, 100, 127])
        thr = p.name(g.pick(['thr_mma', 'thr']))
        p.add('int tid = %d;' % tid)
        p.add('auto %s = %s.get_%s(tid);' % (thr, mma, g.pick(['slice', 'thread_slice'])))
        for part in g.rng.sample(['partition_C', 'partition_A', 'partition_B', 'partition_fragment_C',
                                  'partition_fragment_A', 'layoutC', 'layoutA'] + ([] if pointer else ['loop']),
                                 g.pick([1, 2, 3])):
            if part == 'partition_C':
                x = p.name('tCgC')
                p.add('Tensor %s = %s.partition_C(%s);' % (x, thr, c))
                print_stmt(p, x)
            elif part in ('partition_A', 'partition_B'):
                x = p.name('tAgA')
                a = p.name('gA')
                p.add('auto %s = make_identity_tensor(make_shape(Int<%d>{}, Int<%d>{}));' % (a, big, g.pick([16, 32, 64])))
                p.add('auto %s = %s.%s(%s);' % (x, thr, part, a))
                print_stmt(p, x)
            elif part == 'partition_fragment_C':
                # a fragment is made like a tensor over memory (CuTe does not make one of a coordinate tensor)
                x = p.name('tCrC')
                p.add('auto %s = %s.partition_fragment_C(make_tensor(make_gmem_ptr((float*)nullptr), %s));' % (x, thr, shp))
                p.add('print(%s.layout()); printf("\\n");' % x)
                p.add('printf("%%d\\n", int(size(%s)));' % x)
            elif part == 'partition_fragment_A':
                x = p.name('tCrA')
                p.add('auto %s = %s.partition_fragment_A(make_tensor(make_smem_ptr((half_t*)nullptr), Layout<Shape<Int<%d>, _32>>{}));'
                      % (x, thr, big))
                p.add('print(%s.shape()); printf("\\n");' % x)
            elif part in ('layoutC', 'layoutA'):
                p.add('print(%s.get_%s_TV()); printf("\\n");' % (mma, part))
            else:
                x = p.name('tCgC')
                p.add('auto %s = %s.partition_C(%s);' % (x, thr, c))
                i = p.name('i')
                p.open('for (int %s = 0; %s < size(%s); ++%s)' % (i, i, x, i))
                p.add('print(%s(%s)); printf("%s");' % (x, i, g.pick([' ', '\\n'])))
                p.close()
                p.add('printf("\\n");')
        if g.chance(0.3) and not atom.startswith(('SM90', 'Universal')):
            cp = p.name('s2r')
            ld = g.pick(LDSM)
            p.add('auto %s = make_tiled_copy_%s(Copy_Atom<%s, half_t>{}, %s);' % (cp, g.pick('AB'), ld, mma))
            p.add('auto %s_thr = %s.get_slice(tid);' % (cp, cp))
            print_stmt(p, cp, newline=False)
            x = p.name('view')
            p.add('auto %s = %s_thr.partition_S(make_identity_tensor(make_shape(Int<%d>{}, Int<32>{})));' % (x, cp, big))
            print_stmt(p, x)
    else:
        op, ty, vals = g.pick(COPIES)
        cp = p.name(g.pick(['tiled_copy', 'g2s', 'copy']))
        rows, cols = g.pick([(32, 4), (16, 8), (8, 16), (8, 32), (32, 8), (64, 1), (4, 32)])
        thr = 'Layout<Shape<_%d,_%d>, Stride<_%d,_1>>{}' % (rows, cols, cols) if g.chance(0.5) else \
            'Layout<Shape<_%d,_%d>>{}' % (rows, cols)
        val = g.pick(['Layout<Shape<_1,_%d>>{}' % vals, 'Layout<Shape<_%d,_1>>{}' % vals])
        p.add('auto %s = make_tiled_copy(Copy_Atom<%s, %s>{}, %s, %s);' % (cp, op, ty, thr, val))
        if g.chance(0.5):
            print_stmt(p, cp, newline=False)
        p.add('printf("%%d\\n", int(size(%s)));' % cp)
        tid = g.rng.randrange(rows * cols)
        t = p.name('thr_copy')
        p.add('auto %s = %s.get_thread_slice(%d);' % (t, cp, tid))
        src = p.name('gA')
        frag = g.chance(0.3)
        ext = 'make_shape(Int<%d>{}, Int<%d>{})' % (rows * g.pick([1, 2]), cols * vals * g.pick([1, 2]))
        if frag:  # CuTe makes fragments like tensors over memory, not like coordinate tensors
            p.add('auto %s = make_tensor(make_gmem_ptr((%s*)nullptr), %s);' % (src, ty, ext))
        else:
            p.add('auto %s = make_identity_tensor(%s);' % (src, ext))
        x = p.name('tAgA')
        p.add('auto %s = %s.partition_%s(%s);' % (x, t, g.pick('SD'), src))
        print_stmt(p, x)
        if g.chance(0.5):
            p.add('print(%s.get_layoutS_TV()); printf("\\n");' % cp)
        if g.chance(0.4):
            p.add('print(tile_size<%d>(%s)); printf("\\n");' % (g.rng.randrange(2), cp))
        if frag:
            fr = p.name('frag')
            p.add('auto %s = make_fragment_like(%s);' % (fr, x))
            p.add('print(%s.layout()); printf("\\n");' % fr)
            p.add('print(%s.retile_D(%s).layout()); printf("\\n");' % (t, fr))


def grp_kernel(p):
    """a kernel body that reads threadIdx/blockIdx; run as the thread its flags name"""
    g = p.g
    block = g.pick([32, 64, 128, 128, 256])
    grid = g.pick([(1,), (2,), (4,), (2, 2), (3, 2)])
    tid = g.rng.randrange(block)
    cta = tuple(g.rng.randrange(n) for n in grid)
    k = p.name(g.pick(['kernel', 'gemm_kernel', 'probe']))
    lines = ['__global__ void %s() {' % k]
    body = Program(g)
    body.depth = 1
    r = g.rng.random()
    if r < 0.4:
        atom = g.pick(['SM80_16x8x16_F32F16F16F32_TN', 'SM80_16x8x8_F16F16F16F16_TN', 'UniversalFMA<float,float,float>'])
        thr = 'Layout<Shape<_2,_2,_1>>{}' if block >= 128 and 'SM80' in atom else \
            ('Layout<Shape<_1,_1,_1>>{}' if 'SM80' in atom else 'Layout<Shape<_%d,_1,_1>>{}' % block)
        body.add('TiledMMA mma = make_tiled_mma(%s{}, %s);' % (atom, thr))
        body.add('Tensor mC = make_identity_tensor(make_shape(Int<%d>{}, Int<%d>{}));' % (64 * max(grid), 64 * max(grid)))
        body.add('Tensor gC = local_tile(mC, make_shape(Int<64>{}, Int<64>{}), make_coord(blockIdx.x, blockIdx.y));')
        body.add('auto thr_mma = mma.get_slice(threadIdx.x);')
        body.add('Tensor tCgC = thr_mma.partition_C(gC);')
        guard = g.pick(['if (thread0())', 'if (thread(%d))' % tid, 'if (thread(%d, %d))' % (tid, cta[0] if len(grid) == 1 else cta[0] + cta[1] * grid[0]),
                        'if (threadIdx.x == %d && blockIdx.x == %d)' % (tid, cta[0]), 'if (cute::thread0())', ''])
        if 'thread0' in guard and g.chance(0.7):
            tid, cta = 0, tuple(0 for _ in grid)
        if guard:
            body.open(guard)
        body.add('print(tCgC); printf("\\n");')
        body.add('printf("tid %d: %d values\\n", int(threadIdx.x), int(size(tCgC)));')
        if guard:
            body.close()
    elif r < 0.7:
        m, n = g.pick([(32, 32), (64, 16), (16, 64), (128, 8)])
        tm, tn = g.pick([(32, 4), (8, 16), (16, 8), (4, 32)])
        tm = min(tm, block)
        tn = block // tm
        body.add('auto tiler = make_shape(Int<%d>{}, Int<%d>{});' % (m, n))
        body.add('Tensor mA = make_identity_tensor(make_shape(%d, %d));' % (m * 4, n * 4))
        body.add('Tensor gA = local_tile(mA, tiler, make_coord(blockIdx.x, %s));' % g.pick(['blockIdx.y', '0', '1']))
        body.add('auto tA = make_layout(make_shape(Int<%d>{}, Int<%d>{})%s);' % (tm, tn, g.pick(['', ', LayoutRight{}'])))
        body.add('Tensor tAgA = local_partition(gA, tA, threadIdx.x);')
        body.open(g.pick(['if (thread(%d))' % tid, 'if (threadIdx.x == %d)' % tid, 'if (block(%d))' % cta[0], 'if (true)']))
        body.add('printf("block %d thread %d\\n", blockIdx.x, threadIdx.x);')
        body.add('print(tAgA); printf("\\n");')
        body.add('print(tAgA(0)); printf(" "); print(tAgA(size(tAgA) - 1)); printf("\\n");')
        body.close()
    else:
        body.add('int lane = threadIdx.x %% %d;' % g.pick([32, 8, 4]))
        body.add('int warp = threadIdx.x / 32;')
        s, d = rank2_layout(g, 64, 0.2)
        body.add('auto layout = %s;' % layout_cpp(g, s, d))
        body.add('int idx = (lane + warp * %d + blockIdx.x) %% size(layout);' % g.pick([1, 3, 7]))
        body.add('printf("[%d,%d] layout(%d) = %d\\n", blockIdx.x, threadIdx.x, idx, int(layout(idx)));')
        body.open('if (thread0())')
        body.add('print(layout); printf("\\n");')
        body.close()
        body.add('printf("blockDim %d gridDim %d\\n", blockDim.x, gridDim.x);')
    lines += body.body + ['}']
    p.top += lines
    flags = ['--thread', str(tid), '--cta', ','.join(map(str, cta)), '--block', str(block),
             '--grid', ','.join(map(str, grid))]
    if len(grid) == 1 and 'Dim' not in '\n'.join(body.body) and g.chance(0.3):
        flags = flags[:4]  # blockDim and gridDim do not matter to this program
    return flags


def device_kernel(g, name, block, grid):
    """a kernel whose every print is guarded for one thread of one CTA: -> (lines, tid, cta)"""
    tid = g.rng.randrange(block)
    cta = tuple(g.rng.randrange(n) for n in grid)
    lin = cta[0] + (cta[1] * grid[0] if len(grid) > 1 else 0)
    r = g.rng.random()
    guard = g.pick(['if (thread(%d, %d))' % (tid, lin), 'if (thread(%d, %d))' % (tid, lin),
                    'if (cute::thread(%d, %d))' % (tid, lin),
                    'if (threadIdx.x == %d && block(%d))' % (tid, lin)])
    if g.chance(0.15):
        tid, cta, lin, guard = 0, tuple(0 for _ in grid), 0, g.pick(['if (thread0())', 'if (cute::thread0())'])
    b = Program(g)
    if r < 0.3:
        atom, thr = g.pick([('SM80_16x8x16_F32F16F16F32_TN', 'Layout<Shape<_2,_2,_1>>{}'),
                            ('SM80_16x8x8_F16F16F16F16_TN', 'Layout<Shape<_2,_1,_1>>{}'),
                            ('SM80_16x8x16_F16F16F16F16_TN', 'Layout<Shape<_1,_2,_1>>{}'),
                            ('UniversalFMA<float,float,float>', 'Layout<Shape<_8,_8,_1>>{}'),
                            ('UniversalFMA<float,float,float>', 'Layout<Shape<_16,_16,_1>>{}')])
        b.add('TiledMMA mma = make_tiled_mma(%s{}, %s);' % (atom, thr))
        b.add('Tensor mC = make_identity_tensor(make_shape(%d, %d));' % (64 * grid[0], 64 * (grid[1] if len(grid) > 1 else 1)))
        b.add('Tensor gC = local_tile(mC, make_shape(Int<64>{}, Int<64>{}), make_coord(blockIdx.x, blockIdx.y));')
        b.add('ThrMMA thr_mma = mma.get_slice(threadIdx.x);')
        b.add('Tensor tCgC = thr_mma.partition_C(gC);')
        b.open(guard)
        b.add('printf("block (%d,%d) thread %d of %d\\n", blockIdx.x, blockIdx.y, threadIdx.x, blockDim.x);')
        b.add('print(tCgC); printf("\\n");')
        b.add('printf("%d values, first ", int(size(tCgC))); print(tCgC(0)); printf("\\n");')
        b.close()
    elif r < 0.55:
        m, n = g.pick([(32, 32), (64, 16), (16, 64), (32, 8)])
        tm = g.pick([d for d in (4, 8, 16, 32) if block % d == 0])
        b.add('Tensor mA = make_identity_tensor(make_shape(%d, %d));' % (m * grid[0], n * 4))
        b.add('Tensor gA = local_tile(mA, make_shape(Int<%d>{}, Int<%d>{}), make_coord(blockIdx.x, %d));' % (m, n, g.rng.randrange(4)))
        b.add('auto tA = make_layout(make_shape(Int<%d>{}, Int<%d>{})%s);' % (tm, block // tm, g.pick(['', ', LayoutRight{}'])))
        b.add('Tensor tAgA = local_partition(gA, tA, threadIdx.x);')
        b.open(guard)
        b.add('print("tAgA : "); print(tAgA); print("\\n");')
        b.add('for (int i = 0; i < size(tAgA); i += %d) { print(tAgA(i)); printf(" "); }' % g.pick([1, 2, 4]))
        b.add('printf("\\n");')
        b.close()
    elif r < 0.75:
        op, ty, vals = g.pick(COPIES[:6])
        rows = g.pick([d for d in (8, 16, 32) if block % d == 0])
        b.add('auto copy = make_tiled_copy(Copy_Atom<%s, %s>{}, Layout<Shape<Int<%d>, Int<%d>>>{}, Layout<Shape<_1, Int<%d>>>{});'
              % (op, ty, rows, block // rows, vals))
        b.add('auto thr_copy = copy.get_slice(threadIdx.x);')
        b.add('Tensor cA = make_identity_tensor(make_shape(Int<%d>{}, Int<%d>{}));' % (rows * 2, block // rows * vals))
        b.add('Tensor tAcA = thr_copy.partition_S(cA);')
        b.open(guard)
        b.add('print(tAcA); print("\\n");')
        b.add('print(tAcA.layout()); print("\\n");')
        b.close()
    else:
        s, d = rank2_layout(g, 64, 0.2)
        b.add('auto layout = %s;' % layout_cpp(g, s, d, g.pick(['type', 'us', 'int'])))
        b.add('int idx = (threadIdx.x + %d * blockIdx.x) %% size(layout);' % g.pick([1, 3, 7]))
        b.open(guard)
        b.add('printf("[%d,%d] layout(%d) = %d\\n", blockIdx.x, threadIdx.x, idx, int(layout(idx)));')
        b.add('print(layout); printf("\\n");')
        if g.chance(0.5):
            b.add('print_layout(layout);')
        b.close()
    return ['__global__ void %s() {' % name] + b.body + ['}'], tid, cta


def dims(d):
    return str(d[0]) if len(d) == 1 else 'dim3(%s)' % ', '.join(map(str, d))


def device_programs(seed, count):
    """-> (programs whose main launches kernels, for a GPU; their host twins: each kernel alone,
    run with the flags of the thread its guard names)"""
    rng = random.Random('device/%d' % seed)
    g = G.Gen(rng)
    dev, host = [], []
    for k in range(count):
        launches = []
        top = []
        for j in range(g.pick([1, 1, 2])):
            block = g.pick([32, 64, 128, 128, 256])
            grid = g.pick([(2,), (4,), (2, 2), (3, 2)])
            name = 'kernel%d' % (j + 1) if j else g.pick(['kernel', 'probe', 'gemm_device'])
            lines, tid, cta = device_kernel(g, name, block, grid)
            top += lines + ['']
            launches.append((name, block, grid, tid, cta, lines))
        main = ['int main() {']
        for name, block, grid, _t, _c, _l in launches:
            if g.chance(0.4):
                main.append('  printf("launch %s<<<%s, %d>>>\\n");' % (name, dims(grid).replace('dim3', ''), block))
            main.append('  %s<<<%s, %s>>>();' % (name, dims(grid), dims((block,))))
            main.append('  cudaDeviceSynchronize();')
        main += ['  return 0;', '}']
        text = '#include <cute/tensor.hpp>\n\nusing namespace cute;\n\n' + '\n'.join(top + main) + '\n'
        pid = 'dev%d-%03d' % (seed, k + 1)
        dev.append({'id': pid, 'group': 'device', 'program': text, 'flags': []})
        for j, (name, block, grid, tid, cta, lines) in enumerate(launches):
            flags = ['--thread', str(tid), '--cta', ','.join(map(str, cta)), '--block', str(block),
                     '--grid', ','.join(map(str, grid))]
            host.append({'id': '%s-host%d' % (pid, j + 1), 'group': 'kernel', 'flags': flags,
                         'program': '#include <cute/tensor.hpp>\n\nusing namespace cute;\n\n' + '\n'.join(lines) + '\n',
                         'note': 'a kernel of %s run as the thread its guard names' % pid})
    return dev, host


REFUSALS = [
    # (statement, what CuTe says)
    'auto bad = make_layout(make_shape(make_shape(2, 3), 4), make_stride(2, 3));',
    'auto bad = make_layout(Shape<_4,_8>{}, Stride<_1>{});',
    'auto bad = composition(Layout<Shape<_4,_6>, Stride<_6,_1>>{}, Layout<_5,_2>{});',
    'print_layout(Layout<Shape<_2,_2,_2>>{});',
    'auto bad = get<2>(Layout<Shape<_4,_8>>{});',
    'auto bad = logical_divide(Layout<Shape<_6,_4>>{}, Shape<_4,_3>{});',
    'CUTE_STATIC_ASSERT_V(size(Layout<Shape<_4,_8>>{}) == Int<16>{});',
    'static_assert(rank(Layout<Shape<_4,_8>>{}) == 3, "a rank-3 layout is needed");',
    'auto bad = right_inverse(Layout<Shape<_4,_4>, Stride<_1,_8>>{}) + 1;',
    'auto bad = blocked_product(Layout<Shape<_2,_2>>{}, 4);',
    'auto bad = upcast<3>(Layout<Shape<_4,_8>, Stride<_1,_4>>{});',
    'auto bad = tile_to_shape(Layout<Shape<_8,_8>>{}, Shape<_12,_16>{});',
    'auto bad = complement(Layout<Shape<_4,_4>, Stride<_4,_1>>{}, Int<8>{});',
    'auto bad = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_32,_4>>{}, Layout<Shape<_1,_4>>{});',
    'auto bad = make_swizzle<3,3,2>();',
    'auto bad = Swizzle<3,3,2>{};',
    'auto bad = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_24,_16,_16>{}).get_slice(0).partition_C(make_identity_tensor(Shape<_64,_64>{}));',
    'auto bad = Layout<Shape<_4,_8>>{}(1, 2, 3);',
    'auto bad = local_tile(make_identity_tensor(Shape<_8,_8>{}), Shape<_4,_4,_4>{}, make_coord(0,0));',
]


def grp_refused(p):
    g = p.g
    s, d = g.layout_value(max_size=64, rank=2, nest=0.1)
    x = p.name('ok')
    p.add('auto %s = %s;' % (x, layout_cpp(g, s, d)))
    p.add('printf("before\\n");')
    print_stmt(p, x)
    if g.chance(0.65):
        p.add(g.pick(REFUSALS))
    else:
        # a static composition or divide that may not divide: CuTe decides
        sa = g.pick([[4, 6], [6, 4], [12, 8], [8, 6], [3, 5], [10, 4]])
        da = G.permuted_compact(sa, g.rng)
        op = g.pick(['composition', 'logical_divide', 'zipped_divide', 'complement', 'logical_product'])
        b = 'Layout<_%d, _%d>{}' % (g.pick([3, 4, 5, 6]), g.pick([1, 2, 3, 4]))
        p.add('auto bad = %s(%s, %s);' % (op, layout_cpp(g, sa, da, 'type'), b))
        if g.chance(0.4):
            p.add('CUTE_STATIC_ASSERT_V(size(bad) == Int<%d>{});' % g.pick([4, 8, 12, 24]))
    if p.body[-1].lstrip().startswith('auto bad') and g.chance(0.7):
        print_stmt(p, 'bad')
    p.add('printf("after\\n");')


def grp_runtime(p):
    g = p.g
    s, d = g.layout_value(max_size=32, rank=g.pick([1, 2]), nest=0.0)
    x = p.name('layout')
    p.add('auto %s = %s;' % (x, layout_cpp(g, s, d, 'dyn')))
    print_stmt(p, x)
    r = g.rng.random()
    i = p.name('i')
    if r < 0.4:
        k = g.pick([2, 3, 4])
        p.open('for (int %s = %d; %s >= 0; --%s)' % (i, k, i, i))
        p.add('printf("%%d\\n", int(%s(%s)) %s %s);' % (x, i, g.pick(['/', '%']), i))
        p.close()
    elif r < 0.7:
        p.add('int zero = size(%s) - %d;' % (x, G.size_of(s)))
        p.add('printf("size %%d\\n", int(size(%s)));' % x)
        p.add('printf("%%d\\n", %d / zero);' % g.pick([9, 7, 64]))  # not 1: g++ folds 1 / x to a value
    else:
        p.add('int n = %d;' % g.pick([3, 4]))
        p.open('while (true)')
        p.add('printf("%d ", 12 % n);')
        p.add('n = n - 1;')
        p.close()
    p.add('printf("unreachable\\n");')


VALUE_EXPRS = [
    # (C++ expression, how to print it): integers, tuples, tilers, steps, bases, static arithmetic
    'Int<4>{}', '_8{}', 'Int<4>{} * Int<8>{}', 'Int<12>{} / _4{}', 'Int<4>{} + 3', '_16{} % Int<6>{}',
    'ceil_div(Int<10>{}, Int<4>{})', 'ceil_div(10, 4)', 'make_coord(1, 2)', 'make_coord(_1{}, 2, Int<3>{})',
    'make_tile(Layout<_4,_2>{}, Layout<_8,_1>{})', 'make_tile(Int<32>{}, Int<16>{})', 'Tile<_32,_32,_16>{}',
    'make_tile(make_layout(make_shape(_2{}, _4{}), make_stride(_4{}, _1{})), _8{})', 'Step<_1, X, _1>{}',
    'make_step(_1{}, _2{})', 'make_shape(4, make_shape(2, 3))', 'Shape<_4, Shape<_2, _3>>{}', 'Stride<_1, _4>{}',
    'flatten(make_shape(make_shape(2, 3), 4))', 'append(make_shape(_4{}, _8{}), 16)', 'prepend(make_shape(4, 8), _2{})',
    'product(make_shape(_4{}, 8))', 'size(make_shape(_4{}, _8{}))', 'shape_div(make_shape(8, 6), make_shape(2, 3))',
    'E<0>{} * 4', 'E<1>{}', 'Swizzle<3,3,3>{}', 'get<1>(make_shape(4, make_shape(2, 3)))', 'reverse(make_shape(1, 2, 3))',
    'make_tuple(_1{}, 2, Int<3>{})', 'make_layout(_8{})', 'make_layout(8)', 'Layout<_1, _0>{}', 'Int<-3>{}',
    'max(Int<4>{}, Int<7>{})', 'min(4, 9)', 'cosize(Layout<Shape<_4,_4>, Stride<_8,_1>>{})', 'rank(Shape<_1,_2,_3>{})',
    'depth(make_shape(1, make_shape(2, make_shape(3, 4))))',
]


def grp_values(p):
    g = p.g
    for e in g.rng.sample(VALUE_EXPRS, g.pick([2, 3, 4, 5])):
        if g.chance(0.5):
            x = p.name(g.pick(['v', 't', 'x', 'tile', 'c']))
            p.add('auto %s = %s;' % (x, e))
            print_stmt(p, x)
        else:
            p.add('print(%s); printf("\\n");' % e)
    if g.chance(0.4):
        n = g.pick([16, 32, 64, 128])
        p.add('constexpr int kTile = %d;' % n)
        t = p.name('tiler')
        p.add('auto %s = make_tile(Int<kTile>{}, Int<kTile / %d>{});' % (t, g.pick([2, 4, 8])))
        p.add('print(%s); printf(" %%d\\n", kTile);' % t)
    if g.chance(0.3):
        p.add('printf("%%d %%d\\n", int(sizeof_bits_v<%s>), int(cosize_v<Layout<Shape<_%d,_%d>>>));'
              % (g.pick(['half_t', 'float', 'uint8_t', 'double', 'bfloat16_t']), g.pick([2, 4]), g.pick([4, 8])))


GROUPS = {'layouts': (grp_layouts, 70), 'algebra': (grp_algebra, 90), 'loops': (grp_loops, 60),
          'printf': (grp_printf, 40), 'swizzle': (grp_swizzle, 50), 'tensor': (grp_tensor, 60),
          'tiled': (grp_tiled, 80), 'kernel': (grp_kernel, 40), 'refused': (grp_refused, 30),
          'runtime': (grp_runtime, 15), 'values': (grp_values, 40)}
# the groups of seed 1 (generated before `values` existed: a group's count depends on the total weight)
SEED1_GROUPS = ['layouts', 'algebra', 'loops', 'printf', 'swizzle', 'tensor', 'tiled', 'kernel', 'refused', 'runtime']


def one(group, g):
    p = Program(g)
    fn = GROUPS[group][0]
    flags = fn(p)
    if group == 'kernel':
        text = p.text(main=False)
        if g.chance(0.35):
            # the flags on the file's first line, as `layoutx run` reads them when none are given
            return '// layoutx run %s\n%s' % (' '.join(flags), text), []
        return text, flags
    return p.text(), []


def generate(seed, count, groups=None):
    rng = random.Random('programs/%d' % seed)
    g = G.Gen(rng)
    groups = groups or list(GROUPS)
    total = sum(GROUPS[k][1] for k in groups)
    out, seen = [], set()
    for k in groups:
        n = max(1, round(count * GROUPS[k][1] / total))
        made = tries = 0
        while made < n and tries < n * 10:
            tries += 1
            text, flags = one(k, g)
            if text in seen:
                continue
            seen.add(text)
            made += 1
            out.append({'id': 'p%d-%s-%03d' % (seed, k, made), 'group': k, 'program': text, 'flags': flags})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--count', type=int, default=500)
    ap.add_argument('--groups', default=None, help='comma-separated groups (default: all)')
    ap.add_argument('--device', metavar='HOST_TWINS.jsonl', default=None,
                    help='write COUNT programs whose main launches kernels (for a GPU) instead, and their '
                         'host twins (each kernel with the flags of its guarded thread) to this file')
    a = ap.parse_args()
    if a.device:
        dev, host = device_programs(a.seed, a.count)
        for c in dev:
            print(json.dumps(c))
        with open(a.device, 'w') as f:
            f.write(''.join(json.dumps(c) + '\n' for c in host))
        return
    for c in generate(a.seed, a.count, a.groups.split(',') if a.groups else None):
        print(json.dumps(c))


if __name__ == '__main__':
    main()
