#!/usr/bin/env python3
"""The access patterns measured on the GPU, as layoutx inputs.

Each pattern is what `layoutx bank THREADS --elem-bytes N --access KIND` takes:
THREADS maps lane 0..31 to the element offset the lane accesses (the start of
its vector, or of the row it supplies to ldmatrix/stmatrix). The hand-written
list covers the cases of the bank model's documentation; the seeded random part (fixed seed, so
the file is reproducible) mixes strides, shared addresses and swizzles to
probe the hardware's rules where the documentation is silent.

  patterns.py LAYOUTX OUT_PATTERNS_TSV OUT_ADDRESSES_TSV OUT_PROBE_INPUT

writes the layout patterns (id, access, elem_bytes, threads, note), raw
address tables that probe the hardware's rules beyond what layouts express
(id, access, active lanes, byte offsets, note), and the probe program's input
(kind, active lanes, 32 byte offsets) for both, layout offsets computed by
`layoutx offsets`.
"""
import random
import subprocess
import sys

ACCESS_BYTES = {
    "ld16": 2, "ld32": 4, "ld64": 8, "ld128": 16,
    "st16": 2, "st32": 4, "st64": 8, "st128": 16,
    "ldsm1": 16, "ldsm2": 16, "ldsm4": 16, "ldsm1t": 16, "ldsm2t": 16, "ldsm4t": 16,
    "stsm1": 16, "stsm2": 16, "stsm4": 16, "stsm4t": 16,
}
SMEM_BYTES = 48 * 1024

# (access, elem_bytes, threads, note)
CLASSIC = [
    # 32-bit words
    ("ld32", 4, "32:1", "row of floats"),
    ("ld32", 4, "32:32", "column of a 32x32 float tile"),
    ("ld32", 4, "32:33", "column, rows padded by one word"),
    ("ld32", 4, "32:2", "stride 2 words"),
    ("ld32", 4, "32:4", "stride 4 words"),
    ("ld32", 4, "32:0", "all lanes one word"),
    ("ld32", 4, "(16,2):(1,0)", "half-warps read the same words"),
    ("ld32", 4, "(2,16):(0,32)", "lane pairs share a word, 16 words in one bank"),
    ("ld32", 4, "(8,4):(32,0)", "quarter-warps share, 8 words in one bank"),
    ("ld32", 4, "Sw<5,0,5> o 32:32", "column of a 32x32 tile, swizzled"),
    ("ld32", 4, "Sw<3,2,3> o 32:32", "column, 3-bit swizzle"),
    ("ld32", 2, "32:2", "16-bit elements, stride 2, 32-bit loads"),
    ("st32", 4, "32:1", "row of floats"),
    ("st32", 4, "32:32", "column of a 32x32 float tile"),
    ("st32", 4, "32:33", "column, padded"),
    ("st32", 4, "32:0", "all lanes one word"),
    ("st32", 4, "(2,16):(0,32)", "lane pairs write one word, 16 words in one bank"),
    ("st32", 4, "(16,2):(1,0)", "half-warps write the same words"),
    # 16-bit
    ("ld16", 2, "32:1", "row of halves: lane pairs share a word"),
    ("ld16", 2, "32:2", "every other half"),
    ("ld16", 2, "32:64", "column of a 32x64 half tile"),
    ("ld16", 2, "32:66", "column, padded by one word"),
    ("ld16", 2, "(2,16):(1,64)", "pairs share a word, 16 words in one bank"),
    ("ld16", 2, "32:0", "all lanes one half"),
    ("st16", 2, "32:1", "row of halves: lane pairs write one word"),
    ("st16", 2, "32:64", "column of halves"),
    ("st16", 2, "32:0", "all lanes one half"),
    ("st16", 2, "(2,16):(1,64)", "pairs write halves of one word, 16 words in one bank"),
    # 64-bit vectors
    ("ld64", 8, "32:1", "row of doubles"),
    ("ld64", 8, "32:2", "stride 16 bytes"),
    ("ld64", 8, "32:16", "column of doubles, 128-byte rows"),
    ("ld64", 8, "32:17", "column, padded by 8 bytes"),
    ("ld64", 8, "32:0", "all lanes one double"),
    ("ld64", 8, "(16,2):(1,0)", "half-warps read the same 128 bytes"),
    ("ld64", 8, "(2,16):(0,1)", "lane pairs (n, n^1) share"),
    ("ld64", 8, "(2,2,8):(1,0,2)", "lanes n and n^2 share"),
    ("ld64", 8, "(8,2,2):(1,16,8)", "each half-warp 2-way conflicted, the warp is not"),
    ("ld64", 2, "(8,4):(64,4)", "halves: 4-wide vectors down 8 rows of 128 bytes"),
    ("ld64", 2, "Sw<3,2,3> o (8,4):(64,4)", "same, swizzled"),
    ("st64", 8, "32:1", "row of doubles"),
    ("st64", 8, "32:16", "column of doubles"),
    ("st64", 8, "32:0", "all lanes one double"),
    ("st64", 8, "(16,2):(1,0)", "half-warps write the same 128 bytes"),
    ("st64", 8, "(2,16):(0,1)", "lane pairs (n, n^1) write one double"),
    ("st64", 8, "(8,2,2):(1,16,8)", "each half-warp 2-way conflicted, the warp is not"),
    # 128-bit vectors
    ("ld128", 16, "32:1", "row of 16-byte vectors"),
    ("ld128", 16, "32:0", "all lanes one vector"),
    ("ld128", 16, "(8,4):(1,0)", "quarter-warps read the same 128 bytes"),
    ("ld128", 16, "(2,16):(0,1)", "lane pairs (n, n^1) share"),
    ("ld128", 16, "(2,2,8):(1,0,2)", "lanes n and n^2 share"),
    ("ld128", 16, "(4,8):(0,1)", "lane quads share"),
    ("ld128", 16, "(8,2,2):(1,0,8)", "lanes n and n^8 share"),
    ("ld128", 16, "(16,2):(1,0)", "lanes n and n^16 share"),
    ("ld128", 16, "(8,4):(8,1)", "quarter q reads column q of 8 rows"),
    ("ld128", 16, "32:8", "column of 128-byte rows"),
    ("ld128", 16, "32:9", "column, rows padded by 16 bytes"),
    ("ld128", 2, "32:64", "halves, 128-byte rows: column"),
    ("ld128", 2, "Sw<3,3,3> o 32:64", "the swizzled 128-bit example"),
    ("ld128", 2, "Sw<3,4,3> o 32:64", "Sw<3,4,3> on 128-byte rows"),
    ("ld128", 2, "Sw<2,3,3> o 32:32", "Sw<2,3,3> on 64-byte rows"),
    ("ld128", 2, "32:32", "64-byte rows, column"),
    ("ld128", 2, "(8,4):(64,8)", "8 rows x 4 chunks, column-major"),
    ("ld128", 2, "Sw<3,3,3> o (8,4):(64,8)", "same, swizzled"),
    ("ld128", 2, "(8,4):(72,8)", "same, rows padded by 16 bytes"),
    ("st128", 16, "32:1", "row of 16-byte vectors"),
    ("st128", 16, "32:8", "column of 128-byte rows"),
    ("st128", 16, "32:0", "all lanes one vector"),
    ("st128", 16, "(2,16):(0,1)", "lane pairs write one vector"),
    ("st128", 16, "(8,4):(1,0)", "quarter-warps write the same 128 bytes"),
    ("st128", 2, "(8,4):(8,64)", "global-to-shared copy of 128-byte rows"),
    ("st128", 2, "(8,4):(64,8)", "column-major chunks"),
    ("st128", 2, "Sw<3,3,3> o (8,4):(64,8)", "column-major chunks, swizzled"),
    ("st128", 2, "Sw<3,3,3> o (8,4):(8,64)", "row copy into a swizzled tile"),
    ("st128", 2, "(8,4):(72,8)", "column-major chunks, padded rows"),
    # ldmatrix / stmatrix: THREADS is the row each lane supplies
    ("ldsm1", 2, "8:64", "8 rows of 128 bytes"),
    ("ldsm1", 2, "Sw<3,3,3> o 8:64", "swizzled rows"),
    ("ldsm1", 2, "8:8", "contiguous rows"),
    ("ldsm1", 2, "8:0", "one row eight times"),
    ("ldsm2", 2, "(8,2):(64,8)", "2 matrices side by side, 128-byte rows"),
    ("ldsm2", 2, "Sw<3,3,3> o (8,2):(64,8)", "same, swizzled"),
    ("ldsm2", 2, "(16,2):(64,0)", "x2 of a 16-row panel"),
    ("ldsm4", 2, "(16,2):(64,8)", "MMA A fragment from 128-byte rows"),
    ("ldsm4", 2, "Sw<3,3,3> o (16,2):(64,8)", "MMA A fragment, Sw<3,3,3>"),
    ("ldsm4", 2, "(16,2):(72,8)", "MMA A fragment, padded rows"),
    ("ldsm4", 2, "(16,2):(32,8)", "64-byte rows"),
    ("ldsm4", 2, "Sw<2,3,3> o (16,2):(32,8)", "64-byte rows, Sw<2,3,3>"),
    ("ldsm4", 2, "Sw<3,4,3> o (16,2):(64,8)", "Sw<3,4,3>"),
    ("ldsm4", 2, "32:8", "32 contiguous rows"),
    ("ldsm4", 2, "(8,4):(64,0)", "four copies of one matrix"),
    ("ldsm4", 2, "32:0", "one row everywhere"),
    ("ldsm4", 2, "(8,4):(8,0)", "four copies of a contiguous matrix"),
    ("ldsm4t", 2, "(16,2):(64,8)", "transposed, 128-byte rows"),
    ("ldsm4t", 2, "Sw<3,3,3> o (16,2):(64,8)", "transposed, Sw<3,3,3>"),
    ("ldsm4t", 2, "(16,2):(72,8)", "transposed, padded"),
    ("ldsm1t", 2, "8:64", "transposed x1"),
    ("ldsm2t", 2, "(8,2):(64,8)", "transposed x2"),
    ("stsm4", 2, "(16,2):(64,8)", "stmatrix, 128-byte rows"),
    ("stsm4", 2, "Sw<3,3,3> o (16,2):(64,8)", "stmatrix, Sw<3,3,3>"),
    ("stsm4", 2, "(8,4):(64,0)", "stmatrix, four copies"),
    ("stsm4t", 2, "(16,2):(64,8)", "stmatrix transposed"),
    ("stsm1", 2, "8:64", "stmatrix x1"),
    ("stsm2", 2, "Sw<3,3,3> o (8,2):(64,8)", "stmatrix x2 swizzled"),
]

RANDOM_COUNTS = {
    "ld16": 25, "ld32": 30, "st16": 15, "st32": 25, "ld64": 80, "ld128": 90, "st64": 50, "st128": 60,
    "ldsm1": 15, "ldsm2": 25, "ldsm4": 60, "ldsm4t": 15, "ldsm1t": 5, "ldsm2t": 5,
    "stsm1": 8, "stsm2": 10, "stsm4": 25, "stsm4t": 8,
}
SHAPES = ["(2,2,2,2,2)", "(4,8)", "(8,4)", "(2,16)", "(16,2)", "(4,2,4)", "(2,4,4)", "(8,2,2)", "(2,2,8)", "32"]
MULTIPLES = [0, 0, 1, 1, 1, 2, 2, 3, 4, 4, 5, 8, 8, 9, 16, 16, 17, 32, 33, 64]
# The second random set leans on stride 0 (lanes sharing an address).
RANDOM_COUNTS_SHARING = {"ld64": 60, "ld128": 70, "st64": 20, "st128": 20, "ldsm4": 20, "ld32": 15, "ld16": 10}
MULTIPLES_SHARING = [0, 0, 0, 0, 1, 1, 2, 3, 4, 8, 9, 16, 17, 32]


# Lane sharing combined with conflicts, and partial warps (THREADS of fewer
# than 32 lanes: the lanes past its size stay idle).
SHARING = [
    ("ld64", 8, "(2,16):(0,16)", "pairs share, 16 doubles in banks 0-1"),
    ("ld64", 8, "(2,16):(0,2)", "pairs share, doubles 16 bytes apart"),
    ("ld64", 8, "(2,2,8):(1,0,16)", "n and n^2 share, column of doubles"),
    ("ld64", 8, "(4,8):(0,1)", "quads share"),
    ("ld64", 8, "(2,2,8):(0,1,17)", "pairs share, padded column"),
    ("ld64", 8, "(8,4):(0,1)", "octets share"),
    ("ld64", 8, "(2,8,2):(0,1,0)", "pairs and half-warps share"),
    ("ld64", 8, "(2,2,8):(1,1,2)", "lanes 4k+1 and 4k+2 share"),
    ("ld64", 8, "16:1", "half a warp, row of doubles"),
    ("ld64", 8, "8:16", "a quarter warp, column of doubles"),
    ("ld64", 8, "24:1", "three quarters of a warp"),
    ("ld64", 8, "1:0", "one lane"),
    ("ld128", 16, "(2,16):(0,8)", "pairs share, column of 128-byte rows"),
    ("ld128", 16, "(2,16):(0,2)", "pairs share, vectors 32 bytes apart"),
    ("ld128", 16, "(2,2,8):(1,0,8)", "n and n^2 share, column"),
    ("ld128", 16, "(2,2,8):(0,1,9)", "pairs share, padded column"),
    ("ld128", 16, "(8,4):(0,1)", "octets share"),
    ("ld128", 16, "(2,8,2):(0,1,0)", "pairs and half-warps share"),
    ("ld128", 16, "(2,2,2,4):(0,1,0,2)", "n^1 and n^4 share"),
    ("ld128", 16, "(2,2,8):(1,1,2)", "lanes 4k+1 and 4k+2 share"),
    ("ld128", 2, "(2,16):(0,64)", "halves: pairs share, column of 128-byte rows"),
    ("ld128", 2, "Sw<3,3,3> o (2,16):(0,64)", "pairs share, swizzled column"),
    ("ld128", 16, "8:1", "a quarter warp"),
    ("ld128", 16, "16:1", "half a warp"),
    ("ld128", 16, "16:8", "half a warp, column"),
    ("ld128", 16, "12:1", "twelve lanes"),
    ("ld128", 16, "1:0", "one lane"),
    ("ld32", 4, "16:32", "half a warp, column"),
    ("ld32", 4, "5:1", "five lanes"),
    ("st32", 4, "16:32", "half a warp, column"),
    ("st64", 8, "(2,16):(0,16)", "pairs write one double, column"),
    ("st64", 8, "16:1", "half a warp"),
    ("st128", 16, "(2,16):(0,8)", "pairs write one vector, column"),
    ("st128", 16, "8:1", "a quarter warp"),
    ("st128", 16, "(4,8):(0,1)", "quads write one vector"),
    ("ldsm2", 2, "(8,2):(8,0)", "two copies of a contiguous matrix"),
    ("ldsm4", 2, "(2,4,4):(0,64,8)", "row pairs repeated, 4 matrices"),
    ("ldsm4", 2, "(8,2,2):(64,0,8)", "x4 with repeated matrices, 128-byte rows"),
    ("stsm4", 2, "32:0", "stmatrix, one row everywhere"),
    ("stsm4", 2, "(8,4):(8,0)", "stmatrix, four copies of a contiguous matrix"),
]


def mask_pattern(rng, slots, slot_bytes, share_mask):
    """Lanes that differ only in share_mask's bits get the same slot."""
    chosen = {}
    out = []
    for lane in range(32):
        rep = lane & ~share_mask
        if rep not in chosen:
            chosen[rep] = rng.randrange(slots)
        out.append(chosen[rep] * slot_bytes)
    return out


def raw_patterns(rng):
    """(access, active, 32 byte offsets, note): address tables no layout need
    express, probing broadcast and the lane-pair packing of vector loads."""
    out = []
    for access, count in (("ld16", 40), ("ld32", 40), ("st16", 30), ("st32", 30)):
        width = ACCESS_BYTES[access]
        for _ in range(count):
            pool = [rng.randrange(0, 4096 // width) * width for _ in range(rng.choice([1, 2, 4, 8, 16, 32, 48, 64]))]
            out.append((access, 32, [rng.choice(pool) for _ in range(32)], "random pool"))
    masks = [0, 0, 1, 2, 3, 4, 8, 16, 1 | 4, 2 | 8, 1 | 16, 3 | 4, 5, 6, 7, 24, 31]
    for access, count in (("ld64", 150), ("ld128", 150), ("st64", 50), ("st128", 50)):
        width = ACCESS_BYTES[access]
        for _ in range(count):
            mask = rng.choice(masks)
            slots = rng.choice([8, 16, 32, 64, 128, 256])
            offs = mask_pattern(rng, slots, width, mask)
            note = f"lanes sharing under mask {mask}"
            r = rng.random()
            if r < 0.2:  # break the sharing in one lane
                offs[rng.randrange(32)] = rng.randrange(slots) * width
                note += ", one lane broken"
            elif r < 0.35:  # different sharing in each half-warp
                other = mask_pattern(rng, slots, width, rng.choice(masks))
                offs = offs[:16] + other[16:]
                note = f"half-warps share differently (mask {mask} in the first)"
            out.append((access, 32, offs, note))
    for access in ("ld64", "ld128", "st64", "st128", "ld32"):
        width = ACCESS_BYTES[access]
        for _ in range(15):
            active = rng.choice([1, 3, 8, 9, 16, 17, 24, 31])
            offs = mask_pattern(rng, rng.choice([8, 32, 128]), width, rng.choice(masks))
            out.append((access, active, offs, f"{active} active lanes"))
    for access, count in (("ldsm1", 15), ("ldsm2", 30), ("ldsm4", 60), ("ldsm4t", 20), ("stsm4", 30), ("stsm2", 10)):
        for _ in range(count):
            offs = mask_pattern(rng, rng.choice([8, 16, 32, 64, 256]), 16, rng.choice(masks))
            out.append((access, 32, offs, "random rows"))
    return out


def log2(n):
    return n.bit_length() - 1


def random_pattern(rng, access, multiples):
    unit_bytes = ACCESS_BYTES[access]
    elem_choices = [e for e in (1, 2, 4, 8, 16) if e <= unit_bytes] if not access.startswith(("ldsm", "stsm")) else [2, 2, 2, 4, 1]
    eb = rng.choice(elem_choices)
    unit = unit_bytes // eb  # elements per access: strides are multiples of it
    shape = rng.choice(SHAPES)
    modes = shape.strip("()").split(",")
    strides = [str(unit * rng.choice(multiples)) for _ in modes]
    threads = f"{shape}:({','.join(strides)})" if len(modes) > 1 else f"{shape}:{strides[0]}"
    if rng.random() < 0.45:
        b = rng.choice([1, 2, 3])
        m = log2(unit) + rng.choice([0, 0, 1, 2])
        s = rng.choice([x for x in (2, 3, 4, 5) if x >= b])
        threads = f"Sw<{b},{m},{s}> o {threads}"
    return access, eb, threads, "random"


def offsets(layoutx, expr):
    text = subprocess.run([layoutx, "offsets", expr], check=True, capture_output=True, text=True).stdout
    return [int(x) for x in text.split()]


LANES_NEEDED = {"ldsm1": 8, "ldsm1t": 8, "stsm1": 8, "ldsm2": 16, "ldsm2t": 16, "stsm2": 16}


def acceptable(access, eb, offs):
    if not LANES_NEEDED.get(access, 1) <= len(offs) <= 32:
        return False
    width = ACCESS_BYTES[access]
    return all(o >= 0 and (o * eb) % width == 0 and o * eb + width <= SMEM_BYTES for o in offs)


def random_layouts(rng, layoutx, counts, multiples):
    made = []
    for access, count in counts.items():
        while sum(1 for p in made if p[0] == access) < count:
            p = random_pattern(rng, access, multiples)
            if acceptable(p[0], p[1], offsets(layoutx, p[2])):
                made.append(p)
    rng.shuffle(made)  # a run cut short still covers every kind
    return made


def main():
    layoutx, out_patterns, out_addresses, out_probe = sys.argv[1:5]
    rng = random.Random(20260701)
    patterns = list(CLASSIC)
    patterns += random_layouts(rng, layoutx, RANDOM_COUNTS, MULTIPLES)
    patterns += SHARING
    rng = random.Random(20260702)
    patterns += random_layouts(rng, layoutx, RANDOM_COUNTS_SHARING, MULTIPLES_SHARING)
    raw = raw_patterns(random.Random(20260703))
    with open(out_patterns, "w") as tsv, open(out_addresses, "w") as addresses, open(out_probe, "w") as probe:
        tsv.write("id\taccess\telem_bytes\tthreads\tnote\n")
        for i, (access, eb, threads, note) in enumerate(patterns):
            offs = offsets(layoutx, threads)
            assert acceptable(access, eb, offs), (access, eb, threads)
            lanes = [o * eb for o in offs]
            active = len(lanes)
            lanes += [0] * (32 - len(lanes))
            tsv.write(f"{i}\t{access}\t{eb}\t{threads}\t{note}\n")
            probe.write(f"{access} {active} {' '.join(map(str, lanes))}\n")
        addresses.write("id\taccess\tactive\tbyte_offsets\tnote\n")
        for i, (access, active, offs, note) in enumerate(raw, start=len(patterns)):
            addresses.write(f"{i}\t{access}\t{active}\t{','.join(map(str, offs))}\t{note}\n")
            probe.write(f"{access} {active} {' '.join(map(str, offs))}\n")


if __name__ == "__main__":
    main()
