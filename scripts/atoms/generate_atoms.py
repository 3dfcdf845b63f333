#!/usr/bin/env python3
"""Regenerates data/atoms.jsonl and data/ATOMS.md from CuTe's own headers.

Reads every MMA_Traits / Copy_Traits specialization in
$CUTLASS_DIR/include/cute/atom/*_traits_sm*.hpp (and UniversalCopy from
copy_traits.hpp), chooses the instances to print (operations templated on
value types and tile sizes get a few representative ones), writes C++
programs that print each trait's layouts with CuTe's print, compiles them
host-only with g++ (one compiler at a time), runs them and writes:

  data/atoms.jsonl  one atom a line, the fields as CuTe printed them
  data/ATOMS.md     every specialization of those headers: in the catalogue
                    (how many instances) or not, and why not

An instance that g++ refuses (a static_assert of the operation, a trait that
needs the device) is left out with the compiler's first error as the reason.

Usage: CUTLASS_DIR=... scripts/atoms/generate_atoms.py [--work DIR] [--batch N] [--jobs N]
"""
import argparse
import collections
import concurrent.futures
import hashlib
import itertools
import json
import os
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent

# Template parameters that choose an encoding (operand majors, negation,
# saturation, sparsity selector, accumulator scale) but not the layouts: one
# fixed value each, and the catalogue name leaves them out.
NEUTRAL = {
    "GMMA::Major": "GMMA::Major::K",
    "GMMA::ScaleIn": "GMMA::ScaleIn::One",
    "GMMA::SparseSel": "GMMA::SparseSel::Zero",
    "UMMA::Major": "UMMA::Major::K",
    "UMMA::ScaleIn": "UMMA::ScaleIn::One",
    "UMMA::Saturate": "UMMA::Saturate::False",
    "uint32_t": "1",
}

# Parameters whose presence makes an operation a TMA or im2col one: their
# layouts come from make_tma_copy (a global tensor and a shared-memory box),
# not from the operation alone.
TMA_PARAMS = {"NumBitsPerTMA", "AuxParams_", "TMATensor", "OpArgs", "Args"}

# Element types for copies templated on their value type.
COPY_TYPES = ["uint8_t", "uint16_t", "uint32_t", "uint64_t", "uint128_t"]

# Value types, tile sizes and scale-factor vector sizes for the operations
# templated on them: (name pattern, [(a, b, c, sf, VS)], [M], [N]).
# Patterns are tried in order; the first that matches the base name wins.
MMA_SIZES_1SM = [64, 128]
MMA_SIZES_2SM = [128, 256]
MMA_N = [64, 128, 256]
TYPED = [
    (r"^SM100_MMA_TF32", [("tfloat32_t", "tfloat32_t", "float", None, None)]),
    (r"^SM100_MMA_F16BF16", [("half_t", "half_t", "float", None, None),
                             ("bfloat16_t", "bfloat16_t", "float", None, None)]),
    (r"^SM100_MMA_S8", [("int8_t", "int8_t", "int32_t", None, None)]),
    (r"^SM100_MMA_F8F6F4", [("float_e4m3_t", "float_e4m3_t", "float", None, None)]),
    (r"^SM100_MMA_MXF8F6F4", [("float_e4m3_t", "float_e4m3_t", "float", "float_ue8m0_t", 32)]),
    (r"^SM100_MMA_MXF4NVF4.*SPARSE", [("float_e2m1_t", "float_e2m1_t", "float", "float_ue4m3_t", 32)]),
    (r"^SM100_MMA_MXF4NVF4", [("float_e2m1_t", "float_e2m1_t", "float", "float_ue4m3_t", 16)]),
    (r"^SM100_MMA_MXF4", [("float_e2m1_t", "float_e2m1_t", "float", "float_ue8m0_t", 32)]),
    (r"^SM103_MXF4_ULTRA", [("float_e2m1_t", "float_e2m1_t", "float", "float_ue4m3_t", 16)]),
    (r"^SM120_SPARSE_16x8x128_TN_VS", [("float_e2m1_t", "float_e2m1_t", "float", "float_ue8m0_t", 32)]),
    (r"^SM120_SPARSE_16x8x64_TN_VS", [("float_e4m3_t", "float_e4m3_t", "float", "float_ue8m0_t", 32)]),
    (r"^SM120_SPARSE_16x8x64_TN$", [("float_e4m3_t", "float_e4m3_t", "float", None, None)]),
    (r"^SM120_16x8x64_TN_VS", [("float_e2m1_t", "float_e2m1_t", "float", "float_ue8m0_t", 32)]),
    (r"^SM120_16x8x32_TN_VS", [("float_e4m3_t", "float_e4m3_t", "float", "float_ue8m0_t", 32)]),
    (r"^SM120_16x8x32_TN$", [("float_e4m3_t", "float_e4m3_t", "float", None, None)]),
]


def split_top(text, sep=","):
    """Splits at `sep` outside <...> and (...)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def bracketed(text, start):
    """The text between text[start] == '<' and its matching '>', and the index after it."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "<":
            depth += 1
        elif text[i] == ">":
            depth -= 1
            if depth == 0:
                return text[start + 1:i], i + 1
    raise ValueError("unbalanced <>")


Spec = collections.namedtuple("Spec", "header kind params op")


def scan(atom_dir):
    """Every `template <...> struct MMA_Traits<OP...>` / Copy_Traits in the headers."""
    headers = sorted(atom_dir.glob("*_traits_sm*.hpp"))
    headers.insert(0, atom_dir / "copy_traits.hpp")
    specs = []
    for header in headers:
        text = re.sub(r"//[^\n]*", "", header.read_text())
        for m in re.finditer(r"template\s*<", text):
            params_text, end = bracketed(text, m.end() - 1)
            s = re.match(r"\s*struct\s+(MMA|Copy)_Traits\s*<", text[end:])
            if not s:
                continue
            args, _ = bracketed(text, end + s.end() - 1)
            op = split_top(args)[0]
            if header.name == "copy_traits.hpp" and not op.startswith("UniversalCopy"):
                continue
            params = []
            for p in split_top(params_text):
                p = p.split("=")[0].strip()
                words = p.replace("...", " ... ").split()
                params.append((" ".join(words[:-1]), words[-1]))
            specs.append(Spec(header.name, s.group(1).lower(), params, " ".join(op.split())))
    return specs


def base_name(op):
    return re.match(r"[\w:]+", op).group(0)


def typed_rows(base):
    short = base.split("::")[-1]
    for pattern, rows in TYPED:
        if re.search(pattern, short):
            return rows
    return None


def substitute(op, values):
    return re.sub(r"\b(\w+)\b", lambda m: values.get(m.group(1), m.group(1)), op)


def display(text):
    return re.sub(r"\b(cute|cutlass)::", "", text.replace(" ", ""))


# The TMA operations make_tma_copy builds a TiledCopy for (`layoutx atom OP --gmem --smem --type`).
TMA_COPIES = {"SM90_TMA_LOAD", "SM90_TMA_LOAD_MULTICAST", "SM90_TMA_STORE", "SM90_TMA_REDUCE_ADD",
              "SM100_TMA_2SM_LOAD", "SM100_TMA_2SM_LOAD_MULTICAST"}


def tma_note(op):
    """How the catalogue table covers an operation whose layouts come from a tensor and a tile."""
    made = ("TMA: its layouts come from make_tma_copy (a global tensor and a shared-memory box), not from the "
            "operation alone")
    answers = "(CuTe's answers: tests/data/atoms/tma.jsonl)"
    if op in TMA_COPIES:
        extra = (" (with one CTA CuTe refuses it: TiledCopy uses too few thrs; make_tma_copy_A/B_sm100 are not modelled)"
                 if op.startswith("SM100") and "MULTICAST" not in op else "")
        return f"{made}: `layoutx atom {op} --gmem L --smem S --type T [--multicast N]` {answers}{extra}"
    executable = re.sub(r"(_OP(::PREFETCH)?|::PREFETCH|_PTR)$", "", op)
    if executable in TMA_COPIES:
        return f"{made}: the executable form of `{executable}` (.with(...)), the same layouts: see `{executable}`"
    return f"{made}: not modelled (im2col, gather/scatter and bulk copies have their own make_* functions)"


def instances(spec):
    """[(catalogue name, C++ type)] of a specialization, or a string: why none."""
    names = {name for _, name in spec.params}
    if names & TMA_PARAMS:
        return tma_note(display(base_name(spec.op)))
    base = base_name(spec.op)
    fixed, free = {}, []
    for ptype, name in spec.params:
        if ptype == "class ...":
            fixed[name] = ""
        elif ptype in NEUTRAL:
            fixed[name] = NEUTRAL[ptype]
        else:
            free.append(name)
    if not free:
        op = re.sub(r",\s*(,|>)", r"\1", substitute(spec.op, fixed))
        return [(display(base) if fixed else display(op), op)]
    if set(free) == {"S", "D"}:
        return [(f"{display(base)}<{t}>", substitute(spec.op, dict(fixed, S=t, D=t))) for t in COPY_TYPES]
    rows = typed_rows(base)
    if rows is None:
        return "templated on " + ", ".join(free) + ": no representative instance chosen"
    two_sm = "2x1SM" in base
    sizes_m = MMA_SIZES_2SM if two_sm else MMA_SIZES_1SM
    out = []
    for (a, b, c, sf, vs), m, n in itertools.product(rows, sizes_m if "M" in free else [None],
                                                      MMA_N if "N" in free else [None]):
        values = dict(fixed, a_type=a, b_type=b, c_type=c, sf_type=sf or "", VS=str(vs), M=str(m), N=str(n),
                      ab_vtype=a)
        if not set(free) <= {"a_type", "b_type", "c_type", "sf_type", "VS", "M", "N", "ab_vtype"}:
            return "templated on " + ", ".join(free) + ": no representative instance chosen"
        op = substitute(spec.op, values)
        args = [x for x in split_top(bracketed(op, op.index("<"))[0]) if x and x not in NEUTRAL.values()]
        out.append((f"{display(base)}<{','.join(display(x) for x in args)}>", op))
    return out


def compile_and_run(batch, work, cutlass, index):
    """Prints the atoms of `batch`; returns (json lines, {name: reason}) for those g++ refuses."""
    template = (HERE / "print_traits.cpp.in").read_text()
    # A batch already printed (same atoms, same program) is not compiled again.
    key = hashlib.sha256(json.dumps([template, batch, str(cutlass)]).encode()).hexdigest()[:16]
    cache = work / f"batch_{key}.json"
    if cache.exists():
        saved = json.loads(cache.read_text())
        return saved["lines"], saved["failed"]
    lines, failed = print_batch(batch, work, cutlass, index, template)
    cache.write_text(json.dumps({"lines": lines, "failed": failed}))
    return lines, failed


def print_batch(batch, work, cutlass, index, template):
    failed = {}
    while True:
        todo = [(n, t, k) for n, t, k in batch if n not in failed]
        lines = [f'  print_{k}<{t}>("{n}");' for n, t, k in todo]
        source = template.replace("@ATOMS@", "\n".join(lines))
        first = source.splitlines().index(lines[0]) + 1 if lines else 0
        cpp = work / f"print_traits_{index}.cpp"
        exe = work / f"print_traits_{index}"
        cpp.write_text(source)
        cuda = os.environ.get("CUDA_HOME", "/usr/local/cuda")
        # The extended GMMA shapes (N not a multiple of 16 above 128...) are
        # compiled only on request.
        cmd = ["nice", "-n", "10", os.environ.get("CXX", "g++"), "-std=c++17", "-O0", "-w",
               "-DCUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED", f"-I{cutlass}/include", f"-I{cuda}/include", f"-I{cuda}/include/cccl", str(cpp), "-o", str(exe)]
        result = subprocess.run(cmd, capture_output=True, text=True)
        if result.returncode == 0:
            break
        new = blame(result.stderr, cpp.name, first, todo)
        if not new:
            sys.exit(f"g++ failed on {cpp} and no atom could be blamed:\n{result.stderr[-4000:]}")
        failed.update(new)
        print(f"  batch {index}: {len(new)} refused, retrying", file=sys.stderr)
    run = subprocess.run([str(exe)], capture_output=True, text=True, check=True)
    return run.stdout.splitlines(), failed


def blame(stderr, filename, first, todo):
    """{atom name: first error} for the atoms whose line appears in an error's context."""
    out, context = {}, []
    pattern = re.compile(re.escape(filename) + r":(\d+):")
    for line in stderr.splitlines():
        context.append(line)
        if " error: " not in line and "error:" not in line:
            continue
        message = line.split("error:", 1)[1].strip()
        for c in context:
            for m in pattern.finditer(c):
                i = int(m.group(1)) - first
                if 0 <= i < len(todo) and todo[i][0] not in out:
                    out[todo[i][0]] = message
        context = []
    return out


def profile(text):
    """The nesting of an int tuple as printed: "(_4,(_2,_2))" -> [None, [None, None]]."""
    stack = [[]]
    for token in re.findall(r"[()]|[^(),]+", text):
        if token == "(":
            stack.append([])
        elif token == ")":
            inner = stack.pop()
            stack[-1].append(inner)
        else:
            stack[-1].append(None)
    return stack[0][0]


def incongruent(entry):
    """The layouts of an entry whose shape and stride differ in structure (a malformed trait)."""
    bad = []
    for key, value in entry.items():
        if key.endswith("Layout") or key == "ThrID":
            shape, _, stride = value.partition(":")
            if profile(shape) != profile(stride):
                bad.append(f"{key} {value}")
    return bad


def arch_of(name):
    m = re.match(r"SM(\d+)", name)
    return f"SM{m.group(1)}" if m else "any"


SMEM_ATOMS_SECTION = """## Canonical shared-memory layout atoms

Not catalogue entries but values of the expression language, by CuTe's names (`cute::`,
`SM90::GMMA::` and `UMMA::` spellings too): `GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>`
(`mma_traits_sm90_gmma.hpp`), the same names under `UMMA::` and `UMMA::Layout_MN_SW128_32B_Atom<T>`
(`mma_traits_sm100.hpp`), and the sparse `..._SpAtom<T,S>` (`mma_traits_sm90_gmma_sparse.hpp`,
`mma_traits_sm100.hpp`). Each is CuTe's atom in bits, `Sw<B,4,3> o smem_ptr[1b](unset) o (8,W):(W,1)`
(K-major; MN-major transposed; W = 128, 256, 512, 1024 for INTER, SW32, SW64, SW128;
`Sw<2,5,2> o smem_ptr[1b](unset) o (1024,4):(1,1024)` for SW128_32B), upcast to T's width, which
keeps the swizzle and widens the pointer flag: `GMMA::Layout_K_SW128_Atom<half_t>` is
`Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)`. The algebra keeps the flag as CuTe's overloads
do (tile_to_shape, divides, products, slicing); `as_position_independent_swizzle_layout` gives the
element-unit swizzle that `bank` and `swizzle-search` use. Checked against CuTe by
`tests/differential/generate_smem_atoms.py` (answers in `tests/data/differential/smem_atoms.jsonl`).

"""


def write_table(path, specs, placed, refused):
    rows = []
    for spec, result in specs:
        base = display(base_name(spec.op))
        if isinstance(result, str):
            rows.append((spec.header, spec.kind, base, "no", result))
            continue
        ins = [n for n, _ in result if n in placed]
        outs = collections.defaultdict(list)
        for n, _ in result:
            if n in refused:
                outs[refused[n]].append(n)
        left_out = "; ".join(f"{', '.join(f'`{n}`' for n in names)}: {reason}" for reason, names in outs.items())
        if ins:
            note = f"{len(ins)} instance{'s' if len(ins) > 1 else ''}" if len(result) > 1 or "<" in ins[0] else ""
            if outs:
                note += ("; " if note else "") + "left out: " + left_out
            rows.append((spec.header, spec.kind, base, "yes", note))
        else:
            rows.append((spec.header, spec.kind, base, "no", left_out))
    counts = collections.Counter((arch_of(n), k) for n, k in placed.items())
    with open(path, "w") as f:
        f.write("# CuTe's atoms in the catalogue\n\n"
                "Generated by scripts/atoms/generate_atoms.py from the MMA_Traits and Copy_Traits specializations of\n"
                "CuTe's `include/cute/atom/*_traits_sm*.hpp` (and UniversalCopy from `copy_traits.hpp`). Every\n"
                "catalogue entry (data/atoms.jsonl) was printed by CuTe itself from a host-only build.\n\n"
                "Operations templated on value types and tile sizes (SM100 UMMA, SM120 block-scaled) are in the\n"
                "catalogue for a few representative instances, named with those template arguments. Template\n"
                "arguments that do not change the layouts (operand majors, negation, saturation, sparsity selector)\n"
                "are left out of the names.\n\n"
                + SMEM_ATOMS_SECTION +
                "## Catalogue entries by architecture\n\n| arch | mma | copy |\n| --- | ---: | ---: |\n")
        for arch in sorted({a for a, _ in counts}, key=lambda a: (len(a), a)):
            f.write(f"| {arch} | {counts[(arch, 'mma')]} | {counts[(arch, 'copy')]} |\n")
        f.write(f"| total | {sum(v for (a, k), v in counts.items() if k == 'mma')} | "
                f"{sum(v for (a, k), v in counts.items() if k == 'copy')} |\n\n"
                "## Every specialization\n\n| header | kind | operation | in catalogue | note |\n"
                "| --- | --- | --- | --- | --- |\n")
        for header, kind, base, yes, note in rows:
            cell = note.replace("|", "\\|")
            f.write(f"| {header} | {kind} | `{base}` | {yes} | {cell} |\n")


def check(todo, count, work, cutlass):
    """Has CuTe print `count` catalogue atoms (every k-th, one program) and compares them with the catalogue."""
    kept = {}
    for line in (REPO / "data" / "atoms.jsonl").read_text().splitlines():
        entry = json.loads(line)
        kept[entry["name"]] = entry
    listed = [t[:3] for t in todo if t[0] in kept]
    step = max(1, len(listed) // count)
    sample = listed[::step][:count]
    lines, refused = print_batch(sample, work, cutlass, "check", (HERE / "print_traits.cpp.in").read_text())
    problems = [f"{name}: CuTe now refuses it: {reason}" for name, reason in refused.items()]
    for entry in map(json.loads, lines):
        if entry != kept[entry["name"]]:
            problems.append(f"{entry['name']}: CuTe prints {entry}, the catalogue has {kept[entry['name']]}")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"atoms: {len(sample) - len(problems)} of {len(sample)} sampled atoms as CuTe prints them")
    return 1 if problems else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", default="/tmp/layoutx-atoms", help="directory for the generated programs")
    ap.add_argument("--batch", type=int, default=800, help="atoms per compiled program")
    ap.add_argument("--jobs", type=int, default=1, help="programs compiled at once (default 1)")
    ap.add_argument("--only", help="regular expression: print only the atoms whose name matches (no files written)")
    ap.add_argument("--check", type=int, metavar="N",
                    help="print N atoms spread over data/atoms.jsonl again and compare (exit 77 without CUTLASS_DIR)")
    args = ap.parse_args()
    cutlass = os.environ.get("CUTLASS_DIR")
    if not cutlass:
        print("set CUTLASS_DIR to a CUTLASS checkout", file=sys.stderr)
        sys.exit(77 if args.check else 1)
    work = pathlib.Path(args.work)
    work.mkdir(parents=True, exist_ok=True)

    specs = [(s, instances(s)) for s in scan(pathlib.Path(cutlass) / "include" / "cute" / "atom")]
    todo, seen = [], set()
    for spec, result in specs:
        if isinstance(result, str):
            continue
        for name, cpp in result:
            if name not in seen and (not args.only or re.search(args.only, name)):
                seen.add(name)
                todo.append((name, cpp, spec.kind, spec.header))
    if args.check:
        sys.exit(check(todo, args.check, work, cutlass))
    print(f"{len(specs)} specializations, {len(todo)} atoms to print", file=sys.stderr)

    printed, refused = [], {}
    # Batches never straddle headers, so that a change to one header's atoms
    # compiles only that header's programs again.
    batches = []
    for _, group in itertools.groupby(todo, key=lambda t: t[3]):
        group = [t[:3] for t in group]
        batches += [group[i:i + args.batch] for i in range(0, len(group), args.batch)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for lines, failed in pool.map(lambda ib: compile_and_run(ib[1], work, cutlass, ib[0]), enumerate(batches)):
            printed += lines
            refused.update(failed)
    if args.only:
        print("\n".join(printed))
        for n, r in refused.items():
            print(f"refused: {n}: {r}")
        return
    entries = []
    for entry in map(json.loads, printed):
        bad = incongruent(entry)
        if bad:
            refused[entry["name"]] = ("CuTe prints a layout whose stride is not congruent with its shape ("
                                      + "; ".join(bad) + "), which layoutx refuses")
        else:
            entries.append(entry)
    with open(REPO / "data" / "atoms.jsonl", "w") as f:
        for e in entries:
            f.write(json.dumps(e) + "\n")
    write_table(REPO / "data" / "ATOMS.md", specs, {e["name"]: e["kind"] for e in entries}, refused)
    print(f"{len(entries)} atoms written, {len(refused)} refused", file=sys.stderr)


if __name__ == "__main__":
    main()
