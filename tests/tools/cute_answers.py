#!/usr/bin/env python3
"""Fill in CuTe's own answers for a table of regression cases (JSON Lines).

Each case names a layoutx expression (`expr`, evaluated `--dynamic` when
`dynamic` is true) and the same computation as C++ CuTe (`cpp`: an expression
whose value CuTe's `print` writes). This tool compiles every `cpp` host-only
with g++ against the CuTe headers of the CUTLASS checkout named by the
environment variable CUTLASS_DIR, runs it, and writes CuTe's answer back:

  print   CuTe's print text of the value (static marks `_` included), or null
  error   true when CuTe refuses it (a static_assert or another compile error,
          or the program dying at run time)

The `warns` field (whether layoutx adds a warning on stderr) is layoutx's own
policy and is left as it is.

    CUTLASS_DIR=... python3 tests/tools/cute_answers.py tests/data/cute_regressions.jsonl
    CUTLASS_DIR=... python3 tests/tools/cute_answers.py FILE --check   only report differences

Cases compile in batches; a batch that fails to compile is recompiled without
the lines g++ names until the rest compiles, so each refused case is found.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HEADER = "#include <cute/tensor.hpp>\n#include <cstdio>\n#include <cstdlib>\nusing namespace cute;\n"


def includes(cutlass_dir):
    cuda = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    return ["-I" + os.path.join(cutlass_dir, "include"), "-I" + os.path.join(cuda, "include"),
            "-I" + os.path.join(cuda, "include", "cccl")]


def program(bodies):
    text = HEADER
    first = text.count("\n") + 1
    for k, body in enumerate(bodies):
        text += f"void case{k}() {{ auto r = {body}; print(r); printf(\"\\n\"); }}\n"
    text += "int main(int, char** argv) {\n  switch (std::atoi(argv[1])) {\n"
    text += "".join(f"    case {k}: case{k}(); break;\n" for k in range(len(bodies)))
    text += "  }\n}\n"
    return text, first


def compile_batch(bodies, flags, workdir):
    """Returns (binary or None, the indices of the bodies g++ refused)."""
    source = os.path.join(workdir, "cases.cpp")
    binary = os.path.join(workdir, "cases")
    text, first = program(bodies)
    with open(source, "w") as f:
        f.write(text)
    r = subprocess.run(["g++", "-std=c++17", "-O0", "-w", "-fmax-errors=100000", *flags, source, "-o", binary],
                       capture_output=True, text=True)
    if r.returncode == 0:
        return binary, set()
    pattern = re.escape(source) + r":(\d+):\d+:"  # every diagnostic that names a line of a case
    refused = {int(m.group(1)) - first for m in re.finditer(pattern, r.stderr)}
    refused = {k for k in refused if 0 <= k < len(bodies)}
    if not refused:
        sys.exit("cute_answers.py: g++ failed outside the cases:\n" + r.stderr[:4000])
    return None, refused


def cute_answers(cases, flags, batch):
    answers = {}
    with tempfile.TemporaryDirectory() as workdir:
        for start in range(0, len(cases), batch):
            pending = list(range(start, min(start + batch, len(cases))))
            while pending:
                binary, refused = compile_batch([cases[i]["cpp"] for i in pending], flags, workdir)
                if binary is None:
                    for k in refused:
                        answers[pending[k]] = (None, True)
                    pending = [i for k, i in enumerate(pending) if k not in refused]
                    continue
                for k, i in enumerate(pending):
                    r = subprocess.run([binary, str(k)], capture_output=True, text=True, timeout=60)
                    answers[i] = (r.stdout.rstrip("\n"), False) if r.returncode == 0 else (None, True)
                pending = []
    return answers


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases")
    ap.add_argument("--check", action="store_true", help="report differences, change nothing")
    ap.add_argument("--batch", type=int, default=40)
    args = ap.parse_args()
    cutlass_dir = os.environ.get("CUTLASS_DIR")
    if not cutlass_dir:
        sys.exit("cute_answers.py: set CUTLASS_DIR to a CUTLASS checkout")
    with open(args.cases) as f:
        cases = [json.loads(line) for line in f if line.strip()]
    answers = cute_answers(cases, includes(cutlass_dir), args.batch)
    changed = 0
    for i, c in enumerate(cases):
        printed, error = answers[i]
        if c.get("print") != printed or c.get("error") != error:
            changed += 1
            print(f"{c['id']}: {c['expr']}: was {c.get('print')!r} error={c.get('error')}, "
                  f"CuTe: {printed!r} error={error}")
            c["print"], c["error"] = printed, error
    if not args.check:
        with open(args.cases, "w") as f:
            f.writelines(json.dumps(c) + "\n" for c in cases)
    print(f"{len(cases)} cases, {changed} {'differ' if args.check else 'updated'}")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
