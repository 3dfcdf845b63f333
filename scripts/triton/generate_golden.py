#!/usr/bin/env python3
"""Golden linear layouts computed by Triton itself, one JSON object a line.

Run where Triton (3.6, with Gluon) and a CUDA GPU are installed:
    python3 scripts/triton/generate_golden.py > tests/data/triton/golden.jsonl

Distributed encodings (blocked, slice, nvidia_mma, dot_op) come from Triton's
own conversion, GluonOpBuilder.to_linear_layout.  That call aborts on shared
encodings, so those are measured instead: a tiny Gluon kernel stores each
element's row and column into shared memory allocated with the encoding, then
reads the allocation back as one flat array; the coordinate found at offset
2^k is the k-th offset basis, and every other offset is checked to be the XOR
of those bases.

Each line: "encoding" (the attribute as Triton prints it), "shape", and the
bases per input dimension ("register", "lane", "warp", "block", or "offset").
"""
import itertools
import json
import os
import sys

import torch
import triton
from triton._C.libtriton import gluon_ir, ir
from triton.experimental import gluon
import triton.experimental.gluon.language as gl

CONTEXT = ir.context()
ir.load_dialects(CONTEXT)
BUILDER = gluon_ir.GluonOpBuilder(CONTEXT)


def attribute_text(type_text):
    """The '#ttg.' attribute inside a printed tensor or memdesc type."""
    start = type_text.index("#ttg.")
    depth = 0
    for i in range(start, len(type_text)):
        c = type_text[i]
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
            if depth == 0:
                return type_text[start:i + 1]
    raise ValueError(type_text)


def distributed_text(layout, shape):
    attr = layout._to_ir(BUILDER)
    ty = BUILDER.get_distributed_ty(BUILDER.get_half_ty(), shape, attr)
    return attribute_text(str(ty))


def ints(values):
    return "[" + ", ".join(str(v) for v in values) + "]"


def written_text(layout):
    """The attribute as Triton prints it, written from the layout's fields (used
    only where the printed type is not available)."""
    if isinstance(layout, gl.BlockedLayout):
        return (f"#ttg.blocked<{{sizePerThread = {ints(layout.size_per_thread)}, threadsPerWarp = "
                f"{ints(layout.threads_per_warp)}, warpsPerCTA = {ints(layout.warps_per_cta)}, order = {ints(layout.order)}}}>")
    if isinstance(layout, gl.SliceLayout):
        return f"#ttg.slice<{{dim = {layout.dim}, parent = {written_text(layout.parent)}}}>"
    if isinstance(layout, gl.NVMMADistributedLayout):
        major, minor = layout.version
        return (f"#ttg.nvidia_mma<{{versionMajor = {major}, versionMinor = {minor}, warpsPerCTA = "
                f"{ints(layout.warps_per_cta)}, instrShape = {ints(layout.instr_shape)}}}>")
    if isinstance(layout, gl.DotOperandLayout):
        return (f"#ttg.dot_op<{{opIdx = {layout.operand_index}, parent = {written_text(layout.parent)}, "
                f"kWidth = {layout.k_width}}}>")
    raise ValueError(f"no text for {layout}")


def power_of_two_splits(total, rank):
    """Every way to write total (a power of two) as a product of rank powers of two."""
    bits = total.bit_length() - 1
    for parts in itertools.product(range(bits + 1), repeat=rank):
        if sum(parts) == bits:
            yield [1 << p for p in parts]


def blocked_layouts():
    cases = []
    # rank 1
    for spt, warps, n in ((1, 1, 32), (4, 4, 512), (2, 8, 256), (8, 2, 64), (1, 4, 1024)):
        cases.append((gl.BlockedLayout([spt], [32], [warps], [0]), [n]))
    # rank 2
    shapes = ([16, 32], [32, 64], [64, 64], [128, 32], [8, 8], [256, 128], [2, 512])
    i = 0
    for warps in (1, 2, 4, 8):
        for tpw in power_of_two_splits(32, 2):
            for wpc in list(power_of_two_splits(warps, 2))[:2]:
                spt = [[1, 1], [1, 4], [2, 2], [4, 1], [1, 8]][i % 5]
                order = [[1, 0], [0, 1]][i % 2]
                shape = shapes[i % len(shapes)]
                cases.append((gl.BlockedLayout(spt, tpw, wpc, order), shape))
                i += 1
    # rank 3
    for spt, tpw, wpc, order, shape in (
        ([1, 1, 4], [1, 4, 8], [2, 2, 1], [2, 1, 0], [4, 16, 32]),
        ([1, 2, 1], [2, 4, 4], [1, 1, 4], [0, 1, 2], [2, 8, 64]),
        ([2, 1, 2], [4, 2, 4], [8, 1, 1], [1, 2, 0], [16, 4, 8]),
        ([1, 1, 1], [1, 1, 32], [1, 4, 1], [2, 0, 1], [1, 8, 64]),
        ([1, 4, 1], [8, 1, 4], [1, 2, 2], [0, 2, 1], [32, 32, 32]),
    ):
        cases.append((gl.BlockedLayout(spt, tpw, wpc, order), shape))
    return cases


def mma_layouts():
    """(layout, shape, element bits) for NVMMADistributedLayout v2 and v3."""
    cases = []
    for wpc in ([1, 1], [2, 1], [1, 2], [2, 2], [4, 1], [1, 4], [4, 2], [2, 4], [8, 1]):
        for shape in ([16, 8], [64, 64], [128, 32]):
            cases.append((gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=wpc, instr_shape=[16, 8]), shape, 16))
    for wpc in ([4, 1], [8, 1], [4, 2]):
        for n, bits, shape in ((64, 16, [64, 64]), (128, 16, [128, 256]), (32, 8, [64, 32]), (256, 32, [128, 256]), (16, 16, [256, 64])):
            k = 256 // bits
            cases.append((gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=wpc, instr_shape=[16, n, k]), shape, bits))
    return cases


def dot_layouts():
    cases = []
    for wpc in ([1, 1], [2, 2], [4, 1], [1, 4], [2, 4], [8, 1]):
        parent = gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=wpc, instr_shape=[16, 8])
        for k_width, k in ((2, 32), (4, 64), (1, 16), (8, 64)):
            cases.append((gl.DotOperandLayout(operand_index=0, parent=parent, k_width=k_width), [64, k]))
            cases.append((gl.DotOperandLayout(operand_index=1, parent=parent, k_width=k_width), [k, 64]))
    for wpc in ([4, 1], [8, 1], [4, 2]):
        parent = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=wpc, instr_shape=[16, 64, 16])
        for k_width, k in ((2, 64), (4, 64), (1, 32)):
            cases.append((gl.DotOperandLayout(operand_index=0, parent=parent, k_width=k_width), [128, k]))
    for parent, shape_a, shape_b in (
        (gl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0]), [32, 16], [16, 32]),
        (gl.BlockedLayout([2, 2], [8, 4], [2, 2], [0, 1]), [64, 32], [32, 64]),
    ):
        cases.append((gl.DotOperandLayout(operand_index=0, parent=parent, k_width=0), shape_a))
        cases.append((gl.DotOperandLayout(operand_index=1, parent=parent, k_width=0), shape_b))
    return cases


def slice_layouts():
    cases = []
    for parent, shape in blocked_layouts()[5:45:2]:
        rank = len(shape)
        for dim in range(rank):
            cases.append((gl.SliceLayout(dim, parent), shape[:dim] + shape[dim + 1:]))
    mma = gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8])
    cases.append((gl.SliceLayout(0, mma), [64]))
    cases.append((gl.SliceLayout(1, mma), [64]))
    return cases


def distributed_line(layout, shape):
    linear = BUILDER.to_linear_layout(layout._to_ir(BUILDER), list(shape))
    try:
        text = distributed_text(layout, list(shape))
    except Exception as e:
        print(f"no printed type ({e}); writing the text", file=sys.stderr)
        text = written_text(layout)
    return {
        "encoding": text,
        "shape": list(shape),
        "register": linear.reg_bases,
        "lane": linear.lane_bases,
        "warp": linear.warp_bases,
        "block": linear.block_bases,
    }


@gluon.jit
def store_coordinates(out, M: gl.constexpr, N: gl.constexpr, DTYPE: gl.constexpr,
                      SHARED: gl.constexpr, COLUMN: gl.constexpr):
    blocked: gl.constexpr = gl.BlockedLayout([1, 1], [1, 32], [4, 1], [1, 0])
    rows = gl.arange(0, M, layout=gl.SliceLayout(1, blocked))
    cols = gl.arange(0, N, layout=gl.SliceLayout(0, blocked))
    if COLUMN:
        values = gl.zeros([M, N], gl.int32, blocked) + cols[None, :]
    else:
        values = gl.zeros([M, N], gl.int32, blocked) + rows[:, None]
    smem = gl.allocate_shared_memory(DTYPE, [M, N], SHARED, values.to(DTYPE))
    flat = smem._reinterpret(DTYPE, [M * N], gl.SwizzledSharedLayout(1, 1, 1, [0]))
    line: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    gl.store(out + gl.arange(0, M * N, layout=line), flat.load(line).to(gl.int32))


FLAT_TEXT = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>"


def shared_text(ttgir, layout):
    """The kernel's shared encoding as Triton printed it (not the flat view's)."""
    kind = "#ttg.swizzled_shared<" if isinstance(layout, gl.SwizzledSharedLayout) else "#ttg.nvmma_shared<"
    at = 0
    while True:
        at = ttgir.index(kind, at)
        text = attribute_text(ttgir[at:])
        if text != FLAT_TEXT:
            return text
        at += 1


DTYPES = {8: gl.int8, 16: gl.int16, 32: gl.int32}


def shared_line(layout, shape, bits):
    m, n = shape
    coords = []
    text = None
    for column in (False, True):
        out = torch.empty(m * n, dtype=torch.int32, device="cuda")
        kernel = store_coordinates[(1,)](out, m, n, DTYPES[bits], layout, column, num_warps=4)
        mask = (1 << bits) - 1
        coords.append([v & mask for v in out.cpu().tolist()])
        if text is None:
            text = shared_text(kernel.asm["ttgir"], layout)
    at = [(coords[0][i], coords[1][i]) for i in range(m * n)]
    bases = [list(at[1 << k]) for k in range((m * n).bit_length() - 1)]
    for offset in range(m * n):
        r = c = 0
        for k, (br, bc) in enumerate(bases):
            if offset >> k & 1:
                r ^= br
                c ^= bc
        if (r, c) != at[offset]:
            raise ValueError(f"{text} {shape}: offset {offset} is not linear")
    return {"encoding": text, "shape": list(shape), "element_bits": bits, "offset": bases, "block": []}


def shared_layouts():
    cases = []
    for vec, per_phase, max_phase in ((1, 1, 1), (8, 1, 8), (4, 2, 4), (2, 4, 2), (8, 2, 4), (16, 1, 8), (4, 1, 16)):
        for order, shape, bits in (([1, 0], [32, 64], 16), ([0, 1], [64, 32], 16), ([1, 0], [16, 128], 8), ([1, 0], [64, 16], 32)):
            cases.append((gl.SwizzledSharedLayout(vec, per_phase, max_phase, order), shape, bits))
    for swizzle in (0, 32, 64, 128):
        for bits in (8, 16, 32):
            for transposed in (False, True):
                cols = max(8 * max(swizzle, 16) // bits, 16)
                shape = [64, cols * 2] if not transposed else [cols * 2, 64]
                cases.append((gl.NVMMASharedLayout(swizzle, bits, rank=2, transposed=transposed), shape, bits))
    return cases


def isolated(compute):
    """compute() in a forked child: Triton asserts (abort) on some invalid
    layouts, and one such case must not cost the rest.  Returns its text or None."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            text = compute()
        except Exception as e:
            text = "!" + f"{type(e).__name__}: {str(e)[:300]}"
        with os.fdopen(write, "w") as pipe:
            pipe.write(text)
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        text = pipe.read()
    _, status = os.waitpid(pid, 0)
    if status != 0:
        return None, f"child ended with status {status}"
    if text.startswith("!"):
        return None, text[1:]
    return text, None


def main():
    count = 0
    failures = 0
    distributed = blocked_layouts() + slice_layouts() + dot_layouts() + [(l, s) for l, s, _ in mma_layouts()]
    for layout, shape in distributed:
        line, error = isolated(lambda: json.dumps(distributed_line(layout, shape)))
        if line is None:
            failures += 1
            print(f"skipped {layout} {shape}: {error}", file=sys.stderr)
        else:
            print(line)
            count += 1
    sys.stdout.flush()
    for layout, shape, bits in shared_layouts():
        try:
            print(json.dumps(shared_line(layout, shape, bits)))
            count += 1
        except Exception as e:
            failures += 1
            print(f"skipped {layout} {shape}: {type(e).__name__}: {str(e)[:300]}", file=sys.stderr)
        sys.stdout.flush()
    print(f"triton {triton.__version__}: {count} layouts, {failures} skipped", file=sys.stderr)


if __name__ == "__main__":
    main()
