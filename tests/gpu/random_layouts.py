#!/usr/bin/env python3
"""Random large layout expressions for `layoutx check --device` (one per line).

The layouts are the kind kernels use at scale: power-of-two modes in a random
stride order (sometimes with gaps, sometimes hierarchical), swizzled, and the
algebra's operations on them, sized 2^lo .. 2^hi points.

  random_layouts.py SEED COUNT LO HI
"""
import random
import sys


def split(r, total_bits, parts):
    """total_bits spread over `parts` modes, each at least 1 bit where possible."""
    cuts = sorted(r.randint(0, total_bits) for _ in range(parts - 1))
    bits = [b - a for a, b in zip([0] + cuts, cuts + [total_bits])]
    return [1 << b for b in bits]


def ordered_layout(r, bits, modes, gap=False, nested=False):
    shape = split(r, bits, modes)
    order = list(range(modes))
    r.shuffle(order)
    stride = [0] * modes
    cur = 1
    for i in order:
        if gap and r.random() < 0.3:
            cur *= 2
        stride[i] = cur
        cur *= shape[i]
    if nested and modes >= 4:
        # group the modes two by two: ((s0,s1),(s2,s3),...)
        s = "(" + ",".join("(%d,%d)" % (shape[i], shape[i + 1]) for i in range(0, modes - 1, 2))
        d = "(" + ",".join("(%d,%d)" % (stride[i], stride[i + 1]) for i in range(0, modes - 1, 2))
        if modes % 2:
            s += ",%d" % shape[-1]
            d += ",%d" % stride[-1]
        return s + "):" + d + ")"
    return "(%s):(%s)" % (",".join(map(str, shape)), ",".join(map(str, stride)))


def swizzle(r):
    b = r.randint(1, 3)
    m = r.randint(0, 4)
    s = r.randint(b, b + 3) * r.choice([1, -1]) if r.random() < 0.2 else r.randint(b, b + 3)
    return "Sw<%d,%d,%d>" % (b, m, s)


def expression(r, lo, hi):
    bits = r.randint(lo, hi)
    kind = r.choice(["plain", "swizzle", "coalesce", "composition", "divide", "product", "blocked", "inverse",
                     "complement"])
    L = ordered_layout(r, bits, r.randint(2, 6), gap=False, nested=r.random() < 0.4)
    if kind == "plain":
        return ordered_layout(r, bits, r.randint(1, 7), gap=r.random() < 0.5, nested=r.random() < 0.5)
    if kind == "swizzle":
        return "%s o %s" % (swizzle(r), L)
    if kind == "coalesce":
        return "%s(%s)" % (r.choice(["coalesce", "flatten"]), L)
    if kind == "composition":
        # a compact layout over L's whole domain in another order
        return "composition(%s, %s)" % (L, ordered_layout(r, bits, r.randint(1, 4)))
    if kind == "divide":
        op = r.choice(["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"])
        a = ordered_layout(r, bits, 2)
        sa = [int(x) for x in a[1:a.index(")")].split(",")]
        tile = "(%d,%d)" % (1 << r.randint(0, sa[0].bit_length() - 1), 1 << r.randint(0, sa[1].bit_length() - 1))
        if r.random() < 0.5:
            tile = ordered_layout(r, r.randint(1, bits), 2)  # one tiler layout over the whole of a
        return "%s(%s, %s)" % (op, a, tile)
    if kind == "product":
        op = r.choice(["logical_product", "blocked_product", "raked_product"])
        tb = r.randint(1, max(1, bits // 2))
        return "%s(%s, %s)" % (op, ordered_layout(r, bits - tb, 2), ordered_layout(r, tb, 2))
    if kind == "blocked":
        tb = r.randint(1, max(1, bits // 2))
        return "logical_product(%s, (%d,%d))" % (ordered_layout(r, bits - tb, 2), 1 << (tb // 2), 1 << (tb - tb // 2))
    if kind == "inverse":
        return "%s(%s)" % (r.choice(["right_inverse", "left_inverse"]), L)
    # complement: a gappy injective layout, filled up to a cotarget
    small = ordered_layout(r, max(1, bits // 2), r.randint(1, 3), gap=True)
    return "complement(%s, %d)" % (small, 1 << bits)


def main():
    seed, count, lo, hi = (int(x) for x in sys.argv[1:5])
    r = random.Random(seed)
    for _ in range(count):
        print(expression(r, lo, hi))


if __name__ == "__main__":
    main()
