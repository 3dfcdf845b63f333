#!/usr/bin/env python3
"""Golden linear layouts computed by Triton itself, one JSON object a line.

Run where Triton (3.6, with Gluon) and a CUDA GPU are installed:
    python3 scripts/triton/generate_golden.py > tests/data/triton/golden.jsonl
or, for some groups of cases only (see GROUPS at the end):
    python3 scripts/triton/generate_golden.py multi_cta hopper_b >> tests/data/triton/golden.jsonl

Distributed encodings (blocked, slice, nvidia_mma, dot_op) come from Triton's
own conversion, GluonOpBuilder.to_linear_layout.  That call aborts on shared
encodings, so those are measured instead: a tiny Gluon kernel stores each
element's row and column into shared memory allocated with the encoding, then
reads the allocation back as one flat array; the coordinate found at offset
2^k is the k-th offset basis, and every other offset is checked to be the XOR
of those bases.

Each line: "encoding" (the attribute as Triton prints it), "shape", and the
bases per input dimension ("register", "lane", "warp", "block", or "offset").

Cases Triton refuses are reported on stderr ("skipped ...") and written to no
golden line; tests/data/triton/refused.jsonl keeps those that are Triton's own
refusals of the layout (its verifier's message, or the fatal error it ends
with), which layoutx must refuse too. Shared layouts over several CTAs get no
golden line: Triton's conversion aborts on shared layouts and one CTA's kernel
cannot measure a cluster's layout.
"""
import dataclasses
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


def has_field(cls, name):
    return name in {f.name for f in dataclasses.fields(cls)}


def cga_bases(ctas, split, order):
    """The block bases Triton derives from CTAsPerCGA, CTASplitNum and CTAOrder:
    per dimension (CTAOrder, minor first) the split CTAs tile it, the rest repeat."""
    rank = len(ctas)
    bases = []
    for d in order:
        s = 1
        while s < split[d]:
            basis = [0] * rank
            basis[d] = s
            bases.append(basis)
            s *= 2
        r = 1
        while r < ctas[d] // split[d]:
            bases.append([0] * rank)
            r *= 2
    return bases


def with_cta(cls, *args, ctas, split, order, **kwargs):
    """A layout over several CTAs, in whichever form this Triton takes: the
    CTAsPerCGA/CTASplitNum/CTAOrder triple or the CGA layout's block bases."""
    if has_field(cls, "cga_layout"):
        kwargs["cga_layout"] = cga_bases(ctas, split, order)
    else:
        kwargs.update(ctas_per_cga=ctas, cta_split_num=split, cta_order=order)
    return cls(*args, **kwargs)


def multi_cta_layouts():
    """Distributed layouts over 2 to 8 CTAs (the block dimension)."""
    cases = []
    b = gl.BlockedLayout
    for spt, tpw, wpc, order, ctas, split, cta_order, shape in (
        ([4], [32], [4], [0], [2], [2], [0], [1024]),
        ([1], [32], [2], [0], [4], [1], [0], [256]),
        ([2], [32], [1], [0], [4], [2], [0], [512]),
        ([1, 4], [4, 8], [4, 1], [1, 0], [2, 1], [2, 1], [1, 0], [64, 32]),
        ([1, 4], [4, 8], [4, 1], [1, 0], [1, 2], [1, 2], [1, 0], [32, 64]),
        ([1, 4], [4, 8], [4, 1], [1, 0], [2, 2], [2, 2], [0, 1], [64, 64]),
        ([1, 4], [4, 8], [4, 1], [1, 0], [2, 2], [1, 2], [1, 0], [32, 64]),
        ([1, 4], [4, 8], [4, 1], [1, 0], [4, 1], [4, 1], [1, 0], [16, 32]),
        ([1, 4], [4, 8], [4, 1], [1, 0], [2, 1], [2, 1], [1, 0], [8, 32]),
        ([2, 2], [8, 4], [2, 2], [0, 1], [1, 4], [1, 2], [0, 1], [64, 128]),
        ([1, 1], [32, 1], [1, 8], [0, 1], [8, 1], [2, 1], [0, 1], [128, 128]),
        ([1, 8], [2, 16], [8, 1], [1, 0], [2, 4], [2, 4], [1, 0], [256, 256]),
        ([1, 1, 4], [1, 4, 8], [2, 2, 1], [2, 1, 0], [2, 1, 2], [2, 1, 1], [2, 1, 0], [4, 16, 32]),
        ([1, 2, 1], [2, 4, 4], [1, 1, 4], [0, 1, 2], [1, 2, 2], [1, 2, 2], [0, 1, 2], [2, 16, 64]),
    ):
        cases.append((with_cta(b, spt, tpw, wpc, order, ctas=ctas, split=split, order=cta_order), shape))
    mma = gl.NVMMADistributedLayout
    for wpc, ctas, split, cta_order, shape in (
        ([2, 2], [2, 1], [2, 1], [1, 0], [64, 64]),
        ([2, 2], [1, 2], [1, 2], [1, 0], [64, 64]),
        ([4, 1], [2, 2], [2, 1], [1, 0], [128, 64]),
        ([1, 4], [2, 2], [2, 2], [0, 1], [32, 128]),
    ):
        v2 = with_cta(mma, version=[2, 0], warps_per_cta=wpc, instr_shape=[16, 8], ctas=ctas, split=split, order=cta_order)
        cases.append((v2, shape))
        cases.append((gl.DotOperandLayout(operand_index=0, parent=v2, k_width=2), [shape[0], 32]))
        cases.append((gl.DotOperandLayout(operand_index=1, parent=v2, k_width=2), [32, shape[1]]))
        cases.append((gl.SliceLayout(0, v2), [shape[1]]))
        cases.append((gl.SliceLayout(1, v2), [shape[0]]))
    for wpc, ctas, split, shape in (([4, 1], [2, 1], [2, 1], [128, 128]), ([4, 2], [1, 2], [1, 2], [128, 256]),
                                    ([8, 1], [2, 1], [1, 1], [128, 64])):
        v3 = with_cta(mma, version=[3, 0], warps_per_cta=wpc, instr_shape=[16, 64, 16], ctas=ctas, split=split,
                      order=[1, 0])
        cases.append((v3, shape))
        cases.append((gl.DotOperandLayout(operand_index=0, parent=v3, k_width=2), [shape[0], 64]))
    for parent, shape in cases[3:12]:
        for dim in range(2):
            cases.append((gl.SliceLayout(dim, parent), shape[:dim] + shape[dim + 1:]))
    fma = with_cta(b, [2, 2], [8, 4], [2, 2], [0, 1], ctas=[2, 2], split=[2, 2], order=[1, 0])
    cases.append((gl.DotOperandLayout(operand_index=0, parent=fma, k_width=0), [64, 32]))
    cases.append((gl.DotOperandLayout(operand_index=1, parent=fma, k_width=0), [32, 64]))
    return cases


def hopper_operand_b_layouts():
    """Operand B of a Hopper MMA in registers (WGMMA reads it from shared memory)."""
    cases = []
    for wpc in ([4, 1], [8, 1], [4, 2]):
        parent = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=wpc, instr_shape=[16, 64, 16])
        for k_width, shape in ((2, [64, 64]), (4, [64, 128]), (1, [32, 64])):
            cases.append((gl.DotOperandLayout(operand_index=1, parent=parent, k_width=k_width), shape))
    return cases


def more_slice_layouts():
    """Slices of every parent kind: Hopper MMA, dot operands, slices, rank-3 MMA."""
    cases = []
    for wpc, instr, shape in (([4, 1], [16, 64, 16], [64, 128]), ([8, 1], [16, 128, 16], [128, 128]),
                              ([4, 2], [16, 32, 32], [128, 64])):
        v3 = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=wpc, instr_shape=instr)
        cases.append((gl.SliceLayout(0, v3), [shape[1]]))
        cases.append((gl.SliceLayout(1, v3), [shape[0]]))
    for wpc in ([1, 1], [2, 2], [1, 8]):
        v2 = gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=wpc, instr_shape=[16, 8])
        for op, k_width, shape in ((0, 2, [64, 32]), (1, 2, [32, 64]), (0, 4, [32, 64]), (1, 1, [16, 32])):
            dot = gl.DotOperandLayout(operand_index=op, parent=v2, k_width=k_width)
            cases.append((gl.SliceLayout(0, dot), [shape[1]]))
            cases.append((gl.SliceLayout(1, dot), [shape[0]]))
    fma = gl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])
    for op, shape in ((0, [32, 16]), (1, [16, 32])):
        dot = gl.DotOperandLayout(operand_index=op, parent=fma, k_width=0)
        cases.append((gl.SliceLayout(0, dot), [shape[1]]))
        cases.append((gl.SliceLayout(1, dot), [shape[0]]))
    for parent, shape in (
        (gl.BlockedLayout([1, 1, 4], [1, 4, 8], [2, 2, 1], [2, 1, 0]), [4, 16, 32]),
        (gl.BlockedLayout([2, 1, 2], [4, 2, 4], [8, 1, 1], [1, 2, 0]), [16, 4, 8]),
    ):
        for outer in range(3):
            inner_shape = shape[:outer] + shape[outer + 1:]
            for inner in range(2):
                cases.append((gl.SliceLayout(inner, gl.SliceLayout(outer, parent)), inner_shape[:inner] + inner_shape[inner + 1:]))
    batched = gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2, 1], instr_shape=[1, 16, 8])
    cases.append((batched, [2, 64, 64]))
    cases.append((gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 2, 2], instr_shape=[1, 16, 8]), [4, 32, 32]))
    cases.append((gl.DotOperandLayout(operand_index=0, parent=batched, k_width=2), [2, 64, 32]))
    cases.append((gl.DotOperandLayout(operand_index=1, parent=batched, k_width=2), [2, 32, 64]))
    for dim in range(3):
        shape = [2, 64, 64]
        cases.append((gl.SliceLayout(dim, batched), shape[:dim] + shape[dim + 1:]))
    return cases


def shared_ir_text(layout, shape, bits):
    """The shared attribute as Triton prints it inside a memdesc type, or None."""
    attr = layout._to_ir(BUILDER)
    ty = {8: BUILDER.get_int8_ty, 16: BUILDER.get_int16_ty, 32: BUILDER.get_int32_ty}[bits]()
    for make in ("get_shared_mem_desc_ty", "get_memdesc_ty"):
        if hasattr(BUILDER, make):
            try:
                return attribute_text(str(getattr(BUILDER, make)(ty, list(shape), attr, list(shape))))
            except Exception:
                pass
    text = str(attr)
    return text if text.startswith("#ttg.") else None


def shared_conversion_line(layout, shape, bits):
    """Triton's own conversion of a shared layout, where this Triton offers it."""
    linear = BUILDER.to_linear_layout(layout._to_ir(BUILDER), list(shape))
    offset = getattr(linear, "offset_bases", None)
    if offset is None:
        raise ValueError(f"no offset bases in {linear}")
    text = shared_ir_text(layout, shape, bits)
    if text is None:
        raise ValueError("no printed text")
    return {"encoding": text, "shape": list(shape), "element_bits": bits, "offset": offset,
            "block": getattr(linear, "block_bases", [])}


def multi_cta_shared_layouts():
    """Shared layouts over several CTAs (through Triton's conversion only: a
    kernel over a CTA cluster is not measured here)."""
    cases = []
    for ctas, split, order, shape in (([2, 1], [2, 1], [1, 0], [64, 64]), ([1, 2], [1, 2], [1, 0], [32, 128]),
                                      ([2, 2], [2, 1], [0, 1], [64, 64])):
        cases.append((with_cta(gl.SwizzledSharedLayout, 8, 1, 8, [1, 0], ctas=ctas, split=split, order=order), shape, 16))
        cases.append((with_cta(gl.NVMMASharedLayout, 128, 16, rank=2, ctas=ctas, split=split, order=order),
                      [shape[0] * 2, shape[1]], 16))
    return cases


@gluon.jit
def store_coordinates3(out, B: gl.constexpr, M: gl.constexpr, N: gl.constexpr, DTYPE: gl.constexpr,
                       SHARED: gl.constexpr, DIM: gl.constexpr):
    blocked: gl.constexpr = gl.BlockedLayout([1, 1, 1], [1, 1, 32], [4, 1, 1], [2, 1, 0])
    values = gl.zeros([B, M, N], gl.int32, blocked)
    if DIM == 0:
        i = gl.arange(0, B, layout=gl.SliceLayout(1, gl.SliceLayout(2, blocked)))
        values = values + gl.expand_dims(gl.expand_dims(i, 1), 2)
    elif DIM == 1:
        i = gl.arange(0, M, layout=gl.SliceLayout(0, gl.SliceLayout(2, blocked)))
        values = values + gl.expand_dims(gl.expand_dims(i, 0), 2)
    else:
        i = gl.arange(0, N, layout=gl.SliceLayout(0, gl.SliceLayout(1, blocked)))
        values = values + gl.expand_dims(gl.expand_dims(i, 0), 1)
    smem = gl.allocate_shared_memory(DTYPE, [B, M, N], SHARED, values.to(DTYPE))
    flat = smem._reinterpret(DTYPE, [B * M * N], gl.SwizzledSharedLayout(1, 1, 1, [0]))
    line: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    gl.store(out + gl.arange(0, B * M * N, layout=line), flat.load(line).to(gl.int32))


def shared_line3(layout, shape, bits):
    """A rank-3 shared layout measured as shared_line measures rank 2."""
    size = shape[0] * shape[1] * shape[2]
    coords = []
    text = None
    for dim in range(3):
        out = torch.empty(size, dtype=torch.int32, device="cuda")
        kernel = store_coordinates3[(1,)](out, shape[0], shape[1], shape[2], DTYPES[bits], layout, dim, num_warps=4)
        mask = (1 << bits) - 1
        coords.append([v & mask for v in out.cpu().tolist()])
        if text is None:
            text = shared_text(kernel.asm["ttgir"], layout)
    at = [tuple(coords[d][i] for d in range(3)) for i in range(size)]
    bases = [list(at[1 << k]) for k in range(size.bit_length() - 1)]
    for offset in range(size):
        want = [0, 0, 0]
        for k, basis in enumerate(bases):
            if offset >> k & 1:
                want = [w ^ x for w, x in zip(want, basis)]
        if tuple(want) != at[offset]:
            raise ValueError(f"{text} {shape}: offset {offset} is not linear")
    return {"encoding": text, "shape": list(shape), "element_bits": bits, "offset": bases, "block": []}


def rank3_shared_layouts():
    cases = []
    for swizzle, bits, shape, transposed in (
        (128, 16, [2, 64, 64], False),
        (64, 16, [4, 8, 32], False),
        (32, 8, [2, 32, 32], False),
        (128, 8, [2, 16, 128], False),
        (128, 32, [2, 8, 32], False),
        (0, 16, [2, 16, 32], False),
        (128, 16, [2, 64, 64], True),
        (64, 32, [4, 16, 16], True),
        (32, 16, [2, 32, 16], True),
    ):
        cases.append((gl.NVMMASharedLayout(swizzle, bits, rank=3, transposed=transposed), shape, bits))
    for vec, per_phase, max_phase, order, shape, bits in (
        (8, 1, 8, [2, 1, 0], [2, 32, 64], 16),
        (4, 2, 4, [1, 2, 0], [4, 32, 16], 16),
        (2, 1, 4, [0, 1, 2], [8, 8, 4], 32),
        (16, 1, 8, [2, 0, 1], [4, 2, 128], 8),
    ):
        cases.append((gl.SwizzledSharedLayout(vec, per_phase, max_phase, order), shape, bits))
    return cases


def emit_isolated(compute, what, counts):
    line, error = isolated(compute)
    if line is None:
        counts["skipped"] += 1
        print(f"skipped {what}: {error}", file=sys.stderr)
    else:
        print(line)
        counts["written"] += 1
    sys.stdout.flush()


def emit_measured(measure, what, counts):
    try:
        print(json.dumps(measure()))
        counts["written"] += 1
    except Exception as e:
        counts["skipped"] += 1
        print(f"skipped {what}: {type(e).__name__}: {str(e)[:300]}", file=sys.stderr)
    sys.stdout.flush()


# Each group: (distributed cases (layout, shape), shared cases through Triton's
# conversion, shared rank-2 cases measured, shared rank-3 cases measured).
GROUPS = {
    "distributed": lambda: (blocked_layouts() + slice_layouts() + dot_layouts() + [(l, s) for l, s, _ in mma_layouts()],
                            [], [], []),
    "shared": lambda: ([], [], shared_layouts(), []),
    "multi_cta": lambda: (multi_cta_layouts(), multi_cta_shared_layouts(), [], []),
    "hopper_b": lambda: (hopper_operand_b_layouts(), [], [], []),
    "slices": lambda: (more_slice_layouts(), [], [], []),
    "rank3_shared": lambda: ([], rank3_shared_layouts(), [], rank3_shared_layouts()),
}


def main():
    names = sys.argv[1:] or list(GROUPS)
    groups = [GROUPS[n]() for n in names]
    counts = {"written": 0, "skipped": 0}
    print(f"triton {triton.__version__}; BlockedLayout fields: {[f.name for f in dataclasses.fields(gl.BlockedLayout)]}",
          file=sys.stderr)
    # Forked children first: CUDA must not be initialised before a fork.
    for distributed, converted, _, _ in groups:
        for layout, shape in distributed:
            emit_isolated(lambda: json.dumps(distributed_line(layout, shape)), f"{layout} {shape}", counts)
        for layout, shape, bits in converted:
            emit_isolated(lambda: json.dumps(shared_conversion_line(layout, shape, bits)), f"{layout} {shape}", counts)
    for _, _, measured2, measured3 in groups:
        for layout, shape, bits in measured2:
            emit_measured(lambda: shared_line(layout, shape, bits), f"{layout} {shape}", counts)
        for layout, shape, bits in measured3:
            emit_measured(lambda: shared_line3(layout, shape, bits), f"{layout} {shape}", counts)
    print(f"triton {triton.__version__}: {counts['written']} layouts, {counts['skipped']} skipped", file=sys.stderr)


if __name__ == "__main__":
    main()
