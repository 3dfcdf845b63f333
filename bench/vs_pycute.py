#!/usr/bin/env python3
"""layoutx's algebra through `eval -` against pycute (CUTLASS's python/pycute)
on the same expressions, each side in one process.

For every function pycute has, N varied expressions on small layouts (all
extents and strides powers of two, so that every divisibility condition CuTe
asks for holds); then 200 compositions of (1024,1024):(1024,1) with itself
and 50 chains of 20 such compositions. pycute is timed computing each result
and its text from operands built beforehand (so its parsing costs nothing);
layoutx is timed as the whole process `layoutx eval - < expressions`, parsing
and output included, the group's expressions REPEAT times over (10 by
default), less the same process given no input right before (its start-up,
which pycute's side does not pay either), per expression. Two times, medians of
RUNS runs: CPU time (user + system, of every thread), which a machine shared
with other jobs disturbs less, and wall time, what a user waits for (layoutx
evaluates the lines at hand on every core, pycute on one). The two big groups
are run 10 times over, so that their time stands well above the start-up's
noise. Ratio = pycute time / layoutx time (higher is better; the goal is >= 5).
Results are compared as text (spaces removed). JOBS=N passes --jobs N to
layoutx eval (1: one line at a time).

  PYCUTE_DIR=<directory holding the pycute package> bench/vs_pycute.py LAYOUTX [N]
"""
import os
import resource
import random
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.environ.get("PYCUTE_DIR", ""))
try:
    import pycute as cute
except ImportError:
    sys.exit("bench/vs_pycute.py: set PYCUTE_DIR to the directory that holds CUTLASS's pycute package")


def text(x):
    """CuTe's notation for an int, a tuple or a pycute Layout."""
    if isinstance(x, cute.Layout):
        return text(x.shape) + ":" + text(x.stride)
    if isinstance(x, tuple):
        return "(" + ",".join(text(e) for e in x) + ")"
    return str(x)


rng = random.Random(16)


def pow2_shape(modes, max_log=3):
    return tuple(2 ** rng.randint(1, max_log) for _ in range(modes))


def permuted_compact(modes):
    """A layout whose strides are a permutation of a compact layout's: a bijection."""
    shape = pow2_shape(modes)
    order = list(range(modes))
    rng.shuffle(order)
    stride = [0] * modes
    s = 1
    for k in order:
        stride[k] = s
        s *= shape[k]
    return cute.Layout(shape, tuple(stride))


def nested(layout):
    """Group the first two modes: depth 2."""
    if len(layout.shape) < 3:
        return layout
    return cute.Layout((layout.shape[:2],) + layout.shape[2:], (layout.stride[:2],) + layout.stride[2:])


def sub_layout(modes):
    """Some modes of a permuted compact layout, sorted by stride: an injective layout complement accepts."""
    full = permuted_compact(modes + 1)
    keep = sorted(rng.sample(range(modes + 1), modes), key=lambda k: full.stride[k])
    return cute.Layout(tuple(full.shape[k] for k in keep), tuple(full.stride[k] for k in keep))


def tiler_for(a):
    """A by-mode tiler of a 2-mode layout: each tile divides its mode."""
    return tuple(cute.Layout(min(2 ** rng.randint(0, 2), cute.size(a.shape[i])), 1) for i in range(2))


def cases(n):
    """(name, pycute call, layoutx expression) triples, n per function."""
    out = []
    for _ in range(n):
        a = permuted_compact(rng.randint(2, 4))
        b = permuted_compact(rng.randint(1, 3))
        while cute.size(b) > cute.size(a):
            b = permuted_compact(rng.randint(1, 2))
        m = cute.Layout(pow2_shape(2), (1, 0))
        m = cute.Layout(m.shape, (1, m.shape[0]))
        t = tiler_for(m)
        s = sub_layout(rng.randint(1, 3))
        tl = "(" + ",".join(text(x) for x in t) + ")"
        out += [
            ("coalesce", lambda a=a: cute.coalesce(nested(a)), f"coalesce({text(nested(a))})"),
            ("filter", lambda a=a: cute.filter(nested(a)), f"filter({text(nested(a))})"),
            ("composition", lambda a=a, b=b: cute.composition(a, b), f"composition({text(a)}, {text(b)})"),
            ("complement", lambda s=s: cute.complement(s, 256), f"complement({text(s)}, 256)"),
            ("right_inverse", lambda a=a: cute.right_inverse(a), f"right_inverse({text(a)})"),
            ("left_inverse", lambda a=a: cute.left_inverse(a), f"left_inverse({text(a)})"),
            ("logical_divide", lambda m=m, t=t: cute.logical_divide(m, t), f"logical_divide({text(m)}, {tl})"),
            ("zipped_divide", lambda m=m, t=t: cute.zipped_divide(m, t), f"zipped_divide({text(m)}, {tl})"),
            ("tiled_divide", lambda m=m, t=t: cute.tiled_divide(m, t), f"tiled_divide({text(m)}, {tl})"),
            ("logical_product", lambda s=s, b=b: cute.logical_product(s, b), f"logical_product({text(s)}, {text(b)})"),
            ("zipped_product", lambda m=m, t=t: cute.zipped_product(m, t), f"zipped_product({text(m)}, {tl})"),
            ("tiled_product", lambda m=m, t=t: cute.tiled_product(m, t), f"tiled_product({text(m)}, {tl})"),
        ]
    return out


def big_cases():
    a = cute.Layout((1024, 1024), (1024, 1))
    at = text(a)
    comp = [("200 compositions of (1024,1024):(1024,1), 10 times", lambda: cute.composition(a, a), f"composition({at}, {at})")] * 200
    chain_expr = at
    for _ in range(20):
        chain_expr = f"composition({chain_expr}, {at})"

    def chain():
        r = a
        for _ in range(20):
            r = cute.composition(r, a)
        return r

    return comp * 10, [("50 chains of 20 compositions, 10 times", chain, chain_expr)] * 500


def time_pycute(group, runs):
    cpu, wall = [], []
    answers = None
    for _ in range(runs):
        t0, w0 = time.process_time(), time.perf_counter()
        answers = [text(f()) for _, f, _ in group]
        cpu.append(time.process_time() - t0)
        wall.append(time.perf_counter() - w0)
    return statistics.median(cpu), statistics.median(wall), answers


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_layoutx(lx, path, jobs):
    """One `layoutx eval - < path`: its CPU and wall seconds, and the process's result."""
    with open(path) as stdin:
        t0, w0 = children_cpu(), time.perf_counter()
        r = subprocess.run([lx, "eval"] + jobs + ["-"], stdin=stdin, capture_output=True, text=True)
        return children_cpu() - t0, time.perf_counter() - w0, r


def time_layoutx(lx, group, runs):
    """layoutx's seconds for the group's expressions, REPEAT times over in one
    process, less its start-up: each run is paired with a run on no input right
    before it, and the medians are of the differences. A process starts in 2 to
    10 ms, as long as thousands of small expressions take: measured apart, its
    noise would swamp the expressions' time."""
    repeat = int(os.environ.get("REPEAT", "10"))
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("".join(e + "\n" for _, _, e in group) * repeat)
        path = f.name
    jobs = ["--jobs", os.environ["JOBS"]] if os.environ.get("JOBS") else []
    cpu, wall, start_cpu, start_wall = [], [], [], []
    try:
        for _ in range(runs):
            c0, w0, _ = run_layoutx(lx, os.devnull, jobs)
            c, w, r = run_layoutx(lx, path, jobs)
            if r.returncode != 0:
                sys.exit(f"layoutx eval - failed ({r.returncode}): {r.stderr[:500]}")
            cpu.append(max(c - c0, 1e-6) / repeat)
            wall.append(max(w - w0, 1e-6) / repeat)
            start_cpu.append(c0)
            start_wall.append(w0)
    finally:
        os.unlink(path)
    start = (statistics.median(start_cpu), statistics.median(start_wall))
    return statistics.median(cpu), statistics.median(wall), r.stdout.splitlines()[: len(group)], start


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    lx = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
    runs = int(os.environ.get("RUNS", "3"))
    small = cases(n)
    groups = {}
    for c in small:
        groups.setdefault(c[0], []).append(c)
    comp, chains = big_cases()
    groups[comp[0][0]] = comp
    groups[chains[0][0]] = chains
    rows, starts = [], []
    worst_cpu = worst_wall = None
    for name, group in groups.items():
        pc, pw, want = time_pycute(group, runs)
        lc, lw, got, start = time_layoutx(lx, group, runs)
        starts.append(start)
        same = sum(1 for w, g in zip(want, got) if w.replace(" ", "") == g.replace(" ", ""))
        worst_cpu = pc / lc if worst_cpu is None else min(worst_cpu, pc / lc)
        worst_wall = pw / lw if worst_wall is None else min(worst_wall, pw / lw)
        n = len(group)
        rows.append(f"| {name} | {n} | {pc / n * 1e6:.2f} us, {lc / n * 1e6:.2f} us | {pw / n * 1e6:.2f} us, "
                    f"{lw / n * 1e6:.2f} us | {pc / lc:.1f} | {pw / lw:.1f} | {same}/{n} |")
    start_cpu = statistics.median(c for c, _ in starts)
    start_wall = statistics.median(w for _, w in starts)
    print(f"layoutx start-up (eval - of no input): {start_cpu * 1e3:.1f} ms CPU, {start_wall * 1e3:.1f} ms wall, "
          f"taken off every layoutx time; layoutx reads each group {os.environ.get('REPEAT', '10')} times over\n")
    print("| expressions | count | per expression CPU: pycute, layoutx | per expression wall: pycute, layoutx "
          "| pycute / layoutx CPU | pycute / layoutx wall | same answers |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows))
    print(f"\nsmallest ratio: {worst_cpu:.1f} CPU, {worst_wall:.1f} wall (goal >= 5)")


if __name__ == "__main__":
    main()
