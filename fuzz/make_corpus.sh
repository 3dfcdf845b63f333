#!/usr/bin/env bash
# Rebuild the seed corpus fuzz/corpus/ from the golden expressions: every
# error case (the refusals are where the interesting paths are), then the
# shortest expressions of each operation, up to LIMIT files (default 300).
# Files are named by the SHA-1 of their content, as libFuzzer names its own.
#   fuzz/make_corpus.sh [CASES.jsonl...]   (default: the golden cases in tests/data/golden)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
limit="${LIMIT:-300}"
if [ "$#" -eq 0 ]; then
  set -- "$here/../tests/data/golden/cases.jsonl" "$here/../tests/data/golden/dynamic_cases.jsonl"
fi
rm -rf "$here/corpus"
mkdir -p "$here/corpus"
python3 - "$here/corpus" "$limit" "$@" <<'PY'
import hashlib, json, os, sys
from collections import defaultdict

out, limit, paths = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
errors, by_op = [], defaultdict(list)
for path in paths:
    if not os.path.exists(path):
        continue
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            case = json.loads(line)
            expr = case.get('expr')
            if not expr or len(expr) > 200:
                continue
            (errors if case.get('error') else by_op[case.get('op') or '?']).append(expr)

chosen, seen = [], set()
def take(expr):
    if expr not in seen and len(chosen) < limit:
        seen.add(expr)
        chosen.append(expr)

for e in sorted(errors, key=len):
    take(e)
# Round robin over operations, shortest first, so every operation is seeded.
queues = {op: sorted(set(v), key=lambda e: (len(e), e)) for op, v in sorted(by_op.items())}
while len(chosen) < limit and any(queues.values()):
    for op in list(queues):
        if queues[op]:
            take(queues[op].pop(0))

for expr in chosen:
    data = expr.encode()
    with open(os.path.join(out, hashlib.sha1(data).hexdigest()), 'wb') as f:
        f.write(data)
print(f'{len(chosen)} seeds in {out}')
PY
