#!/usr/bin/env python3
"""Cases over CuTe's canonical shared-memory layout atoms (GMMA/UMMA Layout_*_Atom<T>).

Deterministic: every atom with every value type, then the algebra on a few of
them (tile_to_shape, casts, slicing, evaluation, composition, divides,
products, inverses, queries), the printed forms read back, and the
position-independent form of atoms tiled to dynamic shapes.  Same JSON lines
as generate.py; CuTe answers them through cute_runner.py.

  generate_smem_atoms.py > smem_atoms_cases.jsonl
"""
import json

from generate import N, T, Lay, Call, Raw, Compose, Eval, UNDERSCORE, RIGHT, Marks, count_nest

ATOMS = ['GMMA::Layout_K_INTER_Atom', 'GMMA::Layout_K_SW32_Atom', 'GMMA::Layout_K_SW64_Atom',
         'GMMA::Layout_K_SW128_Atom', 'GMMA::Layout_MN_INTER_Atom', 'GMMA::Layout_MN_SW32_Atom',
         'GMMA::Layout_MN_SW64_Atom', 'GMMA::Layout_MN_SW128_Atom', 'UMMA::Layout_MN_SW128_32B_Atom',
         'UMMA::Layout_K_SW128_Atom', 'UMMA::Layout_MN_INTER_Atom']
TYPES = ['half_t', 'bfloat16_t', 'float', 'tfloat32_t', 'float_e4m3_t', 'int8_t', 'uint8_t', 'double',
         'uint128_t', 'int4_t', 'float_e2m1_t', 'float_e2m3_t', 'bool', 'uint16_t']
SPARSE = ['GMMA::Layout_K_SW128_SpAtom', 'GMMA::Layout_MN_SW64_SpAtom', 'UMMA::Layout_MN_SW128_32B_SpAtom',
          'GMMA::Layout_K_INTER_SpAtom']


def atom(name, ty):
    return Raw('%s<%s>' % (name, ty), '%s<%s>{}' % (name, ty))


def sp_atom(name, ty, s):
    return Raw('%s<%s,%d>' % (name, ty, s), '%s<%s,%d>{}' % (name, ty, s))


def shape(*xs):
    return T([N(x) if isinstance(x, int) else x for x in xs], 'shape')


def tile(*xs):
    return T([N(x) if isinstance(x, int) else x for x in xs], 'tile')


def coord(*xs):
    return T([N(x, 'coord') if isinstance(x, int) else x for x in xs], 'coord')


def lay(s, d):
    def node(t, role):
        return N(t, role) if isinstance(t, int) else T([node(e, role) for e in t], role)
    return Lay(node(s, 'shape'), node(d, 'stride'))


def c(x):
    return N(x, 'coord')


def atom_shape(name, bits):
    """the atom's (rows, cols) in elements, for tile_to_shape targets"""
    if 'SW128_32B' in name:
        return (1024 // bits if bits <= 1024 else 1, 4)
    w = {'INTER': 128, 'SW32': 256, 'SW64': 512, 'SW128': 1024}[name.split('_')[2]]
    per = max(w // bits, 1)
    return (8, per) if '_K_' in name else (per, 8)


BITS = {'half_t': 16, 'bfloat16_t': 16, 'float': 32, 'tfloat32_t': 32, 'float_e4m3_t': 8, 'int8_t': 8, 'uint8_t': 8,
        'double': 64, 'uint128_t': 128, 'int4_t': 4, 'float_e2m1_t': 4, 'float_e2m3_t': 6, 'bool': 1, 'uint16_t': 16}


def cases():
    out = []

    def add(op, node):
        out.append((op, node))

    for name in ATOMS:
        for ty in TYPES:
            a = atom(name, ty)
            add('smem_atom', a)
            r, k = atom_shape(name, BITS[ty])
            if ty in ('half_t', 'float', 'int4_t', 'uint128_t'):
                add('tile_to_shape', Call('tile_to_shape', [a, shape(r * 2, k * 4)]))
    for name, ty in [('GMMA::Layout_K_SW128_Atom', 'half_t'), ('GMMA::Layout_MN_SW64_Atom', 'float'),
                     ('GMMA::Layout_K_INTER_Atom', 'float_e4m3_t'), ('UMMA::Layout_MN_SW128_32B_Atom', 'half_t')]:
        if True:
            a = atom(name, ty)
            r, k = atom_shape(name, BITS[ty])
            big = Call('tile_to_shape', [a, shape(r * 4, k * 2)])
            add('tile_to_shape', Call('tile_to_shape', [a, shape(r * 2, k * 2, 3)]))
            add('tile_to_shape', Call('tile_to_shape', [a, shape(r * 2, k * 4), T([N(2), N(1)], 'step')]))
            add('tile_to_shape', Call('tile_to_shape', [a, shape(r * 2, k * 4), RIGHT]))
            add('tile_to_shape', Call('tile_to_shape', [a, shape(r + 1, k)]))  # not a multiple: refused
            add('upcast', Call('upcast', [a], targs=[2]))
            add('downcast', Call('downcast', [a], targs=[4]))
            add('downcast', Call('downcast', [a], targs=[64]))
            add('as_position_independent_swizzle_layout', Call('as_position_independent_swizzle_layout', [a]))
            add('as_position_independent_swizzle_layout', Call('as_position_independent_swizzle_layout', [big]))
            for t2 in ('float', 'uint8_t', 'uint128_t'):
                add('recast_layout', Call('recast_layout', [a], targs=[ty, t2]))
            add('slice', Eval(big, [UNDERSCORE, c(0)]))
            add('slice', Eval(big, [UNDERSCORE, c(3)]))
            add('slice', Eval(big, [c(1), UNDERSCORE]))
            add('slice', Eval(big, [c(r), UNDERSCORE]))
            add('slice', Eval(big, [UNDERSCORE, UNDERSCORE]))
            add('eval', Eval(big, [c(5)]))
            add('eval', Eval(big, [c(3), c(7)]))
            add('eval', Eval(a, [c(r * k - 1)]))
            add('composition', Call('composition', [big, tile(r, k)]))
            add('composition', Call('composition', [big, lay(8, 2)]))
            add('composition', Call('composition', [lay(4, 2), a]))
            add('composition', Call('composition', [a, atom(name.replace('SW128', 'SW64'), ty)]))
            add('o', Compose([big, lay((2, 4), (1, 8))]))
            for op in ('logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide'):
                add(op, Call(op, [big, tile(r, k)]))
            for op in ('logical_product', 'zipped_product', 'tiled_product', 'flat_product'):
                add(op, Call(op, [a, lay((2, 2), (1, 2))]))
            add('logical_product', Call('logical_product', [lay(2, 1), a]))
            add('zipped_product', Call('zipped_product', [lay(2, 1), a]))
            add('blocked_product', Call('blocked_product', [a, lay((2, 2), (1, 2))]))
            add('raked_product', Call('raked_product', [a, lay((2, 2), (2, 1))]))
            add('get', Call('get', [big], targs=[0]))
            add('get', Call('get', [big], targs=[1]))
            add('layout', Call('layout', [big], targs=[1]))
            add('take', Call('take', [big], targs=[0, 1]))
            add('select', Call('select', [big], targs=[1, 0]))
            add('coalesce', Call('coalesce', [big]))
            add('coalesce', Call('coalesce', [big, T([N(1), N(1)], 'shape')]))
            add('filter', Call('filter', [big, T([N(1), N(1)], 'shape')]))
            add('flatten', Call('flatten', [big]))
            add('zip', Call('zip', [big]))
            add('group', Call('group', [Call('tile_to_shape', [a, shape(r, k, 2)])], targs=[0, 2]))
            add('complement', Call('complement', [a]))
            add('complement', Call('complement', [a, N(r * k * 4)]))
            add('right_inverse', Call('right_inverse', [a]))
            add('left_inverse', Call('left_inverse', [a]))
            add('max_common_layout', Call('max_common_layout', [big, Call('make_layout', [shape(r * 4, k * 2), RIGHT])]))
            add('max_common_vector', Call('max_common_vector', [big, Call('make_layout', [shape(r * 4, k * 2), RIGHT])]))
            add('max_common_vector', Call('max_common_vector', [big, big]))
            add('max_alignment', Call('max_alignment', [a]))
            for q in ('size', 'cosize', 'rank', 'depth', 'shape'):
                add(q, Call(q, [big]))
            add('make_fragment_like', Call('make_fragment_like', [a]))
    # the printed forms read back (CuTe's three-part composition)
    for b, m, s, bits, l in [(3, 4, 3, 16, lay((8, 64), (64, 1))), (2, 4, 3, 32, lay((16, 8), (1, 16))),
                             (0, 4, 3, 8, lay((8, 16), (16, 1))), (2, 5, 2, 16, lay((64, 4), (1, 64))),
                             (1, 4, 3, 1, lay((8, 256), (256, 1))), (3, 4, 3, 0, lay((8, 2048), (2048, 1)))]:
        flag = Raw('smem_ptr[%db](unset)' % bits, 'smem_ptr_flag_bits<%d>{}' % bits)
        lit = Compose([Raw('Sw<%d,%d,%d>' % (b, m, s), 'Swizzle<%d,%d,%d>{}' % (b, m, s)), flag, l])
        add('composed', lit)
        add('tile_to_shape', Call('tile_to_shape', [lit, Call('product_each', [Call('shape', [l])])]))
    sflag = Raw('smem_sparse<2>_ptr[16b](unset)', 'smem_sparse_ptr_flag_bits<2,16>{}')
    add('composed', Compose([Raw('Sw<3,4,3>', 'Swizzle<3,4,3>{}'), sflag, lay((8, (2, 64)), (128, (64, 1)))]))
    for name in SPARSE:
        for ty, s in (('half_t', 2), ('int8_t', 4)):
            a = sp_atom(name, ty, s)
            add('smem_atom', a)
            add('upcast', Call('upcast', [a], targs=[2]))
            add('slice', Eval(a, [UNDERSCORE, c(1)]))
    # the position-independent form of every atom, for the value types of whole bytes and more
    for name in ATOMS:
        for ty in POSITION_TYPES:
            add('as_position_independent_swizzle_layout', Call('as_position_independent_swizzle_layout', [atom(name, ty)]))
    return out


POSITION_TYPES = ['half_t', 'bfloat16_t', 'float', 'tfloat32_t', 'int8_t', 'uint8_t', 'double']


def dynamic_cases():
    """the position-independent form of atoms tiled to shapes of dynamic integers"""
    out = []
    for name in ATOMS:
        for ty in ('half_t', 'float', 'int8_t', 'bfloat16_t', 'double'):
            r, k = atom_shape(name, BITS[ty])
            for target in (shape(r * 2, k * 4), shape(r * 4, k * 2)):
                tiled = Call('tile_to_shape', [atom(name, ty), target])
                out.append(('as_position_independent_swizzle_layout',
                            Call('as_position_independent_swizzle_layout', [tiled])))
    return out


def main():
    marks = Marks('static', 'static', None)
    seen = set()
    n = 0
    for op, node in cases():
        expr, cpp, _ = node.render(marks)
        if expr in seen:
            continue
        seen.add(expr)
        n += 1
        print(json.dumps({'id': 'sa-%04d' % n, 'mode': 'static', 'expr': expr, 'cpp': cpp, 'op': op,
                          'nest': count_nest(node), 'ints': 'static'}))
    marks = Marks('dynamic', 'dynamic', None)
    for k, (op, node) in enumerate(dynamic_cases(), 1):
        expr, cpp, twin = node.render(marks)
        print(json.dumps({'id': 'sad-%04d' % k, 'mode': 'dynamic', 'expr': expr, 'cpp': cpp, 'op': op,
                          'nest': count_nest(node), 'ints': 'dynamic', 'twin_cpp': twin}))


if __name__ == '__main__':
    main()
