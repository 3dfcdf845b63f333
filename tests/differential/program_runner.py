#!/usr/bin/env python3
"""Compile whole CuTe programs host-only and run them: what `layoutx run` must print.

  program_runner.py emit PROGRAMS.jsonl DIR [--per-tu N]
      writes DIR/tuNNNN.cpp: N programs per translation unit, each in a namespace
      of its own with its `main` renamed (a kernel program, `__global__ void k()`
      and no main, gets a main that calls the kernel as the thread its flags name),
      and DIR/tuNNNN.map.json (program ids and the lines each spans).
  program_runner.py compile DIR [--jobs J]
      compiles each unit with g++ against $CUTLASS_DIR/include (cute_runner.py's
      compiler call); programs CuTe refuses are fenced off with #if, their g++
      reason kept, and the unit compiled again until it builds; then runs every
      program in a forked child (program_harness.hpp) and keeps its stdout and
      its exit status or signal in DIR/tuNNNN/.
  program_runner.py verify DATA_DIR [--count N]
      recompiles the seeds' and tutorial programs and N random generated ones and
      checks that CuTe still prints the stored answers (exit 77 without CUTLASS_DIR).
  program_runner.py emit-device PROGRAMS.jsonl DIR / collect-device PROGRAMS.jsonl DIR
      programs whose main launches kernels: .cu units for nvcc, run on a GPU by
      device_capture.sh; collect-device reads what it brought back.
  program_runner.py collect PROGRAMS.jsonl DIR > ANSWERS.jsonl
      one line per program: the program and its flags, and CuTe's answer:
      "stdout" (byte for byte), "exit" (0; 1 for a program the compiler refuses,
      with "reason" and "where"; 1 for one that fails at run time, with "runtime":
      "signal N" and the output it wrote before failing).

Without CUTLASS_DIR the compile step says so and exits 77 (skipped).
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cute_runner  # noqa: E402

MAIN = re.compile(r'^int\s+main\s*\(\s*(void)?\s*\)\s*\{', re.M)
KERNEL = re.compile(r'__global__\s+void\s+(\w+)\s*\(\s*\)')
FLAGS_LINE = re.compile(r'^//\s*layoutx run\s+(.*)$')
GUARDS = re.compile(r'\bcute::(thread0|thread|block0|block)\s*\(')
DEVICE_NAMES = ['threadIdx', 'blockIdx', 'blockDim', 'gridDim', 'thread', 'thread0', 'block', 'block0']


def effective_flags(prog):
    """the flags a run uses: the stored ones, else those of the file's first line"""
    if prog.get('flags'):
        return prog['flags']
    first = prog['program'].split('\n', 1)[0]
    m = FLAGS_LINE.match(first)
    return m.group(1).split() if m else []


def launch_of(flags):
    """--thread/--cta/--block/--grid -> four (x,y,z); a block or grid not given is the
    smallest that holds the thread and CTA (the programs' output never depends on it)"""
    vals = {}
    for k in range(0, len(flags) - 1, 2):
        vals[flags[k].lstrip('-')] = [int(x) for x in flags[k + 1].split(',')]

    def three(v, fill):
        return (v + [fill] * 3)[:3]
    thread = three(vals.get('thread', [0]), 0)
    cta = three(vals.get('cta', [0]), 0)
    block = three(vals['block'], 1) if 'block' in vals else [t + 1 for t in thread]
    grid = three(vals['grid'], 1) if 'grid' in vals else [c + 1 for c in cta]
    return thread, cta, block, grid


def split_program(text):
    """-> (include lines, the rest)"""
    incs, rest = [], []
    for line in text.split('\n'):
        (incs if line.lstrip().startswith('#include') else rest).append(line)
    return incs, '\n'.join(rest)


def namespaced(k, prog):
    """the program inside namespace lxpK, its main renamed lx_main (returning 0 when it
    falls off its end, as main does)"""
    incs, body = split_program(prog['program'])
    kernel = KERNEL.search(body)
    lines = ['namespace lxp%d {' % k]
    if MAIN.search(body):
        body = MAIN.sub('int lx_main() {', body, count=1)
        end = body.rstrip().rfind('}')
        body = body[:end] + '  return 0;\n' + body[end:]
        lines.append(body)
    elif kernel:
        lines += ['using lxrun::%s;' % n for n in DEVICE_NAMES]
        lines.append(GUARDS.sub(lambda m: m.group(1) + '(', body))
        lines.append('int lx_main() { %s(); return 0; }' % kernel.group(1))
    else:
        raise ValueError('%s: neither a main nor a kernel' % prog['id'])
    lines.append('}  // namespace lxp%d' % k)
    return incs, '\n'.join(lines)


def tu_text(progs):
    includes = []
    parts = []
    for k, p in enumerate(progs):
        incs, text = namespaced(k, p)
        includes += [i.strip() for i in incs if i.strip() not in includes]
        parts.append(text)
    lines = includes + ['#include "program_harness.hpp"', '']
    spans = []
    entries = []
    for k, (p, text) in enumerate(zip(progs, parts)):
        first = len(lines) + 1
        lines.append('#ifndef X%d' % k)
        lines += text.split('\n')
        lines.append('#define LX_MAIN_%d lxp%d::lx_main' % (k, k))
        lines.append('#else')
        lines.append('#define LX_MAIN_%d nullptr' % k)
        lines.append('#endif')
        spans.append([p['id'], first, len(lines), {}])
        t, c, b, g = launch_of(effective_flags(p))
        entries.append('{LX_MAIN_%d, {{%s}, {%s}, {%s}, {%s}}}' % (
            k, ','.join(map(str, t)), ','.join(map(str, c)), ','.join(map(str, b)), ','.join(map(str, g))))
    lines.append('static lxrun::Entry const entries[] = {')
    lines += ['  %s,' % e for e in entries]
    lines.append('};')
    lines.append('int main(int argc, char** argv) { return argc < 2 ? 2 : lxrun::run_all(entries, %d, argv[1]); }'
                 % len(progs))
    return '\n'.join(lines) + '\n', spans


def device_tu_text(progs):
    """programs whose main launches kernels, for nvcc: one binary, `BINARY K` runs program K"""
    includes, parts = [], []
    for k, p in enumerate(progs):
        incs, body = split_program(p['program'])
        includes += [i.strip() for i in incs if i.strip() not in includes]
        body = MAIN.sub('int lx_main() {', body, count=1)
        parts.append('namespace lxp%d {\n%s\n}  // namespace lxp%d' % (k, body, k))
    cases = ''.join('    case %d: return lxp%d::lx_main();\n' % (k, k) for k in range(len(progs)))
    return '\n'.join(includes + ['#include <cstdio>', '#include <cstdlib>', ''] + parts + [
        '// stdout unbuffered, as a terminal shows host and device output in the order written',
        'int main(int argc, char** argv) {',
        '  setvbuf(stdout, nullptr, _IONBF, 0);',
        '  switch (argc > 1 ? atoi(argv[1]) : -1) {',
        cases + '    default: return 2;',
        '  }',
        '}']) + '\n'


def emit_device(programs_file, out_dir, per_tu):
    """DIR/devNN.cu and DIR/devNN.ids (the program ids, one a line, in the order of K)"""
    os.makedirs(out_dir, exist_ok=True)
    progs = load(programs_file)
    for n, start in enumerate(range(0, len(progs), per_tu)):
        batch = progs[start:start + per_tu]
        with open(os.path.join(out_dir, 'dev%02d.cu' % n), 'w') as f:
            f.write(device_tu_text(batch))
        with open(os.path.join(out_dir, 'dev%02d.ids' % n), 'w') as f:
            f.write(''.join(p['id'] + '\n' for p in batch))
    print('%d programs in %s' % (len(progs), out_dir))


def collect_device(programs_file, out_dir):
    """DIR/devNN.ids and DIR/devNN/K.out, K.rc (what device_capture.sh wrote) -> answers"""
    progs = {p['id']: p for p in load(programs_file)}
    n = 0
    for ids in sorted(glob.glob(os.path.join(out_dir, 'dev*.ids'))):
        base = ids[:-len('.ids')]
        for k, pid in enumerate(read(ids).split()):
            rc = os.path.join(base, '%d.rc' % k)
            if not os.path.exists(rc):
                continue
            code = int(read(rc).strip())
            if code != 0:
                sys.stderr.write('%s: exit %d on the GPU, left out\n' % (pid, code))
                continue
            out = {k2: progs[pid][k2] for k2 in ('id', 'group', 'program', 'flags')}
            out.update({'stdout': read(os.path.join(base, '%d.out' % k)), 'exit': 0, 'source': 'gpu'})
            print(json.dumps(out, ensure_ascii=False))
            n += 1
    sys.stderr.write('collect-device: %d answered\n' % n)


def load(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def emit(programs_file, out_dir, per_tu):
    os.makedirs(out_dir, exist_ok=True)
    progs = load(programs_file)
    n = 0
    for start in range(0, len(progs), per_tu):
        text, spans = tu_text(progs[start:start + per_tu])
        base = os.path.join(out_dir, 'tu%04d' % n)
        with open(base + '.cpp', 'w') as f:
            f.write(text)
        with open(base + '.map.json', 'w') as f:
            json.dump(spans, f)
        n += 1
    print('%d programs, %d translation units in %s' % (len(progs), n, out_dir))


IN_PROGRAM = re.compile(r"In (?:member )?function .*\\blxp(\\d+)::")
AT_GLOBAL = re.compile(r"At global scope|In function .int main\\(int, char\\*\\*\\)")


def attribute_errors(stderr, tu, spans):
    """g++'s diagnostics -> {(program index, 'case'): (reason, where)}.  An error belongs to
    the program whose lines it is on, else to the one its context names: the lines before
    it (required from, in function lxpK::), or the notes after it (in expansion of macro)"""
    starts = [(s[1], s[2], k) for k, s in enumerate(spans)]

    def program_at(line):
        return next((k for a, b, k in starts if a <= line <= b), None)

    diags = []  # (kind, file, line, message or raw)
    for raw in stderr.splitlines():
        m = cute_runner.DIAG.match(raw)
        if m:
            rest = m.group('rest')
            kind = 'error' if rest.startswith(('error:', 'fatal error:')) else 'note'
            diags.append((kind, m.group('file'), int(m.group('line')), rest, raw))
        else:
            diags.append(('context', None, None, raw, raw))
    found = {}
    func = inst = None
    for i, (kind, f, line, rest, raw) in enumerate(diags):
        here = program_at(line) if f and os.path.basename(f) == tu else None
        if kind == 'context':
            m = IN_PROGRAM.search(raw)
            if m:
                func = int(m.group(1))
            elif AT_GLOBAL.search(raw):
                func = None
            continue
        if kind == 'note':
            if here is not None:
                inst = here
            continue
        k = here if here is not None else inst
        if k is None:
            for kind2, f2, line2, _r, _w in diags[i + 1:]:
                if kind2 == 'error':
                    break
                if f2 and os.path.basename(f2) == tu and program_at(line2) is not None:
                    k = program_at(line2)
                    break
        if k is None:
            k = func
        inst = None
        if k is None or (k, 'case') in found:
            continue
        msg = rest.split(':', 1)[1].strip()
        if msg.startswith('static assertion failed'):
            msg = msg[len('static assertion failed'):].lstrip(': ').strip() or assertion_text(f, line, diags[i + 1:], tu)
        where = f[f.rfind('cute/'):] + ':%d' % line if 'cute/' in f else 'program'
        found[(k, 'case')] = (msg, where)
    return found


def assertion_text(f, line, notes, tu):
    """a message-less static_assert: its source text (the program's own line where a macro of
    CuTe's expands to it)"""
    for kind, f2, line2, rest, _raw in notes:
        if kind == 'error':
            break
        if f2 and os.path.basename(f2) == tu and 'in expansion of macro' in rest:
            return cute_runner.source_line(f2, line2)
    return cute_runner.source_line(f, line)


def compile_tu(cutlass, base):
    """fence off what CuTe refuses, build, run: base/ holds each program's output"""
    t0 = time.time()
    src = base + '.cpp'
    with open(base + '.map.json') as f:
        spans = json.load(f)
    errors = {}
    built = False
    syntax_only = True
    rounds = 0
    while rounds < 10:
        rounds += 1
        rc, err = cute_runner.gxx(cutlass, src, base + '.bin', ['X%d' % k for k, _ in sorted(errors)], syntax_only)
        if rc == 0:
            if syntax_only:
                syntax_only = False
                continue
            built = True
            break
        new = {k: v for k, v in attribute_errors(err, os.path.basename(src), spans).items()
               if k not in errors}
        if not new:
            with open(base + '.compile.log', 'w') as f:
                f.write(err[-20000:])
            break
        errors.update(new)
    with open(base + '.errors.json', 'w') as f:
        json.dump({spans[k][0]: {'reason': r, 'where': w} for (k, _), (r, w) in errors.items()}, f)
    if built:
        os.makedirs(base, exist_ok=True)
        subprocess.run([base + '.bin', base], timeout=1200)
        os.remove(base + '.bin')
    return {'tu': os.path.basename(base), 'built': built, 'rounds': rounds, 'refused': len(errors),
            'seconds': round(time.time() - t0, 1)}


def compile_all(out_dir, jobs):
    cutlass = cute_runner.cutlass_dir()
    bases = sorted(p[:-len('.cpp')] for p in glob.glob(os.path.join(out_dir, 'tu*.cpp')))
    bases = [b for b in bases if not os.path.isdir(b) and not os.path.exists(b + '.compile.log')]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        for s in ex.map(lambda b: compile_tu(cutlass, b), bases):
            print(json.dumps(s), flush=True)


def read(path):
    with open(path, 'rb') as f:
        return f.read().decode('utf-8', 'replace')


def answers(out_dir):
    """program id -> CuTe's answer"""
    got = {}
    for mp in sorted(glob.glob(os.path.join(out_dir, 'tu*.map.json'))):
        base = mp[:-len('.map.json')]
        with open(mp) as f:
            spans = json.load(f)
        errs = {}
        if os.path.exists(base + '.errors.json'):
            with open(base + '.errors.json') as f:
                errs = json.load(f)
        for k, span in enumerate(spans):
            pid = span[0]
            if pid in errs:
                got[pid] = {'stdout': '', 'exit': 1, 'reason': errs[pid]['reason'], 'where': errs[pid]['where']}
                continue
            status = os.path.join(base, '%d.status' % k)
            if not os.path.exists(status):
                continue  # the unit did not build
            how, _, num = read(status).partition(' ')
            rec = {'stdout': read(os.path.join(base, '%d.out' % k))}
            if how == 'signal':
                if num == '14':
                    continue  # ran past the harness's time limit: no answer
                rec.update({'exit': 1, 'runtime': 'signal ' + num})
            else:
                rec['exit'] = int(num)
            got[pid] = rec
    return got


def collect(programs_file, out_dir):
    progs = load(programs_file)
    got = answers(out_dir)
    n = left = 0
    for p in progs:
        rec = got.get(p['id'])
        if rec is None:
            left += 1
            continue
        out = {k: p[k] for k in ('id', 'group', 'program', 'flags')}
        out.update(rec)
        for k in ('source', 'note'):
            if k in p:
                out[k] = p[k]
        print(json.dumps(out, ensure_ascii=False))
        n += 1
    sys.stderr.write('collect: %d answered, %d without an answer\n' % (n, left))


def verify(data_dir, count, seed, jobs):
    """recompile a sample of the stored programs (every seed and tutorial program, COUNT
    generated ones) and check that CuTe still prints the stored answers"""
    import random
    import tempfile
    cute_runner.cutlass_dir()
    progs = []
    for name in sorted(os.listdir(data_dir)):
        if name.endswith('.jsonl'):
            progs += [p for p in load(os.path.join(data_dir, name)) if p.get('source') != 'gpu']
    fixed = [p for p in progs if p['group'] in ('seeds', 'tutorial')]
    rest = [p for p in progs if p['group'] not in ('seeds', 'tutorial')]
    sample = fixed + random.Random(seed).sample(rest, min(count, len(rest)))
    with tempfile.TemporaryDirectory(prefix='cute-programs-') as work:
        path = os.path.join(work, 'programs.jsonl')
        with open(path, 'w') as f:
            f.write(''.join(json.dumps(p) + '\n' for p in sample))
        emit(path, work, 40)
        compile_all(work, jobs)
        got = answers(work)
    bad = 0
    for p in sample:
        rec = got.get(p['id'])
        if rec is None or rec['stdout'] != p['stdout'] or rec['exit'] != p['exit']:
            bad += 1
            print('%s: CuTe now answers %s' % (p['id'], 'nothing' if rec is None else
                                               'exit %d and %d bytes (stored: exit %d, %d bytes)' % (
                                                   rec['exit'], len(rec['stdout']), p['exit'], len(p['stdout']))))
    print('%d programs recompiled, %d differ from the stored answers' % (len(sample), bad))
    sys.exit(1 if bad else 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    e = sub.add_parser('emit')
    e.add_argument('programs')
    e.add_argument('dir')
    e.add_argument('--per-tu', type=int, default=40)
    c = sub.add_parser('compile')
    c.add_argument('dir')
    c.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    k = sub.add_parser('collect')
    k.add_argument('programs')
    k.add_argument('dir')
    ed = sub.add_parser('emit-device', help='programs that launch kernels: .cu units for nvcc')
    ed.add_argument('programs')
    ed.add_argument('dir')
    ed.add_argument('--per-tu', type=int, default=10)
    cd = sub.add_parser('collect-device', help='the outputs device_capture.sh brought back')
    cd.add_argument('programs')
    cd.add_argument('dir')
    v = sub.add_parser('verify', help='recompile a sample of stored programs and compare with the stored answers')
    v.add_argument('data')
    v.add_argument('--count', type=int, default=20, help='generated programs besides the seeds and tutorial ones')
    v.add_argument('--seed', type=int, default=1)
    v.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()
    if a.cmd == 'verify':
        verify(a.data, a.count, a.seed, a.jobs)
    elif a.cmd == 'emit-device':
        emit_device(a.programs, a.dir, a.per_tu)
    elif a.cmd == 'collect-device':
        collect_device(a.programs, a.dir)
    elif a.cmd == 'emit':
        emit(a.programs, a.dir, a.per_tu)
    elif a.cmd == 'compile':
        compile_all(a.dir, a.jobs)
    else:
        collect(a.programs, a.dir)


if __name__ == '__main__':
    main()
