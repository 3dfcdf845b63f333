#!/usr/bin/env python3
"""Random layoutx expressions, each with the CuTe C++ that builds the same value.

Every function of layoutx's function table gets its own recipe (arguments of
the kinds CuTe takes, plus near misses CuTe refuses), so every function is
covered; on top come evaluation L(i) / L(i,j), slicing L(_,j), `A o B`,
swizzles, composed layouts, tiles, int tuples and nested operations.

Two modes:
  static   every integer is static: the expression is written plain and the C++
           uses Int<N>{} everywhere (the default layoutx mode).
  dynamic  the expression is for `layoutx --dynamic`: a plain integer is a
           run-time `int`, `_N` a static Int<N>{}; each case mixes them its own
           way (all dynamic, all static, per integer, static shapes with dynamic
           strides, ...).  Template arguments and swizzle parameters stay
           compile-time, as in C++.

Integers stay in 32 bits (CuTe's `int`): sizes and cosizes are bounded so that
no product overflows, with a few large values near the limit.

Deterministic: the same seed and count give the same cases.

usage: generate.py --seed S --count N --mode static|dynamic [--prefix P] > cases.jsonl
Each output line: {"id", "mode", "expr", "cpp", "op", "nest", "ints", "twin_cpp"}
(twin_cpp: the C++ with every integer static, for the dynamic mode's flags).
"""
import argparse
import json
import random

INT_MAX = 2**31 - 1

# ----------------------------------------------------------------------------
# Expression trees.  Every node renders itself twice: layoutx text and CuTe C++.
# An integer node's static mark is decided before rendering (Marks).


class Marks:
    """Which integers are static in the dynamic mode (all are in the static mode)."""

    def __init__(self, mode, policy, rng):
        self.mode, self.policy, self.rng = mode, policy, rng

    def static(self, role):
        if self.mode == 'static':
            return True
        p = self.policy
        if p == 'dynamic':
            return False
        if p == 'static':
            return True
        if p == 'shapes-static':
            return role != 'stride'
        if p == 'strides-static':
            return role == 'stride'
        if p == 'args-static':
            return role in ('arg', 'coord')
        return self.rng.random() < 0.5  # 'mixed'


class Node:
    def render(self, marks):
        """-> (expr, cpp, twin_cpp)"""
        raise NotImplementedError


class N(Node):
    """An integer literal; role: shape, stride, coord or arg (picks make_shape/... for its tuple)."""

    def __init__(self, v, role='shape'):
        self.v, self.role = int(v), role

    def render(self, marks):
        st = marks.static(self.role)
        twin = 'Int<%d>{}' % self.v
        if marks.mode == 'static':
            return str(self.v), twin, twin
        if st:
            return '_%d' % self.v, twin, twin
        return str(self.v), str(self.v), twin


MAKERS = {'shape': 'make_shape', 'stride': 'make_stride', 'coord': 'make_coord', 'tile': 'make_tile',
          'step': 'make_step', 'arg': 'make_shape'}


class T(Node):
    """A tuple: (a,b,...) in layoutx, make_shape/make_stride/make_coord/make_tile(...) in C++."""

    def __init__(self, elems, role='shape'):
        self.elems, self.role = list(elems), role

    def render(self, marks):
        parts = [e.render(marks) for e in self.elems]
        f = MAKERS[self.role]
        return ('(' + ','.join(p[0] for p in parts) + ')',
                f + '(' + ', '.join(p[1] for p in parts) + ')',
                f + '(' + ', '.join(p[2] for p in parts) + ')')


class Raw(Node):
    """Text that is the same in both languages up to a C++ spelling (names, swizzles)."""

    def __init__(self, expr, cpp):
        self.expr, self.cpp = expr, cpp

    def render(self, marks):
        return self.expr, self.cpp, self.cpp


class Lay(Node):
    """A layout literal S:D (C++: make_layout(S, D))."""

    def __init__(self, shape, stride):
        self.shape, self.stride = shape, stride

    def render(self, marks):
        s, d = self.shape.render(marks), self.stride.render(marks)
        return (s[0] + ':' + d[0], 'make_layout(%s, %s)' % (s[1], d[1]), 'make_layout(%s, %s)' % (s[2], d[2]))


class Call(Node):
    def __init__(self, name, args, targs=(), cpp_name=None, cpp_targs=None):
        self.name, self.args, self.targs = name, list(args), list(targs)
        self.cpp_name = cpp_name or name
        self.cpp_targs = cpp_targs

    def render(self, marks):
        parts = [a.render(marks) for a in self.args]
        t = '<' + ','.join(str(x) for x in self.targs) + '>' if self.targs else ''
        ct = self.cpp_targs if self.cpp_targs is not None else t
        return (self.name + t + '(' + ', '.join(p[0] for p in parts) + ')',
                self.cpp_name + ct + '(' + ', '.join(p[1] for p in parts) + ')',
                self.cpp_name + ct + '(' + ', '.join(p[2] for p in parts) + ')')


class Compose(Node):
    """A o B o ... (C++: composition(composition(A, B), ...), as `o` associates to the left),
    or a composed-layout literal Sw o off o L, CuTe's print form of a composed layout (C++:
    make_composed_layout(Sw, off, L), the object that prints so: composition(Sw, off, L) would
    return L itself for Sw<0,M,S> and Int<0>)."""

    def __init__(self, parts):
        self.parts = list(parts)

    def is_literal(self):
        return (len(self.parts) == 3 and isinstance(self.parts[0], Raw) and self.parts[0].expr.startswith('Sw<')
                and isinstance(self.parts[1], N))

    def render(self, marks, as_call=False):
        """as_call: the layoutx text as nested composition(...) calls, for places where a
        chain would bind differently (a right operand of `o`, the target of L(i))"""
        ps = []
        for i, p in enumerate(self.parts):
            ps.append(p.render(marks, True) if isinstance(p, Compose) and (i > 0 or as_call) else p.render(marks))
        if self.is_literal():
            return (' o '.join(p[0] for p in ps),
                    'make_composed_layout(' + ', '.join(p[1] for p in ps) + ')',
                    'make_composed_layout(' + ', '.join(p[2] for p in ps) + ')')
        expr, cpp, twin = ps[0]
        for p in ps[1:]:
            expr = ('composition(%s, %s)' if as_call else '%s o %s') % (expr, p[0])
            cpp = 'composition(%s, %s)' % (cpp, p[1])
            twin = 'composition(%s, %s)' % (twin, p[2])
        return expr, cpp, twin


class Method(Node):
    """f(x, args) in layoutx, x.f(args) in C++ (CuTe's member functions, e.g. with_shape)."""

    def __init__(self, name, target, args):
        self.name, self.target, self.args = name, target, list(args)

    def render(self, marks):
        t = self.target.render(marks)
        parts = [a.render(marks) for a in self.args]
        return (self.name + '(' + ', '.join([t[0]] + [p[0] for p in parts]) + ')',
                '(' + t[1] + ').' + self.name + '(' + ', '.join(p[1] for p in parts) + ')',
                '(' + t[2] + ').' + self.name + '(' + ', '.join(p[2] for p in parts) + ')')


class Eval(Node):
    """L(c0, c1, ...): evaluation or slicing (C++: L(c0, c1, ...))."""

    def __init__(self, target, coords):
        self.target, self.coords = target, list(coords)

    def render(self, marks):
        t = self.target.render(marks, True) if isinstance(self.target, Compose) else self.target.render(marks)
        cs = [c.render(marks) for c in self.coords]
        return (t[0] + '(' + ','.join(c[0] for c in cs) + ')',
                t[1] + '(' + ', '.join(c[1] for c in cs) + ')',
                t[2] + '(' + ', '.join(c[2] for c in cs) + ')')


class SB(Node):
    """A scaled basis v@modes (CuTe: v * E<modes...>{}), written v@N...@N0 as CuTe prints it."""

    def __init__(self, v, modes, role='stride'):
        self.v, self.modes, self.role = int(v), list(modes), role

    def render(self, marks):
        e = 'E<%s>{}' % ','.join(str(m) for m in self.modes)
        suffix = ''.join('@%d' % m for m in reversed(self.modes))
        twin = '(Int<%d>{} * %s)' % (self.v, e)
        if marks.mode == 'static':
            return '%d%s' % (self.v, suffix), twin, twin
        if marks.static(self.role):
            return '_%d%s' % (self.v, suffix), twin, twin
        return '%d%s' % (self.v, suffix), '(%d * %s)' % (self.v, e), twin


class OnTensor(Node):
    """CuTe's tensor partitioning of a layout: name(L, args) in layoutx; in C++ the partition of the
    tensor make_coord_tensor(L), the tensor (where its data starts, its layout) as CuTe prints it."""

    def __init__(self, name, target, args):
        self.name, self.target, self.args = name, target, list(args)

    def render(self, marks):
        t = self.target.render(marks)
        parts = [a.render(marks) for a in self.args]
        return (self.name + '(' + ', '.join([t[0]] + [p[0] for p in parts]) + ')',
                '%s(make_coord_tensor(%s)%s)' % (self.name, t[1], ''.join(', ' + p[1] for p in parts)),
                '%s(make_coord_tensor(%s)%s)' % (self.name, t[2], ''.join(', ' + p[2] for p in parts)))


UNDERSCORE = Raw('_', '_')
LEFT = Raw('LayoutLeft', 'LayoutLeft{}')
RIGHT = Raw('LayoutRight', 'LayoutRight{}')


def swizzle(b, m, s):
    return Raw('Sw<%d,%d,%d>' % (b, m, s), 'Swizzle<%d,%d,%d>{}' % (b, m, s))


# ----------------------------------------------------------------------------
# Plain-Python shapes (nested lists of ints) for the generator's own reasoning.

def flat(t):
    if isinstance(t, int):
        return [t]
    out = []
    for e in t:
        out += flat(e)
    return out


def size_of(t):
    p = 1
    for x in flat(t):
        p *= x
    return p


def tuple_node(t, role):
    if isinstance(t, int):
        return N(t, role)
    return T([tuple_node(e, role) for e in t], role)


def col_major(shape, start=1):
    """compact column-major strides for a nested shape"""
    acc = [start]

    def go(t):
        if isinstance(t, int):
            d = acc[0]
            acc[0] *= t
            return d
        return [go(e) for e in t]
    return go(shape)


def compact_in_order(shape, order):
    """compact strides that grow over the flat modes in the given order, nested as shape"""
    leaves = flat(shape)
    strides = [0] * len(leaves)
    acc = 1
    for i in order:
        strides[i] = acc
        acc *= leaves[i]
    it = iter(strides)

    def go(t):
        if isinstance(t, int):
            return next(it)
        return [go(e) for e in t]
    return go(shape)


def row_major(shape):
    return compact_in_order(shape, reversed(range(len(flat(shape)))))


def permuted_compact(shape, rng):
    order = list(range(len(flat(shape))))
    rng.shuffle(order)
    return compact_in_order(shape, order)


def map_leaves(t, f):
    if isinstance(t, int):
        return f(t)
    return [map_leaves(e, f) for e in t]


class Gen:
    """The random choices; every recipe draws from self.rng only (deterministic)."""

    SMALL = [1, 2, 2, 2, 3, 4, 4, 4, 5, 6, 8, 8, 8, 12, 16, 16, 32]
    POW2 = [1, 2, 4, 8, 16, 32, 64]

    def __init__(self, rng):
        self.rng = rng

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, xs):
        return self.rng.choice(xs)

    # --- shapes and layouts (Python values) ---
    def leaf(self, big=False):
        r = self.rng.random()
        if big and r < 0.3:
            return self.pick([64, 128, 256, 1000, 1024, 4096, 65536])
        if r < 0.55:
            return self.pick(self.POW2[:6])
        return self.pick(self.SMALL)

    def shape(self, max_size=1024, rank=None, nest=0.25, big=False):
        for _ in range(20):
            r = rank if rank is not None else self.pick([1, 1, 2, 2, 2, 2, 3, 3, 4])
            t = []
            for _ in range(r):
                if self.chance(nest):
                    t.append([self.leaf(big) for _ in range(self.pick([1, 2, 2, 2, 3]))])
                else:
                    t.append(self.leaf(big))
            if size_of(t) <= max_size:
                return t
        return [self.pick([2, 4, 8])] * (rank or 2)

    def strides_for(self, shape):
        r = self.rng.random()
        if r < 0.3:
            return col_major(shape)
        if r < 0.45:
            return row_major(shape)
        if r < 0.65:
            return permuted_compact(shape, self.rng)
        if r < 0.75:  # with stride-0 modes (broadcasts)
            base = permuted_compact(shape, self.rng)
            return map_leaves(base, lambda d: 0 if self.chance(0.35) else d)
        if r < 0.83:  # dilated / gapped
            k = self.pick([2, 3, 4])
            return map_leaves(permuted_compact(shape, self.rng), lambda d: d * k)
        if r < 0.88:  # negative strides
            return map_leaves(permuted_compact(shape, self.rng), lambda d: -d if self.chance(0.5) else d)
        return map_leaves(shape, lambda _s: self.pick([0, 1, 2, 3, 4, 6, 8, 16, 32, 64, 5, 7]))

    def layout_value(self, max_size=256, rank=None, nest=0.25, negative=False):
        s = self.shape(max_size, rank, nest)
        d = self.strides_for(s)
        if not negative:
            d = map_leaves(d, abs)
        return s, d

    def layout(self, max_size=256, rank=None, nest=0.25, negative=False):
        s, d = self.layout_value(max_size, rank, nest, negative)
        return self.layout_node(s, d)

    def layout_node(self, s, d):
        r = self.rng.random()
        if r < 0.08 and d == col_major(s) and not isinstance(s, int):
            return Call('make_layout', [tuple_node(s, 'shape')])
        if r < 0.12 and d == row_major(s) and not isinstance(s, int):
            return Call('make_layout', [tuple_node(s, 'shape'), RIGHT])
        if len(s) == 1 and self.chance(0.4):
            s, d = s[0], d[0]
        return Lay(tuple_node(s, 'shape'), tuple_node(d, 'stride'))

    def int_tuple(self, max_size=4096, big=False, role='arg'):
        return tuple_node(self.shape(max_size, nest=0.3, big=big), role)

    def swz(self, valid=True):
        b = self.pick([0, 1, 2, 3])
        m = self.pick([0, 1, 2, 3, 4])
        s = self.pick([1, 2, 3, 3, 4, -1, -2, -3, -4])
        if valid and abs(s) < b:
            s = b if s > 0 else -b
        return b, m, s

    def swizzle(self):
        return swizzle(*self.swz(valid=not self.chance(0.05)))

    def composed(self):
        b, m, s = self.swz()
        span = 1 << (b + m + abs(s))
        rank = self.pick([1, 2, 2, 2])
        for _ in range(10):
            shp = self.shape(max_size=max(span * 2, 64), rank=rank, nest=0.2)
            if size_of(shp) >= 2:
                break
        d = self.strides_for(shp)
        d = map_leaves(d, abs)
        inner = self.layout_node(shp, d)
        parts = [swizzle(b, m, s)]
        if self.chance(0.25):
            parts.append(N(self.pick([0, 1, 4, 8, 16, 32]), 'arg'))
        parts.append(inner)
        return Compose(parts)

    def tile_elem_layout(self, n):
        """a small layout of size n for a tile element"""
        if n > 1 and n % 2 == 0 and self.chance(0.3):
            return self.layout_node([2, n // 2], [self.pick([1, 2, 4]), self.pick([2, 4, 8, 16])])
        return Lay(N(n, 'shape'), N(self.pick([1, 1, 2, 4, 0]), 'stride'))

    def tiler(self, l_shape=None, kind=None):
        """A tiler: a layout, a shape tuple, an integer, or a tile of layouts and ints."""
        kind = kind or self.pick(['layout', 'layout', 'shape', 'tile', 'tile', 'int'])
        rank = len(l_shape) if isinstance(l_shape, list) else 1
        if kind == 'int':
            return N(self.pick([1, 2, 3, 4, 8, 16]), 'arg')
        if kind == 'layout':
            return self.layout(max_size=64, nest=0.15)
        elems = []
        for i in range(self.pick([1, rank, rank, rank + 1])):
            target = l_shape[i] if isinstance(l_shape, list) and i < len(l_shape) else 8
            sz = size_of(target)
            divs = [x for x in (1, 2, 3, 4, 8, 16) if sz % x == 0] or [1]
            n = self.pick(divs) if self.chance(0.85) else self.pick([3, 5, 6])
            if kind == 'shape' or self.chance(0.5):
                elems.append(N(n, 'arg'))
            else:
                elems.append(self.tile_elem_layout(n))
        return T(elems, 'tile' if kind == 'tile' else 'shape')


# ----------------------------------------------------------------------------
# Recipes: one per function of the function table (and per syntactic form).
# A recipe gets the generator and `arg`, which draws a layout argument: a
# literal (its Python shape known) or, sometimes, a nested layout operation
# (shape None).  It returns the expression node.

BITS = {8: 'uint8_t', 16: 'uint16_t', 32: 'uint32_t', 64: 'uint64_t'}


class Recipes:
    def __init__(self, g, depth=0):
        self.g, self.depth = g, depth

    def arg(self, max_size=256, rank=None, nest=0.25, negative=False):
        """-> (node, python shape or None)"""
        g = self.g
        if self.depth < 2 and g.chance(0.22 if self.depth == 0 else 0.1):
            inner = Recipes(g, self.depth + 1)
            op = g.pick(NESTABLE)
            return RECIPES[op](inner), None
        s, d = g.layout_value(max_size, rank, nest, negative)
        return g.layout_node(s, d), s

    def lay(self, **kw):
        return self.arg(**kw)[0]

    def profile_for(self, shape):
        """an int tuple like the top structure of shape (for coalesce/filter profiles)"""
        g = self.g
        if shape is None or isinstance(shape, int) or g.chance(0.15):
            return N(g.pick([1, 0]), 'arg') if g.chance(0.5) else T([N(1, 'arg'), N(1, 'arg')], 'arg')
        elems = []
        for m in shape:
            if isinstance(m, list) and g.chance(0.4):
                elems.append(T([N(g.pick([1, 0]), 'arg') for _ in m], 'arg'))
            else:
                elems.append(N(g.pick([1, 1, 0]), 'arg'))
        return T(elems, 'arg')

    def mode_index(self, shape, extra=0.1):
        g = self.g
        r = len(shape) if isinstance(shape, list) else g.pick([1, 2, 3])
        if g.chance(extra):
            return r  # one past the end: CuTe refuses
        return g.rng.randrange(max(1, r))

    def targ_path(self, shape):
        i = self.mode_index(shape)
        if isinstance(shape, list) and i < len(shape) and isinstance(shape[i], list) and self.g.chance(0.4):
            return [i, self.g.rng.randrange(len(shape[i]))]
        return [i]

    # --- constructors ---
    def make_layout(self):
        g = self.g
        s = g.shape(256, nest=0.3)
        r = g.rng.random()
        if r < 0.3:
            return Call('make_layout', [tuple_node(s, 'shape')])
        if r < 0.45:
            return Call('make_layout', [tuple_node(s, 'shape'), g.pick([LEFT, RIGHT])])
        if r < 0.75:
            return Call('make_layout', [tuple_node(s, 'shape'), tuple_node(g.strides_for(s), 'stride')])
        return Call('make_layout', [self.lay(max_size=32, nest=0.1) for _ in range(g.pick([1, 2, 2, 3]))])

    def make_ordered_layout(self):
        g = self.g
        s = g.shape(256, nest=0.2)
        if g.chance(0.1):
            return Call('make_ordered_layout', [tuple_node(s, 'shape'), g.pick([LEFT, RIGHT])])
        leaves = flat(s)
        order = list(range(len(leaves)))
        g.rng.shuffle(order)
        if g.chance(0.2):
            order = [g.rng.randrange(len(leaves)) for _ in leaves]  # ties
        it = iter(order)
        return Call('make_ordered_layout', [tuple_node(s, 'shape'),
                                            tuple_node(map_leaves(s, lambda _x: next(it)), 'step')])

    def make_tuple(self, name):
        g = self.g
        elems = []
        for _ in range(g.pick([1, 2, 2, 3])):
            r = g.rng.random()
            if r < 0.6:
                elems.append(N(g.leaf(), 'arg'))
            elif r < 0.8:
                elems.append(g.int_tuple(64))
            else:
                elems.append(self.lay(max_size=32, nest=0.1))
        return Call(name, elems)

    def make_composed_layout(self):
        """make_composed_layout(Sw, offset, L), now and then with a composed layout as L"""
        g = self.g
        parts = g.composed().parts
        inner = parts[-1]
        if g.chance(0.15):
            inner = g.composed()
        offset = parts[1] if len(parts) == 3 else N(g.pick([0, 0, 1, 4, 8, 16, 32]), 'arg')
        return Call('make_composed_layout', [parts[0], offset, inner])

    def make_layout_like(self):
        return Call('make_layout_like', [self.lay(nest=0.3)])

    def make_fragment_like(self):
        if self.g.chance(0.15):
            return Call('make_fragment_like', [self.g.composed()])
        return Call('make_fragment_like', [self.lay(nest=0.3)])

    def make_swizzle(self):
        g = self.g
        if g.chance(0.9):
            b, m, s = g.swz()
            s = abs(s) if abs(s) >= b else b
            z = ((1 << b) - 1) << m
            y = z << s
            if g.chance(0.3):
                y, z = z, y
        else:
            y, z = g.rng.randrange(0, 256), g.rng.randrange(0, 256)
        return Call('make_swizzle', [], targs=[y, z])

    # --- structure ---
    def append(self):
        g = self.g
        node, s = self.arg()
        if g.chance(0.3):
            r = len(s) if isinstance(s, list) else 1
            return Call('append', [node], targs=[r + g.pick([0, 1, 2])])
        return Call('append', [node, self.lay(max_size=16, nest=0.1)])

    def prepend(self):
        return Call('prepend', [self.lay(), self.lay(max_size=16, nest=0.1)])

    def get(self, name='get'):
        g = self.g
        r = g.rng.random()
        if r < 0.15 and name == 'get' and self.depth == 0:
            t = g.shape(4096, nest=0.4)
            return Call(name, [tuple_node(t, 'arg')], targs=self.targ_path(t))
        if r < 0.25:
            return Call(name, [g.composed()], targs=[g.pick([0, 1])])
        node, s = self.arg(nest=0.35)
        return Call(name, [node], targs=self.targ_path(s))

    def select(self):
        g = self.g
        if g.chance(0.15) and self.depth == 0:
            t = g.shape(4096, nest=0.3)
            node, s = tuple_node(t, 'arg'), t
        else:
            node, s = self.arg(nest=0.3)
        r = len(s) if isinstance(s, list) else 1
        idx = [g.rng.randrange(r + (1 if g.chance(0.05) else 0)) for _ in range(g.pick([1, 1, 2, 2, 3]))]
        return Call('select', [node], targs=idx)

    def take(self):
        g = self.g
        node, s = self.arg(rank=g.pick([2, 3, 4]))
        r = len(s) if isinstance(s, list) else 3
        b = g.rng.randrange(r)
        e = g.rng.randrange(b + 1, r + 1) if g.chance(0.9) else g.pick([b, r + 1])
        return Call('take', [node], targs=[b, e])

    def group(self):
        g = self.g
        node, s = self.arg(rank=g.pick([2, 3, 4]))
        r = len(s) if isinstance(s, list) else 3
        b = g.rng.randrange(r)
        e = g.rng.randrange(b, r + 1)
        return Call('group', [node], targs=[b, e])

    def flatten(self):
        g = self.g
        if g.chance(0.2) and self.depth == 0:
            return Call('flatten', [g.int_tuple(4096)])
        return Call('flatten', [self.lay(nest=0.5)])

    def zip(self):
        g = self.g
        if g.chance(0.25):
            return Call('zip', [self.lay(rank=2), self.lay(rank=2)])
        if g.chance(0.3):
            return Call('zip', [self.lay(nest=0.3)])
        n = g.pick([1, 2, 2, 3])
        s = [[g.leaf() for _ in range(n)] for _ in range(g.pick([2, 2, 3]))]
        if size_of(s) > 4096:
            s = [[2] * n, [2] * n]
        return Call('zip', [g.layout_node(s, g.strides_for(s))])

    # --- int tuples ---
    def ceil_div(self, name='ceil_div'):
        g = self.g
        big = g.chance(0.15)
        a = g.int_tuple(2**30 if big else 4096, big=big)
        b = N(g.pick([1, 2, 3, 4, 5, 8, 16, 40, 1000]), 'arg') if g.chance(0.4) else g.int_tuple(64)
        if g.chance(0.15):
            a = N(g.pick([1, 3, 12, 100, 2**30, INT_MAX]), 'arg')
        return Call(name, [a, b])

    def shape_div(self):
        return self.ceil_div('shape_div')

    def product(self, name='product'):
        big = self.g.chance(0.2)
        return Call(name, [self.g.int_tuple(2**30 if big else 2**20, big=big)])

    def product_each(self):
        return self.product('product_each')

    def crd2idx(self):
        g = self.g
        s = g.shape(4096, nest=0.3)
        c = map_leaves(s, lambda x: g.rng.randrange(x) if g.chance(0.95) else x)
        cn = tuple_node(c, 'coord')
        if g.chance(0.2):
            cn = N(g.rng.randrange(size_of(s) + 1), 'coord')
        args = [cn, tuple_node(s, 'shape')]
        if g.chance(0.5):
            args.append(tuple_node(g.strides_for(s), 'stride'))
        return Call('crd2idx', args)

    def idx2crd(self):
        g = self.g
        s = g.shape(4096, nest=0.3)
        sz = size_of(s)
        if g.chance(0.15):
            c = map_leaves(s, lambda x: g.rng.randrange(2 * x))
            return Call('idx2crd', [tuple_node(c, 'coord'), tuple_node(s, 'shape')])
        i = g.rng.randrange(sz) if g.chance(0.85) else g.rng.randrange(sz, 3 * sz + 1)
        return Call('idx2crd', [N(i, 'coord'), tuple_node(s, 'shape')])

    def domain_distribute(self):
        g = self.g
        s = g.shape(4096, nest=0.2)
        return Call('domain_distribute', [tuple_node(s, 'shape'), N(g.pick([1, 2, 3, 4, 6, 8, 16, 32, 64, 7]), 'arg')])

    # --- algebra ---
    def coalesce(self):
        g = self.g
        if g.chance(0.1):
            c = g.composed()
            return Call('coalesce', [c] + ([N(1, 'arg')] if g.chance(0.3) else []))
        node, s = self.arg(nest=0.35)
        if g.chance(0.35):
            return Call('coalesce', [node, self.profile_for(s)])
        return Call('coalesce', [node])

    def filter(self):
        g = self.g
        if g.chance(0.1):
            return Call('filter', [g.composed(), self.profile_for(None)])
        node, s = self.arg(nest=0.3)
        if g.chance(0.3):
            return Call('filter', [node, self.profile_for(s)])
        return Call('filter', [node])

    def filter_zeros(self):
        g = self.g
        node, s = self.arg(nest=0.3)
        if g.chance(0.4) and s is not None:
            prof = map_leaves(s, lambda _x: g.pick([0, 1, 2]))
            return Call('filter_zeros', [node, tuple_node(prof, 'stride')])
        return Call('filter_zeros', [node])

    def composition(self, name='composition'):
        g = self.g
        r = g.rng.random()
        if r < 0.12:
            a = g.composed()
            b = g.tiler(None, g.pick(['layout', 'tile', 'shape']))
        elif r < 0.2:
            a = g.swizzle()
            b = self.lay(max_size=512)
        else:
            a, s = self.arg(max_size=1024, nest=0.3)
            b = g.tiler(s) if g.chance(0.5) else self.lay(max_size=64, nest=0.2)
        if name == 'o':
            parts = [a, b]
            if g.chance(0.15):
                parts.append(g.tiler(None, 'shape'))
            return Compose(parts)
        return Call('composition', [a, b])

    def o(self):
        return self.composition('o')

    def complement(self):
        g = self.g
        if g.chance(0.08):
            return Call('complement', [g.composed()])
        node, s = self.arg(max_size=128, nest=0.25)
        r = g.rng.random()
        if r < 0.45:
            return Call('complement', [node])
        if r < 0.85:
            return Call('complement', [node, N(g.pick([1, 8, 16, 24, 32, 64, 128, 256, 1024, 5]), 'arg')])
        return Call('complement', [node, g.int_tuple(512)])

    def right_inverse(self, name='right_inverse'):
        g = self.g
        r = g.rng.random()
        if r < 0.1:
            return Call(name, [g.composed()])
        if r < 0.13:
            return Call(name, [g.swizzle() if g.chance(0.5) else UNDERSCORE])
        if r < 0.6:  # compact layouts, the usual inputs
            s = g.shape(256, nest=0.3)
            d = permuted_compact(s, g.rng)
            return Call(name, [g.layout_node(s, d)])
        return Call(name, [self.lay(nest=0.3)])

    def left_inverse(self):
        return self.right_inverse('left_inverse')

    def divide(self, name):
        g = self.g
        if g.chance(0.08):
            return Call(name, [g.composed(), g.tiler(None, g.pick(['layout', 'tile', 'shape']))])
        node, s = self.arg(max_size=1024, nest=0.25)
        return Call(name, [node, g.tiler(s)])

    def product_op(self, name):
        g = self.g
        a, s = self.arg(max_size=64, nest=0.2)
        if name in ('blocked_product', 'raked_product'):
            b = self.lay(max_size=32, nest=0.15)
        elif g.chance(0.6):
            b = self.lay(max_size=32, nest=0.15)
        else:
            b = T([self.lay(max_size=8, nest=0.0) if g.chance(0.7) else N(g.pick([1, 2, 3, 4]), 'arg')
                   for _ in range(g.pick([1, 2, 2, 3]))], 'tile')
        if g.chance(0.06):
            a = g.composed()
        return Call(name, [a, b])

    def max_common(self, name):
        g = self.g
        r = g.rng.random()
        s = g.shape(1024, nest=0.3)
        a = g.layout_node(s, g.strides_for(s))
        if r < 0.6:
            b = g.layout_node(s, g.strides_for(s))
        elif r < 0.75:
            a = g.composed()
            b = self.lay(max_size=256)
        else:
            b = self.lay(max_size=1024, nest=0.3)
        if g.chance(0.5):
            a, b = b, a
        return Call(name, [a, b])

    def upcast(self, name='upcast'):
        g = self.g
        n = g.pick([1, 2, 2, 4, 4, 8, 16])
        r = g.rng.random()
        if r < 0.12:
            return Call(name, [g.composed()], targs=[n])
        if r < 0.18:
            return Call(name, [g.swizzle()], targs=[n])
        return Call(name, [self.lay(max_size=1024, nest=0.25)], targs=[n])

    def downcast(self):
        return self.upcast('downcast')

    def recast(self, name='recast'):
        g = self.g
        a, b = g.pick(list(BITS)), g.pick(list(BITS))
        x = g.composed() if g.chance(0.1) else self.lay(max_size=1024, nest=0.25)
        return Call(name, [x], targs=[a, b], cpp_name='recast_layout', cpp_targs='<%s,%s>' % (BITS[a], BITS[b]))

    def recast_layout(self):
        return self.recast('recast_layout')

    def max_alignment(self):
        g = self.g
        r = g.rng.random()
        if r < 0.15:
            return Call('max_alignment', [g.composed()])
        if r < 0.22:
            return Call('max_alignment', [g.swizzle()])
        return Call('max_alignment', [self.lay(max_size=1024, nest=0.25)])

    def nullspace(self):
        g = self.g
        s = g.shape(512, nest=0.25)
        d = map_leaves(permuted_compact(s, g.rng), lambda x: 0 if g.chance(0.4) else x)
        if g.chance(0.3):
            return Call('nullspace', [self.lay(nest=0.2)])
        return Call('nullspace', [g.layout_node(s, d)])

    def tile_to_shape(self):
        g = self.g
        node, s = self.arg(max_size=16, rank=g.pick([1, 2, 2, 3]), nest=0.1)
        r = len(s) if isinstance(s, list) else 2
        tgt = []
        for i in range(max(r, g.pick([1, 2, 3]))):
            base = size_of(s[i]) if isinstance(s, list) and i < len(s) else 1
            tgt.append(base * g.pick([1, 2, 3, 4]) if g.chance(0.9) else g.pick([5, 7]))
        args = [node, tuple_node(tgt, 'shape')]
        x = g.rng.random()
        if x < 0.25:
            args.append(g.pick([LEFT, RIGHT]))
        elif x < 0.4:
            order = list(range(len(tgt)))
            g.rng.shuffle(order)
            args.append(T([N(o, 'arg') for o in order], 'step'))
        return Call('tile_to_shape', args)

    # --- queries ---
    def query(self, name):
        g = self.g
        r = g.rng.random()
        if r < 0.12:
            x, s = g.composed(), None
        elif r < 0.22 and name in ('size', 'rank', 'depth', 'shape'):
            t = g.shape(4096, nest=0.4)
            x, s = tuple_node(t, 'arg'), t
        else:
            x, s = self.arg(max_size=1024, nest=0.35)
        targs = self.targ_path(s) if g.chance(0.3) else []
        return Call(name, [x], targs=targs)

    def coshape(self):
        return Call('coshape', [self.lay(max_size=1024, nest=0.3)])

    # --- syntactic forms ---
    def eval(self):
        g = self.g
        r = g.rng.random()
        if r < 0.15:
            target = g.composed()
            if len(target.parts) == 3:
                target.parts.pop(1)
            s = None
        else:
            s, d = g.layout_value(1024, nest=0.3, negative=g.chance(0.3))
            if g.chance(0.1):  # large strides, still inside 32 bits
                big = g.pick([2**20, 2**24, 2**27])
                d = map_leaves(d, lambda x: x * big if abs(x * big) * 64 < 2**31 else x)
            target = Call('make_layout', [tuple_node(s, 'shape'), tuple_node(d, 'stride')])
        sz = size_of(s) if s is not None else 64
        kind = g.rng.random()
        if kind < 0.5 or s is None or isinstance(s, int):
            i = g.rng.randrange(sz) if g.chance(0.9) else g.rng.randrange(sz, 2 * sz + 1)
            return Eval(target, [N(i, 'coord')])
        if kind < 0.85:
            return Eval(target, [tuple_node(map_leaves(m, lambda x: g.rng.randrange(x)), 'coord') if isinstance(m, list) and g.chance(0.3)
                                 else N(g.rng.randrange(size_of(m)), 'coord') for m in s])
        return Eval(target, [tuple_node(map_leaves(s, lambda x: g.rng.randrange(x)), 'coord')])

    def slice(self):
        g = self.g
        s, d = g.layout_value(1024, rank=g.pick([2, 2, 3]), nest=0.3)
        target = Call('make_layout', [tuple_node(s, 'shape'), tuple_node(d, 'stride')])
        return Eval(target, self.slice_coords(s))

    def slice_coords(self, s, underscore=0.5):
        """a slicing coordinate for shape s: per mode `_` (with chance `underscore`), a coordinate,
        or (inside a nested mode) a mix"""
        g = self.g
        coords = []
        for m in s:
            if g.chance(underscore):
                coords.append(UNDERSCORE)
            elif isinstance(m, list) and g.chance(0.5):
                coords.append(T([UNDERSCORE if g.chance(0.5) else N(g.rng.randrange(x), 'coord') for x in m], 'coord'))
            else:
                coords.append(N(g.rng.randrange(size_of(m)), 'coord'))
        return coords

    # --- CuTe's profile relations, tuple algorithms, slice_and_offset (int_tuple.hpp, tuple_algorithms.hpp) ---
    def profile_pair(self):
        """two int tuples (or layouts) whose profiles agree, nearly agree or differ"""
        g = self.g
        a = g.shape(4096, nest=0.35)
        r = g.rng.random()
        if r < 0.35:
            b = map_leaves(a, lambda x: g.leaf())
        elif r < 0.55:  # a refined: an integer of a becomes a tuple of the same size
            b = [[x // 2, 2] if isinstance(x, int) and x % 2 == 0 and g.chance(0.6) else x for x in a]
        elif r < 0.7:
            b = a
        else:
            b = g.shape(4096, nest=0.35)
        nodes = []
        for t in (a, b):
            if g.chance(0.2):
                nodes.append(g.layout_node(t if isinstance(t, list) else [t], g.strides_for(t if isinstance(t, list) else [t])))
            elif g.chance(0.1):
                nodes.append(N(size_of(t), 'arg'))
            else:
                nodes.append(tuple_node(t, 'arg'))
        if g.chance(0.5):
            nodes.reverse()
        return nodes

    def relation(self, name):
        return Call(name, self.profile_pair())

    def elem_less(self):
        """a coordinate against a shape, mode by mode: inside, on the edge, past it, or of another rank"""
        g = self.g
        b = g.shape(4096, nest=0.3)
        a = map_leaves(b, lambda x: g.pick([0, x - 1, x, x + 1, g.rng.randrange(0, 2 * x + 1)]))
        r = g.rng.random()
        if r < 0.1 and isinstance(a, list):
            a = a + [g.leaf()]  # a longer than b: a static 0
        elif r < 0.2 and isinstance(a, list) and len(a) > 1:
            a = a[:-1]  # a shorter: the modes it has decide
        elif r < 0.3:
            a, b = g.leaf(), g.leaf()
        return Call('elem_less', [tuple_node(a, 'arg'), tuple_node(b, 'shape')])

    def evenly_divides(self):
        g = self.g
        s = g.shape(4096, nest=0.3)
        t = []
        for m in s[:g.pick([1, len(s), len(s), len(s) + 1])] if g.chance(0.95) else s + [2]:
            sz = size_of(m)
            divs = [x for x in (1, 2, 4, 8, 16) if sz % x == 0]
            t.append(g.pick(divs) if g.chance(0.75) else g.pick([3, 5, 6, 32]))
        tiler = tuple_node(t, 'arg') if len(t) > 1 or g.chance(0.5) else tuple_node(t[0], 'arg')
        return Call('evenly_divides', [tuple_node(s, 'shape'), tiler])

    def inner_product(self):
        g = self.g
        a = g.shape(4096, nest=0.3)
        b = g.strides_for(a) if g.chance(0.9) else g.shape(4096, nest=0.3)
        return Call('inner_product', [tuple_node(a, 'arg'), tuple_node(b, 'stride')])

    def elem_scale(self):
        g = self.g
        a = g.shape(4096, nest=0.3)
        b = [[g.leaf(), g.leaf()] if g.chance(0.3) else g.leaf() for _ in a]
        if g.chance(0.1):
            b = b[:-1] or [3]
        an = tuple_node(a, 'arg') if len(a) > 1 or g.chance(0.5) else tuple_node(a[0], 'arg')
        return Call('elem_scale', [an, tuple_node(b, 'arg')])

    def tuple_value(self):
        """an int tuple, a tile of layouts, or a layout (no tuple to the tuple algorithms)"""
        g = self.g
        r = g.rng.random()
        if r < 0.6:
            t = g.shape(4096, nest=0.4)
            return tuple_node(t, 'arg'), t
        if r < 0.8:
            return self.arg(max_size=1024, nest=0.3)
        elems = [self.lay(max_size=16, nest=0.1) if g.chance(0.6) else N(g.leaf(), 'arg') for _ in range(g.pick([1, 2, 3]))]
        return T(elems, 'tile'), [0] * len(elems)

    def front_back(self, name):
        return Call(name, [self.tuple_value()[0]])

    def reverse(self):
        return Call('reverse', [self.tuple_value()[0]])

    def remove(self):
        node, s = self.tuple_value()
        return Call('remove', [node], targs=[self.mode_index(s)])

    def replace(self):
        g = self.g
        node, s = self.tuple_value()
        x = self.lay(max_size=64, nest=0.2) if g.chance(0.4) else g.int_tuple(64)
        return Call('replace', [node, x], targs=[self.mode_index(s)])

    def unflatten(self):
        g = self.g
        prof = g.shape(4096, nest=0.5)
        n = len(flat(prof))
        if g.chance(0.1):
            n += g.pick([-1, 1])
        leaves = [g.leaf() for _ in range(max(n, 1))]
        prof_node = tuple_node(map_leaves(prof, lambda _x: g.pick([1, 0, 2])), 'arg')
        if g.chance(0.4):
            flat_node = g.layout_node(leaves, g.strides_for(leaves))
        else:
            flat_node = tuple_node(leaves, 'arg')
        return Call('unflatten', [flat_node, prof_node])

    def with_shape(self):
        g = self.g
        node, s = self.arg(max_size=1024, nest=0.2)
        n = size_of(s) if s is not None else g.pick([16, 32, 64])
        parts = [x for x in (2, 4, 8, 16, 3) if n % x == 0] or [1]
        k = g.pick(parts)
        shp = [k, n // k] if g.chance(0.8) else [[k, max(n // k // 2, 1)], 2]
        if g.chance(0.2):
            return Method('with_shape', node, [tuple_node(x, 'arg') for x in shp])
        return Method('with_shape', node, [tuple_node(shp, 'arg')])

    def slice_coord(self, s):
        return T(self.slice_coords(s, underscore=0.45), 'coord')

    def slice_and_offset(self):
        g = self.g
        if g.chance(0.3):  # a tile of a divided layout, as in the question it answers
            m, n = g.pick([64, 128, 256]), g.pick([64, 128])
            bm, bn = g.pick([16, 32]), g.pick([16, 32])
            target = Call('zipped_divide', [g.layout_node([m, n], g.strides_for([m, n])), T([N(bm, 'arg'), N(bn, 'arg')], 'shape')])
            coord = T([UNDERSCORE, T([N(g.rng.randrange(m // bm), 'coord'), N(g.rng.randrange(n // bn), 'coord')], 'coord')], 'coord')
            return Call('slice_and_offset', [coord, target])
        s, d = g.layout_value(1024, rank=g.pick([2, 2, 3]), nest=0.3)
        return Call('slice_and_offset', [self.slice_coord(s), g.layout_node(s, d)])

    def coord_slice_and_offset(self):
        g = self.g
        node, s = self.coord_layout(max_size=1024, rank=g.pick([2, 2, 3]))
        return Call('slice_and_offset', [self.slice_coord(s), node])

    def coord_domain_offset(self):
        g = self.g
        node, s = self.coord_layout(max_size=1024, rank=g.pick([1, 2, 2, 3]))
        c = map_leaves(s, lambda x: g.rng.randrange(x))
        cn = tuple_node(c, 'coord') if g.chance(0.8) else N(g.rng.randrange(size_of(s)), 'coord')
        return Call('domain_offset', [cn, node])

    def domain_offset(self):
        g = self.g
        s, d = g.layout_value(1024, rank=g.pick([1, 2, 2, 3]), nest=0.3)
        c = map_leaves(s, lambda x: g.rng.randrange(x))
        cn = tuple_node(c, 'coord') if g.chance(0.8) else N(g.rng.randrange(size_of(s)), 'coord')
        return Call('domain_offset', [cn, g.layout_node(s, d)])

    # --- tensor partitioning (CuTe's tensor_impl.hpp) of layouts and coordinate layouts ---
    def tensor_target(self, rank=None):
        """-> (node, python shape): a layout or a coordinate layout of a kernel-like shape"""
        g = self.g
        r = rank or g.pick([2, 2, 2, 1, 3])
        s = [g.pick([8, 16, 32, 64, 128, 256, 1000, 100, 12, 48]) for _ in range(r)]
        while size_of(s) > 65536:
            s = [max(x // 2, 1) for x in s]
        if g.chance(0.1):
            s[0] = [2, s[0] // 2] if s[0] % 2 == 0 else s[0]
        if g.chance(0.45):
            if g.chance(0.7):
                return Call('make_identity_layout', [tuple_node(s, 'shape')]), s
            return self.coord_layout(shape=s)
        d = g.strides_for(s)
        d = map_leaves(d, abs)
        return g.layout_node(s, d), s

    def block_tiler(self, s, kind=None):
        """-> (tiler node, python extents of the tile's modes or None)"""
        g = self.g
        kind = kind or g.pick(['shape', 'shape', 'shape', 'shape', 'tile', 'int'])
        if kind == 'int':
            n = g.pick([2, 4, 8, 16])
            return N(n, 'arg'), [n]
        ext, elems = [], []
        for i in range(g.pick([len(s), len(s), len(s), max(len(s) - 1, 1)])):
            sz = size_of(s[i])
            divs = [x for x in (2, 4, 8, 16, 32, 64, 128) if sz % x == 0 and x < sz] or [1]
            n = g.pick(divs) if g.chance(0.85) else g.pick([3, 5, 6, 128])
            ext.append(n)
            if kind == 'tile' and g.chance(0.5):
                elems.append(Lay(N(n, 'shape'), N(g.pick([1, 1, 2]), 'stride')))
            else:
                elems.append(N(n, 'arg'))
        return T(elems, 'tile' if kind == 'tile' else 'shape'), ext

    def block_coord(self, s, ext, rest=False):
        """a coordinate into the tiles (rest=True) or into one tile (rest=False)"""
        g = self.g
        if ext is None or len(ext) == 0:
            return N(g.rng.randrange(8), 'coord')
        counts = [-(-size_of(s[i]) // e) if rest else e for i, e in enumerate(ext)]
        if g.chance(0.15):
            return N(g.rng.randrange(max(1, min(64, counts[0]))), 'coord')
        cs = [N(g.rng.randrange(max(1, c)), 'coord') for c in counts]
        if rest and len(cs) > 1 and g.chance(0.15):
            cs[g.rng.randrange(len(cs))] = UNDERSCORE
        if g.chance(0.1):
            cs = cs[:-1] or cs
        return T(cs, 'coord')

    def inner_partition(self, name='inner_partition'):
        node, s = self.tensor_target()
        tiler, ext = self.block_tiler(s)
        return OnTensor(name, node, [tiler, self.block_coord(s, ext, rest=True)])

    def outer_partition(self):
        node, s = self.tensor_target()
        tiler, ext = self.block_tiler(s)
        return OnTensor('outer_partition', node, [tiler, self.block_coord(s, ext, rest=False)])

    def local_tile(self):
        g = self.g
        if not g.chance(0.35):
            return self.inner_partition('local_tile')
        # a projection of a 3-mode CTA tiler onto a 2-mode tensor, as a GEMM's mainloop tiles A, B and C
        node, s = self.tensor_target(rank=2)
        bm, bn, bk = g.pick([16, 32, 64, 128]), g.pick([16, 32, 64, 128]), g.pick([4, 8, 16, 32])
        proj = g.pick([[1, None, 1], [None, 1, 1], [1, 1, None]])
        tiler = T([N(bm, 'arg'), N(bn, 'arg'), N(bk, 'arg')], 'shape')
        coord = [N(g.rng.randrange(8), 'coord') for _ in range(3)]
        coord[proj.index(1) if g.chance(0.3) else 2] = UNDERSCORE if g.chance(0.5) else coord[2]
        step = T([N(1, 'step') if p else UNDERSCORE for p in proj], 'step')
        return OnTensor('local_tile', node, [tiler, T(coord, 'coord'), step])

    def thread_layout(self, rank=None):
        g = self.g
        r = rank or g.pick([1, 2, 2, 2])
        shapes = {1: [[32], [8], [64], [128], [4]], 2: [[4, 8], [8, 4], [2, 16], [16, 8], [32, 4], [1, 32], [8, 8]]}
        s = g.pick(shapes[r])
        d = row_major(s) if g.chance(0.5) else col_major(s)
        if r == 1 and g.chance(0.5):
            return Lay(N(s[0], 'shape'), N(d[0], 'stride')), s
        return g.layout_node(s, d), s

    def nested_local_partition(self):
        """local_partition by a hierarchical thread layout, whose flat coordinate folds each mode"""
        g = self.g
        node, s = self.tensor_target(rank=2)
        ts = g.pick([[[2, 2], 8], [4, [2, 4]], [[2, 4], [2, 2]], [[4, 2], 4], [2, [4, 4]], [[2, 2, 2], 4]])
        d = map_leaves(g.strides_for(ts), abs)
        thr = Lay(tuple_node(ts, 'shape'), tuple_node(d, 'stride'))
        return OnTensor('local_partition', node, [thr, N(g.rng.randrange(size_of(ts) + 2), 'coord')])

    def local_partition(self):
        g = self.g
        if g.chance(0.3):
            # a projected thread layout, as a GEMM partitions A, B and C by one (M,N,K) thread layout
            node, s = self.tensor_target(rank=2)
            tm, tn = g.pick([[2, 16], [4, 8], [8, 4], [16, 2], [16, 16]])
            thr = Lay(T([N(tm, 'shape'), N(tn, 'shape'), N(1, 'shape')], 'shape'),
                      T([N(tn, 'stride'), N(1, 'stride'), N(0, 'stride')], 'stride'))
            proj = g.pick([[1, None, 1], [None, 1, 1], [1, 1, None]])
            step = T([N(1, 'step') if p else UNDERSCORE for p in proj], 'step')
            return OnTensor('local_partition', node, [thr, N(g.rng.randrange(tm * tn), 'coord'), step])
        node, s = self.tensor_target()
        thr, ts = self.thread_layout(rank=g.pick([1, min(2, len(s)), min(2, len(s))]))
        return OnTensor('local_partition', node, [thr, N(g.rng.randrange(size_of(ts)), 'coord')])

    def swizzle_literal(self):
        return self.g.swizzle()

    def composed_literal(self):
        return self.g.composed()

    def tile_literal(self):
        g = self.g
        return T([self.lay(max_size=16, nest=0.1) if g.chance(0.6) else N(g.leaf(), 'arg') for _ in range(g.pick([1, 2, 3]))], 'tile')

    def inttuple_literal(self):
        return self.g.int_tuple(2**20, big=self.g.chance(0.3))

    def layout_literal(self):
        return self.g.layout(max_size=1024, nest=0.4, negative=self.g.chance(0.2))


    # --- coordinate layouts (scaled-basis strides) ---
    def coord_layout(self, max_size=256, rank=None, nest=0.3, shape=None):
        """-> (node, python shape): make_identity_layout(S) or a literal with scaled-basis strides"""
        g = self.g
        s = shape if shape is not None else g.shape(max_size, rank, nest)
        if g.chance(0.5):
            return Call('make_identity_layout', [tuple_node(s, 'shape')]), s
        # scaled bases: the identity's modes, sometimes permuted, scaled or broadcast (value 0)
        paths = []

        def go(t, prefix):
            if isinstance(t, int):
                paths.append(prefix)
                return
            for i, e in enumerate(t):
                go(e, prefix + [i])
        go(s, [])
        if g.chance(0.3):
            g.rng.shuffle(paths)
        it = iter(paths)
        scale = g.chance(0.4)

        def stride(t):
            if isinstance(t, int):
                p = next(it)
                if not p:
                    p = [0]
                v = g.pick([1, 1, 2, 4, 0, 3]) if scale else 1
                return SB(v, p)
            return T([stride(e) for e in t], 'stride')
        if len(s) == 1 and g.chance(0.3):
            return Lay(tuple_node(s[0], 'shape'), stride(s[0])), s
        return Lay(tuple_node(s, 'shape'), stride(s)), s

    def of_a_shape(self, name, limit, nest, bare):
        """name(shape): a random shape of size up to limit, a rank-1 one bare (an integer) with chance bare"""
        g = self.g
        s = g.shape(limit, nest=nest)
        if len(s) == 1 and g.chance(bare):
            s = s[0]
        return Call(name, [tuple_node(s, 'shape')])

    def make_identity_layout(self):
        return self.of_a_shape('make_identity_layout', 1024, 0.3, 0.3)

    def make_basis_like(self):
        return self.of_a_shape('make_basis_like', 4096, 0.4, 0.2)

    def basis_literal(self):
        g = self.g
        r = g.rng.random()
        if r < 0.25:
            modes = [g.pick([0, 1, 2])] + ([g.pick([0, 1])] if g.chance(0.4) else [])
            return SB(g.pick([1, 1, 2, 3, 4, 0, 8]), modes)
        if r < 0.35:
            modes = [g.pick([0, 1, 2])] + ([g.pick([0, 1])] if g.chance(0.4) else [])
            return Raw('E<%s>' % ','.join(map(str, modes)), 'E<%s>{}' % ','.join(map(str, modes)))
        return self.coord_layout(max_size=1024)[0]

    def coord_eval(self):
        g = self.g
        node, s = self.coord_layout(max_size=1024)
        sz = size_of(s)
        kind = g.rng.random()
        if kind < 0.5:
            i = g.rng.randrange(sz) if g.chance(0.9) else g.rng.randrange(sz, 2 * sz + 1)
            return Eval(node, [N(i, 'coord')])
        if kind < 0.85:
            return Eval(node, [tuple_node(map_leaves(m, lambda x: g.rng.randrange(x)), 'coord')
                               if isinstance(m, list) and g.chance(0.3) else N(g.rng.randrange(size_of(m)), 'coord')
                               for m in s])
        return Eval(node, [tuple_node(map_leaves(s, lambda x: g.rng.randrange(x)), 'coord')])

    def coord_slice(self):
        g = self.g
        node, s = self.coord_layout(max_size=1024, rank=g.pick([2, 2, 3]))
        return Eval(node, self.slice_coords(s))

    def coord_algebra(self, name):
        """name applied to a coordinate layout, with the arguments its recipe would draw"""
        g = self.g
        a, s = self.coord_layout(max_size=1024)
        if name in ('logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide'):
            return Call(name, [a, g.tiler(s)])
        if name == 'composition_rhs':  # a plain layout composed with a coordinate layout: CuTe's basis_get
            la = g.layout_node(s, g.strides_for(s))
            r = g.rng.random()
            if r < 0.4:
                b, _ = self.coord_layout(shape=s)
            elif r < 0.8:
                b = Call(g.pick(['zipped_divide', 'logical_divide', 'tiled_divide']),
                         [Call('make_identity_layout', [tuple_node(s, 'shape')]), g.tiler(s, g.pick(['shape', 'tile']))])
            else:
                b, _ = self.coord_layout(max_size=64, nest=0.2)
            return Call('composition', [la, b])
        if name == 'composition':
            if g.chance(0.5):
                return Call(name, [a, g.tiler(s)])
            return Call(name, [a, self.lay(max_size=64, nest=0.15)])
        if name in ('logical_product', 'blocked_product', 'raked_product', 'zipped_product', 'complement',
                    'right_inverse', 'coalesce', 'filter', 'flatten', 'zip', 'coshape', 'cosize', 'size',
                    'depth', 'rank', 'shape', 'stride', 'left_inverse', 'filter_zeros'):
            if name.endswith('product'):
                return Call(name, [a, self.lay(max_size=16, nest=0.1)])
            return Call(name, [a])
        if name in ('get', 'select'):
            r = len(s)
            idx = [g.rng.randrange(r) for _ in range(1 if name == 'get' else g.pick([1, 2, 2, 3]))]
            return Call(name, [a], targs=idx)
        if name == 'group':
            r = len(s)
            b = g.rng.randrange(r + 1)
            return Call(name, [a], targs=[b, g.rng.randrange(b, r + 1)])
        if name == 'append':
            b, _ = self.coord_layout(max_size=8, rank=1, nest=0.0)
            return Call(name, [a, b])
        if name == 'make_layout':
            b, _ = self.coord_layout(max_size=16)
            return Call(name, [a, b])
        raise ValueError(name)


# ----------------------------------------------------------------------------
# TiledMMA and TiledCopy (copy_atom.hpp, mma_atom.hpp): the atoms, their tilings and
# the per-thread partitions of a tensor.  Atom layouts and permutations are static
# in both modes (CuTe needs them at compile time); the thread index and the
# tensor's integers follow the case's marks.

# name, (M,N,K) of the atom, threads of its ThrID
MMA_ATOMS = [('SM80_16x8x16_F16F16F16F16_TN', (16, 8, 16), 32), ('SM80_16x8x8_F32TF32TF32F32_TN', (16, 8, 8), 32),
             ('SM80_16x8x32_S32S8S8S32_TN', (16, 8, 32), 32), ('SM75_16x8x8_F32F16F16F32_TN', (16, 8, 8), 32),
             ('SM70_8x8x4_F16F16F16F16_TN', (8, 8, 4), 8), ('SM80_8x8x4_F64F64F64F64_TN', (8, 8, 4), 32),
             ('SM61_DP4A', (1, 1, 4), 1)]
# name (layoutx and C++), bits the atom moves per thread, threads, element types it takes
COPY_ATOMS = [('SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>', 128, 1), ('SM80_CP_ASYNC_CACHEALWAYS<uint64_t>', 64, 1),
              ('SM80_CP_ASYNC_CACHEALWAYS<uint32_t>', 32, 1), ('UniversalCopy<uint128_t>', 128, 1),
              ('UniversalCopy<uint64_t>', 64, 1), ('UniversalCopy<uint32_t>', 32, 1), ('UniversalCopy<uint16_t>', 16, 1),
              ('SM75_U32x4_LDSM_N', 128, 32), ('SM75_U32x1_LDSM_N', 32, 32), ('SM75_U32x2_LDSM_N', 64, 32),
              ('SM75_U16x8_LDSM_T', 128, 32), ('SM90_U32x4_STSM_N', 128, 32), ('SM90_U32x2_STSM_N', 64, 32)]
ELEMENT_TYPES = [('half_t', 16), ('float', 32), ('uint8_t', 8), ('double', 64), ('bfloat16_t', 16)]


class Fixed(Node):
    """A node rendered with every integer static whatever the case's marks (CuTe's compile-time arguments)."""

    def __init__(self, node):
        self.node = node

    def render(self, marks):
        return self.node.render(Marks(marks.mode, 'static', marks.rng))


class TiledMmaN(Node):
    def __init__(self, atom, thr=None, perm=None):
        self.atom, self.thr, self.perm = atom, thr, perm

    def render(self, marks):
        args = [a.render(marks) for a in (self.thr, self.perm) if a is not None]
        return ('make_tiled_mma(' + ', '.join([self.atom] + [a[0] for a in args]) + ')',
                'make_tiled_mma(' + ', '.join([self.atom + '{}'] + [a[1] for a in args]) + ')',
                'make_tiled_mma(' + ', '.join([self.atom + '{}'] + [a[2] for a in args]) + ')')


class TiledCopyN(Node):
    def __init__(self, atom, elem, thr, val):
        self.atom, self.elem, self.thr, self.val = atom, elem, thr, val

    def render(self, marks):
        t, v = self.thr.render(marks), self.val.render(marks)
        cpp = lambda k: 'make_tiled_copy(Copy_Atom<%s, %s>{}, %s, %s)' % (self.atom, self.elem, t[k], v[k])
        return ('make_tiled_copy<%s>(%s, %s, %s)' % (self.elem, self.atom, t[0], v[0]), cpp(1), cpp(2))


class OfTiled(Node):
    """f(x) of a TiledMMA or TiledCopy: a member x.f() or a free function f<I>(x) in C++."""

    def __init__(self, name, target, member, targs=()):
        self.name, self.target, self.member, self.targs = name, target, member, list(targs)

    def render(self, marks):
        t = self.target.render(marks)
        ta = '<' + ','.join(str(x) for x in self.targs) + '>' if self.targs else ''
        if self.member:
            return (self.name + '(' + t[0] + ')', '(' + t[1] + ').' + self.name + '()', '(' + t[2] + ').' + self.name + '()')
        return (self.name + ta + '(' + t[0] + ')', self.name + ta + '(' + t[1] + ')', self.name + ta + '(' + t[2] + ')')


class ThreadPartition(Node):
    """partition_X(x, t, L): x.get_slice(t).partition_X(make_coord_tensor(L)), as (layout, origin);
    a fragment is the layout of the register tensor partition_fragment_X makes."""

    def __init__(self, name, tiled, thread, target, fragment=False, target_marks=None):
        self.name, self.tiled, self.thread, self.target = name, tiled, thread, target
        self.fragment, self.target_marks = fragment, target_marks

    def render(self, marks):
        x, t = self.tiled.render(marks), self.thread.render(marks)
        l = self.target.render(Marks(marks.mode, self.target_marks, marks.rng) if self.target_marks else marks)

        def cpp(k):
            part = '(%s).get_slice(%s).%s(make_coord_tensor(%s))' % (x[k], t[k], self.name, l[k])
            return part + '.layout()' if self.fragment else part
        return ('%s(%s, %s, %s)' % (self.name, x[0], t[0], l[0]), cpp(1), cpp(2))


def static_layout(shape, stride):
    return Fixed(Lay(tuple_node(shape, 'shape'), tuple_node(stride, 'stride')))


class TiledRecipes:
    """Recipes for the TiledMMA / TiledCopy functions."""

    def __init__(self, g):
        self.g = g

    def tiled_mma(self):
        """-> (node, (tile M, N, K), threads)"""
        g = self.g
        name, (am, an, ak), threads = g.pick(MMA_ATOMS)
        tm, tn, tk = g.pick([(1, 1, 1), (2, 2, 1), (2, 1, 1), (1, 2, 1), (4, 1, 1), (2, 4, 1), (4, 2, 1), (1, 1, 2), (2, 2, 2)])
        r = g.rng.random()
        if r < 0.15:
            return TiledMmaN(name), (am, an, ak), threads
        if r < 0.25 and tk == 1:
            thr = static_layout([tm, tn], [1, tm])  # make_tiled_mma appends the K mode
        elif r < 0.45:
            thr = static_layout([tm, tn, tk], [tn * tk, tk, 1])
        else:
            thr = static_layout([tm, tn, tk], [1, tm, tm * tn])
        ext = [am * tm, an * tn, ak * tk]
        if g.chance(0.4):
            return TiledMmaN(name, thr), tuple(ext), threads * tm * tn * tk
        # a permutation: extents (a larger tile), `_`, or a layout that interleaves N
        modes, cover = [], []
        for i, e in enumerate(ext):
            r = g.rng.random()
            if r < 0.3:
                modes.append(UNDERSCORE)
                cover.append(e)
            elif r < 0.75 or e % 4 or i != 1:
                k = g.pick([1, 1, 2, 4])
                modes.append(N(e * k, 'arg'))
                cover.append(e * k)
            else:
                half = e // 2  # (2,half):(half,1), N's two halves interleaved
                modes.append(Lay(T([N(2), N(half)]), T([N(half, 'stride'), N(1, 'stride')], 'stride')))
                cover.append(e)
        perm = Fixed(T(modes, 'tile'))
        return TiledMmaN(name, thr, perm), tuple(cover), threads * tm * tn * tk

    def tiled_copy(self):
        """-> (node, (tile M, N), threads)"""
        g = self.g
        while True:
            name, bits, threads = g.pick(COPY_ATOMS)
            elem, ebits = g.pick(ELEMENT_TYPES)
            if bits % ebits == 0 and (threads == 1 or ebits in (16, 32)):
                break
        vals = bits // ebits
        tr, tc = g.pick([(8, 4), (4, 8), (16, 8), (32, 4), (32, 1), (8, 16), (16, 16), (4, 32), (2, 16), (32, 8)])
        if threads == 32 and tr * tc % 32:
            tr, tc = 8, 4
        if g.chance(0.5):
            thr = static_layout([tr, tc], [tc, 1])
        else:
            thr = static_layout([tr, tc], [1, tr])
        k = g.pick([1, 1, 1, 2])
        if g.chance(0.6):
            vr, vc = 1, vals * k
        elif g.chance(0.6):
            vr, vc = vals * k, 1
        else:
            vr, vc = k, vals
        val = static_layout([vr, vc], [1, vr] if g.chance(0.7) else [vc, 1])
        return TiledCopyN(name, elem, thr, val), (tr * vr, tc * vc), tr * tc

    def tensor(self, extents, rank3=0.15, coordinates=True):
        """a layout or identity layout covering a few tiles of the given extents"""
        g = self.g
        s = [e * g.pick([1, 1, 2, 4]) for e in extents]
        while size_of(s) > 32768:
            s = [max(x // 2, e) for x, e in zip(s, extents)]
            if size_of(s) == size_of(extents):
                break
        if g.chance(rank3):
            s.append(g.pick([2, 3, 4]))
        r = g.rng.random() if coordinates else 0.4 + 0.6 * g.rng.random()
        if r < 0.4:
            return Call('make_identity_layout', [tuple_node(s, 'shape')])
        if r < 0.6:
            return g.layout_node(s, col_major(s))
        if r < 0.85:
            return g.layout_node(s, row_major(s))
        # a padded leading dimension
        d = row_major(s)
        d = [x * (s[-1] + 8) // s[-1] if i < len(s) - 1 else x for i, x in enumerate(d)] if len(s) == 2 else d
        return g.layout_node(s, d)

    def make_tiled_mma(self):
        return self.tiled_mma()[0]

    def make_tiled_copy(self):
        return self.tiled_copy()[0]

    def mma_layout(self, name):
        return OfTiled(name, self.tiled_mma()[0], True)

    def copy_layout(self, name):
        return OfTiled(name, self.tiled_copy()[0], True)

    def tile_size(self):
        g = self.g
        if g.chance(0.7):
            return OfTiled('tile_size', self.tiled_mma()[0], False, [g.rng.randrange(3)])
        return OfTiled('tile_size', self.tiled_copy()[0], False, [g.rng.randrange(2)])

    def tile_shape(self):
        return OfTiled('tile_shape', self.tiled_mma()[0], False)

    def size(self):
        g = self.g
        return OfTiled('size', self.tiled_mma()[0] if g.chance(0.5) else self.tiled_copy()[0], False)

    def mma_partition(self, name, fragment=False, coordinates=True):
        g = self.g
        mma, (m, n, k), threads = self.tiled_mma()
        ext = {'A': (m, k), 'B': (n, k), 'C': (m, n)}[name[-1]]
        target = self.tensor(ext, coordinates=coordinates)
        # a fragment owns registers: CuTe builds one only of a static shape
        return ThreadPartition(name, mma, N(g.rng.randrange(threads), 'coord'), target, fragment,
                               'shapes-static' if fragment else None)

    def copy_partition(self, name):
        g = self.g
        copy, ext, threads = self.tiled_copy()
        return ThreadPartition(name, copy, N(g.rng.randrange(threads), 'coord'), self.tensor(ext))


class TensorRecipes(TiledRecipes):
    """Recipes for tensors as values and the TiledMMA / TiledCopy functions that take or make them."""

    def pointer(self, memory=None, elem=None):
        """make_gmem_ptr<T>(nullptr or an address) / make_smem_ptr<T>(...) -> (node, element bits)"""
        g = self.g
        memory = memory or g.pick(['gmem', 'gmem', 'smem'])
        elem, bits = elem or g.pick(ELEMENT_TYPES)
        if g.chance(0.6):
            return Raw('make_%s_ptr<%s>(nullptr)' % (memory, elem), 'make_%s_ptr<%s>(nullptr)' % (memory, elem)), bits
        a = g.pick([16, 256, 4096, 1 << 20]) * g.rng.randrange(1, 9)
        return Raw('make_%s_ptr<%s>(%d)' % (memory, elem, a), 'make_%s_ptr<%s>((%s*)%d)' % (memory, elem, elem, a)), bits

    def tensor_of(self, layout, coordinates=True, elem=None):
        """a tensor of the given layout node: its coordinate tensor or a pointer tensor"""
        g = self.g
        if coordinates and g.chance(0.3):
            return Call('make_coord_tensor', [layout])
        return Call('make_tensor', [self.pointer(elem=elem)[0], layout])

    def tensor_over(self, extents, rank3=0.15, coordinates=True, elem=None):
        """a tensor covering a few tiles of the given extents (an identity tensor, or a layout's tensor)"""
        g = self.g
        target = self.tensor(extents, rank3, coordinates)
        if isinstance(target, Call) and target.name == 'make_identity_layout':
            return Call('make_identity_tensor', target.args)
        return self.tensor_of(target, coordinates, elem)

    def make_identity_tensor(self):
        return Call('make_identity_tensor', [tuple_node(self.g.shape(max_size=1024), 'shape')])

    def make_coord_tensor(self):
        return Call('make_coord_tensor', [self.g.layout(max_size=1024)])

    def make_tensor(self):
        g = self.g
        s = g.shape(max_size=4096)
        if g.chance(0.3):
            return Call('make_tensor', [self.pointer()[0], tuple_node(s, 'shape'), tuple_node(g.strides_for(s), 'stride')])
        return Call('make_tensor', [self.pointer()[0], g.layout_node(s, g.strides_for(s))])

    def make_ptr(self, memory):
        return self.pointer(memory)[0]

    def make_tensor_like(self):
        g = self.g
        s = g.shape(max_size=256)
        # CuTe owns register arrays of static layouts only
        return Call('make_tensor_like', [Fixed(self.tensor_of(g.layout_node(s, g.strides_for(s)), False))])

    def thread_slice(self, name):
        g = self.g
        if g.chance(0.5):
            mma, _, threads = self.tiled_mma()
            return Method(name, mma, [N(g.rng.randrange(threads), 'coord')])
        copy, _, threads = self.tiled_copy()
        return Method(name, copy, [N(g.rng.randrange(threads), 'coord')])

    def copy_atom_for(self, bits_choices):
        """a Copy_Atom<op, T>{} whose T fits: -> (node, T, element bits)"""
        g = self.g
        while True:
            name, bits, threads = g.pick(COPY_ATOMS)
            elem, ebits = g.pick(ELEMENT_TYPES)
            if ebits in bits_choices and bits % ebits == 0 and (threads == 1 or ebits in (16, 32)):
                text = 'Copy_Atom<%s, %s>{}' % (name, elem)
                return Raw(text, text), elem, ebits

    def tiled_copy_of_mma(self, name):
        g = self.g
        mma, _, _ = self.tiled_mma()
        atom = g.pick(['UniversalCopy<uint32_t>', 'UniversalCopy<uint64_t>', 'UniversalCopy<uint128_t>', 'SM75_U32x4_LDSM_N',
                       'SM75_U32x2_LDSM_N', 'SM75_U32x1_LDSM_N', 'DefaultCopy'])
        elem = g.pick(['half_t', 'half_t', 'float', 'bfloat16_t'])
        text = 'Copy_Atom<%s, %s>{}' % (atom, elem)
        return Call(name, [Raw(text, text), mma])

    def tiled_copy_of_copy(self, name):
        copy, _, _ = self.tiled_copy()
        atom, _, _ = self.copy_atom_for([8, 16, 32, 64])
        return Call(name, [atom, copy])

    def thr_partition(self, name):
        """thr.partition_X(tensor) of a thread slice, tensors of every kind"""
        g = self.g
        if name in ('partition_S', 'partition_D'):
            copy, ext, threads = self.tiled_copy()
            thr = Method('get_slice', copy, [N(g.rng.randrange(threads), 'coord')])
            return Method(name, thr, [self.tensor_over(ext)])
        mma, (m, n, k), threads = self.tiled_mma()
        ext = {'A': (m, k), 'B': (n, k), 'C': (m, n)}[name[-1]]
        thr = Method('get_slice', mma, [N(g.rng.randrange(threads), 'coord')])
        return Method(name, thr, [self.tensor_over(ext)])

    def retile(self, name):
        """thr_copy.retile_X(the MMA fragment of the same thread), the copy made for the MMA's operand"""
        g = self.g
        mma, (m, n, k), threads = self.tiled_mma()
        operand = g.pick(['A', 'B', 'C'])
        atom = g.pick(['UniversalCopy<uint32_t>', 'UniversalCopy<uint64_t>', 'DefaultCopy'] +
                      (['SM75_U32x4_LDSM_N', 'SM75_U32x2_LDSM_N'] if operand != 'C' else []))
        elem = 'half_t' if operand != 'C' else g.pick(['half_t', 'float'])
        text = 'Copy_Atom<%s, %s>{}' % (atom, elem)
        t = N(g.rng.randrange(threads), 'coord')
        copy = Call('make_tiled_copy_' + operand, [Raw(text, text), mma])
        ext = {'A': (m, k), 'B': (n, k), 'C': (m, n)}[operand]
        tensor = Fixed(self.tensor_over(ext, rank3=0.0, coordinates=False))
        frag = Method('partition_fragment_' + operand, Method('get_slice', mma, [t]), [tensor])
        return Method(name, Method('get_slice', copy, [t]), [frag])


TILED_RECIPES = {
    'make_tiled_mma': TiledRecipes.make_tiled_mma, 'make_tiled_copy': TiledRecipes.make_tiled_copy,
    'get_layoutA_TV': lambda r: r.mma_layout('get_layoutA_TV'), 'get_layoutB_TV': lambda r: r.mma_layout('get_layoutB_TV'),
    'get_layoutC_TV': lambda r: r.mma_layout('get_layoutC_TV'), 'get_layoutS_TV': lambda r: r.copy_layout('get_layoutS_TV'),
    'get_layoutD_TV': lambda r: r.copy_layout('get_layoutD_TV'), 'tile_size': TiledRecipes.tile_size,
    'tile_shape': TiledRecipes.tile_shape, 'size_of_tiled': TiledRecipes.size,
    'partition_A': lambda r: r.mma_partition('partition_A'), 'partition_B': lambda r: r.mma_partition('partition_B'),
    'partition_C': lambda r: r.mma_partition('partition_C'),
    'partition_fragment_A': lambda r: r.mma_partition('partition_fragment_A', True),
    'partition_fragment_B': lambda r: r.mma_partition('partition_fragment_B', True),
    'partition_fragment_C': lambda r: r.mma_partition('partition_fragment_C', True),
    'partition_S': lambda r: r.copy_partition('partition_S'), 'partition_D': lambda r: r.copy_partition('partition_D'),
    # make_fragment_like of a coordinate layout does not compile: A and B fragments of plain layouts only
    'plain_partition_fragment_A': lambda r: r.mma_partition('partition_fragment_A', True, False),
    'plain_partition_fragment_B': lambda r: r.mma_partition('partition_fragment_B', True, False),
}
TENSOR_RECIPES = {
    'make_identity_tensor': TensorRecipes.make_identity_tensor, 'make_coord_tensor': TensorRecipes.make_coord_tensor,
    'make_tensor': TensorRecipes.make_tensor, 'make_gmem_ptr': lambda r: r.make_ptr('gmem'),
    'make_smem_ptr': lambda r: r.make_ptr('smem'), 'make_tensor_like': TensorRecipes.make_tensor_like,
    'get_slice': lambda r: r.thread_slice('get_slice'), 'get_thread_slice': lambda r: r.thread_slice('get_thread_slice'),
    'make_tiled_copy_A': lambda r: r.tiled_copy_of_mma('make_tiled_copy_A'),
    'make_tiled_copy_B': lambda r: r.tiled_copy_of_mma('make_tiled_copy_B'),
    'make_tiled_copy_C': lambda r: r.tiled_copy_of_mma('make_tiled_copy_C'),
    'make_tiled_copy_S': lambda r: r.tiled_copy_of_copy('make_tiled_copy_S'),
    'make_tiled_copy_D': lambda r: r.tiled_copy_of_copy('make_tiled_copy_D'),
    'thr_partition_A': lambda r: r.thr_partition('partition_A'), 'thr_partition_B': lambda r: r.thr_partition('partition_B'),
    'thr_partition_C': lambda r: r.thr_partition('partition_C'), 'thr_partition_S': lambda r: r.thr_partition('partition_S'),
    'thr_partition_D': lambda r: r.thr_partition('partition_D'),
    'retile_S': lambda r: r.retile('retile_S'), 'retile_D': lambda r: r.retile('retile_D'),
}
# the function a recipe of another name calls
TILED_OPS = {'size_of_tiled': 'size', 'plain_partition_fragment_A': 'partition_fragment_A',
             'plain_partition_fragment_B': 'partition_fragment_B', 'thr_partition_A': 'partition_A',
             'thr_partition_B': 'partition_B', 'thr_partition_C': 'partition_C', 'thr_partition_S': 'partition_S',
             'thr_partition_D': 'partition_D'}


COORD_FUNCTIONS = ['composition', 'composition_rhs', 'logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide', 'coalesce',
                   'filter', 'flatten', 'zip', 'get', 'select', 'group', 'append', 'make_layout', 'coshape', 'cosize',
                   'size', 'depth', 'rank', 'shape', 'stride', 'logical_product', 'blocked_product', 'raked_product',
                   'zipped_product', 'complement', 'right_inverse', 'left_inverse', 'filter_zeros']


def _coord(name):
    return lambda r: r.coord_algebra(name)


def _q(name):
    return lambda r: r.query(name)


RECIPES = {
    'append': Recipes.append, 'blocked_product': lambda r: r.product_op('blocked_product'),
    'ceil_div': Recipes.ceil_div, 'coalesce': Recipes.coalesce, 'complement': Recipes.complement,
    'composition': Recipes.composition, 'coshape': Recipes.coshape, 'cosize': _q('cosize'),
    'crd2idx': Recipes.crd2idx, 'depth': _q('depth'), 'downcast': Recipes.downcast, 'filter': Recipes.filter,
    'flat_divide': lambda r: r.divide('flat_divide'), 'flat_product': lambda r: r.product_op('flat_product'),
    'flatten': Recipes.flatten, 'get': Recipes.get, 'group': Recipes.group, 'idx2crd': Recipes.idx2crd,
    'layout': lambda r: r.get('layout'), 'left_inverse': Recipes.left_inverse,
    'logical_divide': lambda r: r.divide('logical_divide'), 'logical_product': lambda r: r.product_op('logical_product'),
    'make_coord': lambda r: r.make_tuple('make_coord'), 'make_layout': Recipes.make_layout,
    'make_layout_like': Recipes.make_layout_like, 'make_fragment_like': Recipes.make_fragment_like,
    'filter_zeros': Recipes.filter_zeros, 'max_alignment': Recipes.max_alignment,
    'domain_distribute': Recipes.domain_distribute, 'product_each': Recipes.product_each,
    'make_ordered_layout': Recipes.make_ordered_layout, 'make_shape': lambda r: r.make_tuple('make_shape'),
    'make_step': lambda r: r.make_tuple('make_step'), 'make_stride': lambda r: r.make_tuple('make_stride'),
    'make_swizzle': Recipes.make_swizzle, 'make_tile': lambda r: r.make_tuple('make_tile'),
    'make_tuple': lambda r: r.make_tuple('make_tuple'), 'make_composed_layout': Recipes.make_composed_layout,
    'max_common_layout': lambda r: r.max_common('max_common_layout'),
    'max_common_vector': lambda r: r.max_common('max_common_vector'), 'nullspace': Recipes.nullspace,
    'prepend': Recipes.prepend, 'product': Recipes.product, 'raked_product': lambda r: r.product_op('raked_product'),
    'rank': _q('rank'), 'recast': Recipes.recast, 'recast_layout': Recipes.recast_layout,
    'right_inverse': Recipes.right_inverse, 'select': Recipes.select, 'shape': _q('shape'),
    'shape_div': Recipes.shape_div, 'size': _q('size'), 'stride': _q('stride'), 'take': Recipes.take,
    'tile_to_shape': Recipes.tile_to_shape, 'tiled_divide': lambda r: r.divide('tiled_divide'),
    'tiled_product': lambda r: r.product_op('tiled_product'), 'upcast': Recipes.upcast, 'zip': Recipes.zip,
    'zipped_divide': lambda r: r.divide('zipped_divide'), 'zipped_product': lambda r: r.product_op('zipped_product'),
    # syntactic forms and value kinds
    'eval': Recipes.eval, 'slice': Recipes.slice, 'o': Recipes.o, 'swizzle': Recipes.swizzle_literal,
    'composed': Recipes.composed_literal, 'tile': Recipes.tile_literal, 'inttuple': Recipes.inttuple_literal,
    'layout_literal': Recipes.layout_literal,
    'make_identity_layout': Recipes.make_identity_layout, 'make_basis_like': Recipes.make_basis_like,
    'basis_literal': Recipes.basis_literal, 'coord_eval': Recipes.coord_eval, 'coord_slice': Recipes.coord_slice,
    # profile relations, tuple algorithms, slices with their offsets
    'congruent': lambda r: r.relation('congruent'), 'weakly_congruent': lambda r: r.relation('weakly_congruent'),
    'compatible': lambda r: r.relation('compatible'), 'evenly_divides': Recipes.evenly_divides,
    'inner_product': Recipes.inner_product, 'elem_scale': Recipes.elem_scale, 'elem_less': Recipes.elem_less,
    'front': lambda r: r.front_back('front'), 'back': lambda r: r.front_back('back'), 'reverse': Recipes.reverse,
    'remove': Recipes.remove, 'replace': Recipes.replace, 'unflatten': Recipes.unflatten,
    'with_shape': Recipes.with_shape, 'slice_and_offset': Recipes.slice_and_offset,
    'domain_offset': Recipes.domain_offset,
    'coord_slice_and_offset': Recipes.coord_slice_and_offset, 'coord_domain_offset': Recipes.coord_domain_offset,
    # tensor partitioning of layouts and coordinate layouts
    'inner_partition': Recipes.inner_partition, 'outer_partition': Recipes.outer_partition,
    'local_tile': Recipes.local_tile, 'local_partition': Recipes.local_partition,
    'nested_local_partition': Recipes.nested_local_partition,
}
RECIPES.update({'coord_' + f: _coord(f) for f in COORD_FUNCTIONS})

# operations whose result is a plain layout, for nesting
NESTABLE = ['coalesce', 'complement', 'composition', 'logical_divide', 'zipped_divide', 'tiled_divide',
            'flat_divide', 'logical_product', 'zipped_product', 'blocked_product', 'raked_product', 'filter',
            'flatten', 'make_layout', 'right_inverse', 'left_inverse', 'upcast', 'downcast', 'select', 'take',
            'group', 'append', 'tile_to_shape', 'make_layout_like', 'make_fragment_like', 'max_common_layout',
            'zip', 'make_ordered_layout', 'o']

POLICIES = ['dynamic', 'dynamic', 'static', 'mixed', 'mixed', 'mixed', 'shapes-static', 'strides-static', 'args-static']


def count_nest(node):
    if isinstance(node, (Call, Compose, Eval, Method)):
        kids = (node.args if isinstance(node, Call) else node.parts if isinstance(node, Compose)
                else [node.target] + node.args if isinstance(node, Method) else [node.target] + node.coords)
        return 1 + max([count_nest(k) for k in kids] or [0])
    if isinstance(node, (T, Lay)):
        kids = node.elems if isinstance(node, T) else [node.shape, node.stride]
        return max([count_nest(k) for k in kids] or [0])
    return 0


def generate(seed, count, mode, prefix, ops=None):
    rng = random.Random('%s/%d/%s' % (prefix, seed, mode))
    g = Gen(rng)
    ops = ops or list(RECIPES)
    seen = set()
    out = []
    attempts = 0
    while len(out) < count and attempts < count * 20:
        attempts += 1
        op = ops[len(out) % len(ops)] if rng.random() < 0.9 else rng.choice(ops)
        if op in TENSOR_RECIPES:
            node = TENSOR_RECIPES[op](TensorRecipes(g))
        else:
            node = TILED_RECIPES[op](TiledRecipes(g)) if op in TILED_RECIPES else RECIPES[op](Recipes(g))
        policy = rng.choice(POLICIES) if mode == 'dynamic' else 'static'
        marks = Marks(mode, policy, rng)
        expr, cpp, twin = node.render(marks)
        if expr in seen or len(expr) > 600:
            continue
        seen.add(expr)
        ints = policy if mode == 'dynamic' else 'static'
        case = {'id': '%s%06d' % (prefix, len(out) + 1), 'mode': mode, 'expr': expr, 'cpp': cpp,
                'op': TILED_OPS.get(op, op), 'nest': count_nest(node), 'ints': ints}
        if mode == 'dynamic':
            case['twin_cpp'] = twin
        out.append(case)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--count', type=int, default=1000)
    ap.add_argument('--mode', choices=['static', 'dynamic'], default='static')
    ap.add_argument('--prefix', default=None, help='case id prefix (default: s<seed>- or d<seed>-)')
    ap.add_argument('--ops', default=None, help='comma-separated recipe names (default: all)')
    a = ap.parse_args()
    prefix = a.prefix or ('%s%d-' % (a.mode[0], a.seed))
    for c in generate(a.seed, a.count, a.mode, prefix, a.ops.split(',') if a.ops else None):
        print(json.dumps(c))


if __name__ == '__main__':
    main()
