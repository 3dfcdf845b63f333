#!/usr/bin/env python3
"""Golden cases from CuTe itself, in the format of tests/data/golden/cases.jsonl.

Reads a TSV (id, source, op, layoutx expression, the same as a C++ CuTe
expression with static integers), compiles one host-only program with g++
against $CUTLASS_DIR/include (again without the cases g++ refuses), runs it and prints one JSON line per case:
CuTe's print, print_layout (rank 2), offsets, size, cosize, rank, depth, shape
and stride. A case g++ refuses (a static_assert) becomes an error case with the
assertion's message as the reason.

usage: CUTLASS_DIR=... cute_cases.py CASES.tsv > cases.jsonl
"""
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

HEADER = r"""#include <cstdio>
#include <cute/tensor.hpp>
using namespace cute;
template <class R>
void report(const char* id, R const& r) {
  std::printf("@@case=%s\n", id);
  std::printf("print=");
  print(r);
  std::printf("\n");
  if constexpr (decltype(rank(r))::value == 2) {
    std::printf("print_layout=");
    print_layout(r);
  }
  std::printf("offsets=");
  for (int i = 0; i < int(size(r)); ++i) std::printf("%d ", int(r(i)));
  std::printf("\nsize=%d\ncosize=%d\nrank=%d\ndepth=%d\n", int(size(r)), int(cosize(r)), int(rank(r)), int(depth(r)));
  std::printf("shape=");
  print(shape(r));
  std::printf("\nstride=");
  print(stride(r));
  std::printf("\n");
}
"""


def compile_cases(cutlass, cases, work):
    """{id: fields} for every case; a case g++ refuses gets its static_assert message."""
    refused = {}
    while True:
        todo = [c for c in cases if c[0] not in refused]
        lines = [f'void case_{i}() {{ report("{c[0]}", {c[4]}); }}' for i, c in enumerate(todo)]
        source = HEADER + "\n".join(lines) + "\nint main() {\n" + "".join(f"  case_{i}();\n" for i in range(len(todo))) + "}\n"
        first = HEADER.count("\n") + 1
        (work / "cases.cpp").write_text(source)
        cuda = os.environ.get("CUDA_HOME", "/usr/local/cuda")
        compiled = subprocess.run(["nice", "-n", "10", os.environ.get("CXX", "g++"), "-std=c++17", "-O0", "-w",
                                   f"-I{cutlass}/include", f"-I{cuda}/include", f"-I{cuda}/include/cccl",
                                   str(work / "cases.cpp"), "-o", str(work / "cases")], capture_output=True, text=True)
        if compiled.returncode == 0:
            break
        blamed = blame(compiled.stderr, first, todo)
        if not blamed:
            sys.exit(f"g++ failed and no case could be blamed:\n{compiled.stderr[-3000:]}")
        refused.update(blamed)
    out = subprocess.run([str(work / "cases")], capture_output=True, text=True, check=True).stdout
    results = {case_id: {"error": True, "reason": reason} for case_id, reason in refused.items()}
    for chunk in out.split("@@case=")[1:]:
        case_id, _, body = chunk.partition("\n")
        results[case_id] = parse_fields(body)
    return results


def blame(stderr, first, todo):
    """{case id: static_assert message} for the cases whose line an error's context names."""
    out, context = {}, []
    for line in stderr.splitlines():
        context.append(line)
        if "error:" not in line:
            continue
        m = re.search(r"static assertion failed(?:: (.*))?", line)
        message = (m.group(1) or "static assertion failed").strip() if m else None
        for c in context:
            for n in re.finditer(r"cases\.cpp:(\d+):", c):
                i = int(n.group(1)) - first
                if 0 <= i < len(todo) and todo[i][0] not in out:
                    if message is None:
                        sys.exit(f"g++ refused {todo[i][4]} without a static_assert:\n{line}")
                    out[todo[i][0]] = message
        context = []
    return out


def parse_fields(body):
    fields, key = {}, None
    for line in body.splitlines(keepends=True):
        m = re.match(r"(print|print_layout|offsets|size|cosize|rank|depth|shape|stride)=", line)
        if m:
            key = m.group(1)
            fields[key] = line[m.end():]
        else:
            fields[key] += line
    return {"error": False, "reason": None, "print": fields["print"].strip(), "print_layout": fields.get("print_layout"),
            "offsets": [int(x) for x in fields["offsets"].split()], "size": int(fields["size"]),
            "cosize": int(fields["cosize"]), "rank": int(fields["rank"]), "depth": int(fields["depth"]),
            "shape": fields["shape"].strip(), "stride": fields["stride"].strip()}


def main():
    if len(sys.argv) != 2 or "CUTLASS_DIR" not in os.environ:
        sys.exit(__doc__)
    rows = [line.split("\t") for line in pathlib.Path(sys.argv[1]).read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    with tempfile.TemporaryDirectory() as tmp:
        results = compile_cases(os.environ["CUTLASS_DIR"], rows, pathlib.Path(tmp))
        for case_id, source, op, expr, cpp in rows:
            result = results[case_id]
            case = {"id": case_id, "source": source, "expr": expr, "cpp": cpp, "kind": "layout"}
            empty = {k: None for k in ("print", "print_layout", "offsets", "size", "cosize", "rank", "depth")}
            case.update(empty)
            case.update({k: v for k, v in result.items() if k in empty or k in ("error", "reason")})
            case.update({"op": op, "nest": 0, "shape": result.get("shape"), "stride": result.get("stride")})
            print(json.dumps(case))


if __name__ == "__main__":
    main()
