#!/usr/bin/env python3
"""The server's API against the command line on the golden cases: for every
case, /api/evaluate's text is `layoutx eval`'s stdout (and CuTe's print), a
refused expression's error is `layoutx eval`'s stderr with status 400;
/api/grid's text is `layoutx print`'s (and CuTe's print_layout);
/api/offsets's is `layoutx offsets`'s; /api/info's is `layoutx info`'s;
grid?picture=grid's numbers (the page's while typing) are CuTe's offsets and
the whole picture's cells; /api/partition's text and JSON are `layoutx
partition`'s (and with --json)
for the cases of the tables given with --partition (the first column of a
row that is a JSON array is the command line). Then what the server refuses:
paths outside its page, unknown calls, oversized requests.
Usage: check_api.py LAYOUTX CASES.jsonl [--jobs N] [--partition TSV]..."""
import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_cases import load_cases, run_batch, unmark  # noqa: E402
from server import Server, raw_request  # noqa: E402

# (API call, command, which cases)
CHECKS = [
    ("evaluate", "eval", lambda c: True),
    ("grid", "print", lambda c: c.get("print_layout") is not None),
    ("offsets", "offsets", lambda c: c.get("offsets") is not None and len(c["offsets"]) <= 4096),
    ("info", "info", lambda c: c["kind"] in ("layout", "composed") and not c.get("error")),
]


def compare(server, call, case, cli):
    """A failure's description, or None."""
    rc, out, err, fail = cli
    if fail:
        return "the command line failed: " + fail
    status, answer = server.api(call, expr=case["expr"])
    if rc == 0:
        if status != 200:
            return "status %d (%s), the command line answered %r" % (status, answer.get("error"), out)
        if answer["text"] != out:
            return "text %r, the command line's %r" % (answer["text"], out)
        golden = {"evaluate": unmark(case.get("print")), "grid": unmark(case.get("print_layout"))}.get(call)
        if golden is not None and answer["text"].rstrip("\n") != golden.rstrip("\n"):
            return "text %r, CuTe's %r" % (answer["text"], golden)
        if call == "offsets" and [int(x) for x in answer["text"].split()] != case["offsets"]:
            return "offsets differ from CuTe's"
        return None
    if status != 400:
        return "status %d, the command line refused it: %r" % (status, err)
    if answer["error"] != err:
        return "error %r, the command line's %r" % (answer["error"], err)
    return None


# partition's options and the API's parameters; a picture or a file is not the API's.
PARTITION_PARAMS = {"--mma": "mma", "--atoms": "atoms", "--permute": "permute", "--copy": "copy", "--thr": "thr",
                    "--val": "val", "--operand": "operand", "--elem-bits": "bits", "--bits": "bits", "--tile": "tile",
                    "--tile-coord": "tile_coord", "--problem": "problem", "--thread": "thread", "-t": "thread",
                    "--owner": "owner"}
NOT_API = {"-f", "--format", "--json", "-o", "--output", "--max-picture-cells"}


def partition_cases(paths):
    """(id, global options, argv) of every partition row the API can be asked."""
    cases = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                fields = line.rstrip("\n").split("\t")
                argv = next((json.loads(x) for x in fields if x.startswith("[")), None)
                if not argv or "partition" not in argv or NOT_API & set(argv):
                    continue
                at = argv.index("partition")
                cases.append(("%s:%s" % (os.path.basename(path), fields[0]), tuple(argv[:at]), argv[at:]))
    return cases


def partition_params(argv):
    """The API's parameters for `layoutx partition ...` (argv from "partition" on)."""
    params, args = {}, argv[1:]
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--elem-bytes":
            params["bits"] = str(8 * int(args[i + 1]))
        elif a in PARTITION_PARAMS:
            params[PARTITION_PARAMS[a]] = args[i + 1]
        else:
            params["tensor"] = a
            i -= 1
        i += 2
    return params


def compare_partition(layoutx, server, case):
    """A failure's description, or None."""
    _, globals_, argv = case
    text = subprocess.run([layoutx, *globals_, *argv], capture_output=True, text=True)
    status, answer = server.api("partition", **partition_params(argv))
    if text.returncode != 0:
        if status != 400 or answer.get("error") != text.stderr:
            return "status %d, error %r; the command line refused it: %r" % (status, answer.get("error"), text.stderr)
        return None
    if status != 200:
        return "status %d (%s), the command line answered" % (status, answer.get("error"))
    if answer["text"] != text.stdout:
        return "text %r, the command line's %r" % (answer["text"], text.stdout)
    as_json = subprocess.run([layoutx, *globals_, *argv, "--json"], capture_output=True, text=True)
    if answer["partition"] != json.loads(as_json.stdout):
        return "JSON differs from the command line's --json"
    return None


def compare_grid_numbers(server, case):
    """grid?picture=grid's numbers (what the page draws while typing) against CuTe's offsets
    and the whole picture's cells: a failure's description, or None."""
    status, answer = server.api("grid", expr=case["expr"], text="0", picture="grid")
    full_status, full = server.api("grid", expr=case["expr"], text="0")
    if status != full_status:
        return "status %d, the whole picture's %d" % (status, full_status)
    if status != 200:
        return None
    panel, cells = answer["picture"]["panels"][0], full["picture"]["panels"][0]["cells"]
    grid, rows, cols = panel["grid"], panel["rows"], panel["cols"]
    by_index = [None] * (rows * cols)
    for k, offset in enumerate(grid["offset"]):
        by_index[k // cols + rows * (k % cols)] = offset
    if by_index != case["offsets"]:
        return "offsets by index %s, CuTe's %s" % (by_index[:8], case["offsets"][:8])
    drawn = [[c[7], c[4], c[5], c[8]] for c in cells]
    numbers = [[o, grid["fills"][f][0], grid["fills"][f][1], b] for o, f, b in zip(grid["offset"], grid["fill"], grid["bank"])]
    if drawn != numbers:
        return "the numbers differ from the whole picture's cells"
    return None


def refusals(server):
    """What the server must refuse, and how."""
    problems = []

    def expect(what, got, want):
        if got != want:
            problems.append("%s: got %r, want %r" % (what, got, want))

    status, headers, body = server.get("/")
    expect("GET / status", status, 200)
    expect("GET / is the page", b"<title>layoutx explorer</title>" in body, True)
    expect("GET / keeps to its own scripts", "default-src 'self'" in headers.get("Content-Security-Policy", ""), True)
    for path in ("/app.js", "/style.css"):
        expect("GET " + path, server.get(path)[0], 200)
    for path in ("/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/etc/passwd", "/web/app.js", "/CMakeLists.txt",
                 "/api/../app.js"):
        status, _, body = server.get(path)
        expect("GET " + path + " status", status in (400, 404), True)
        expect("GET " + path + " shows no file", b"root:" in body or b"cmake_minimum" in body, False)
    expect("GET /../etc/passwd raw", raw_request(server.url, b"GET /../../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n")
           .split(" ")[1] in ("400", "404"), True)
    status, answer = server.api("nosuch", expr="1")
    expect("unknown call", status, 404)
    status, answer = server.api("evaluate")
    expect("missing expression", (status, answer.get("message")), (400, "the parameter 'expr' is missing"))
    status, answer = server.api("evaluate", expr="(4,3):(3,1")
    expect("caret error status", status, 400)
    expect("caret error offset", answer.get("offset"), 10)
    status, answer = server.api("evaluate", expr="coalesse((4,3))")
    expect("did you mean", "did you mean 'coalesce'?" in answer.get("error", ""), True)
    status, answer = server.api("evaluate", expr="(" * 300 + "1" + ")" * 300)
    expect("too deep", status, 400)
    status = raw_request(server.url, b"POST /api/evaluate HTTP/1.1\r\nHost: x\r\nContent-Type: "
                         b"application/x-www-form-urlencoded\r\nContent-Length: 5000000\r\n\r\nexpr=1")
    expect("a body over the limit", status.split(" ")[1], "413")
    status, answer = server.api("grid", expr="(1024,1024):(1,1024)")
    expect("a picture over the limit", (status, "serve --max-picture-cells" in answer.get("error", "")), (400, True))
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("layoutx")
    ap.add_argument("cases")
    ap.add_argument("--jobs", type=int, default=4)
    ap.add_argument("--partition", action="append", default=[])
    args = ap.parse_args()
    cases = load_cases(args.cases, None)
    failures, counts = [], {}
    with Server(args.layoutx) as server:
        for call, command, wanted in CHECKS:
            chosen = [c for c in cases if wanted(c)]
            cli = run_batch(args.layoutx, command, [c["expr"] for c in chosen])
            with ThreadPoolExecutor(args.jobs) as pool:
                results = list(pool.map(lambda pair: compare(server, call, *pair), zip(chosen, cli)))
            counts[call] = len(chosen)
            failures += ["%s %s (%s): %s" % (call, c["id"], c["expr"], r) for c, r in zip(chosen, results) if r]
        chosen = [c for c in cases if c.get("offsets") is not None and len(c["offsets"]) <= 4096 and c["kind"] in ("layout", "composed")]
        with ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(lambda c: compare_grid_numbers(server, c), chosen))
        counts["grid numbers"] = len(chosen)
        failures += ["grid numbers %s (%s): %s" % (c["id"], c["expr"], r) for c, r in zip(chosen, results) if r]
        failures += ["refusal: " + p for p in refusals(server)]
        if not server.alive():
            failures.append("the server ended")
    # partition, on a server started with each group of cases' global options (--dynamic)
    by_options = {}
    for case in partition_cases(args.partition):
        by_options.setdefault(case[1], []).append(case)
    counts["partition"] = sum(len(group) for group in by_options.values())
    for options, group in by_options.items():
        with Server(args.layoutx, before=options) as server:
            with ThreadPoolExecutor(args.jobs) as pool:
                results = list(pool.map(lambda case: compare_partition(args.layoutx, server, case), group))
            failures += ["partition %s: %s" % (c[0], r) for c, r in zip(group, results) if r]
            if not server.alive():
                failures.append("the server ended")
    for f in failures[:20]:
        print(f)
    print(", ".join("%s %d" % kv for kv in counts.items()) + " cases; %d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
