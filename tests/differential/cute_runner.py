#!/usr/bin/env python3
"""Compile and run CuTe C++ for generated cases; collect CuTe's answers.

  cute_runner.py emit CASES.jsonl DIR [--per-tu N]
      writes DIR/tuNNNN.cpp (N cases each, one function per case) and
      DIR/tuNNNN.map.json (case ids, the lines each case's function spans and
      the lines of its cosize and evaluation parts).
      Dynamic cases also get their all-static twin compiled (id + "~twin").
  cute_runner.py compile DIR [--jobs J]
      compiles every TU host-only with g++ against $CUTLASS_DIR/include, finds
      which cases CuTe refuses (g++'s diagnostics name the case's lines; the
      refused cases are fenced off with #if and the TU compiled again until it
      builds; a case whose value builds and prints but whose cosize or
      evaluation L(i) does not compile keeps its print and has only that part
      fenced off), runs it and writes DIR/tuNNNN.out (the program's output) and
      DIR/tuNNNN.errors.json (refused case -> reason, where; a case refused only
      in parts -> {"parts": {part: {reason, where}}}).
  cute_runner.py collect CASES.jsonl DIR > ANSWERS.jsonl
      CuTe's answers in the golden-case format (see the README).
  cute_runner.py verify DATA.jsonl... [--count N]
      recompiles the pinned cases and N random stored cases and checks that CuTe
      still gives the stored answers (the runner end to end; exit 77 without CUTLASS_DIR).

Without CUTLASS_DIR the compile step says so and exits 77 (skipped).  CuTe's
headers need CUDA's host headers: $CUDA_DIR/include (default /usr/local/cuda).
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


# ----------------------------------------------------------------------------
# emit

# Parts of a case that CuTe may refuse on their own, after building and printing
# the value: part -> (the macro that fences it off, the harness function).
PARTS = {'cosize': ('Z', 'report_cosize'), 'evaluation': ('Y', 'report_values')}


def tu_text(cases):
    lines = ['#include "harness.hpp"', '']
    if any('make_tiled_' in c['cpp'] for c in cases):
        lines.insert(0, '#define DIFFX_ATOMS 1')
    spans = []
    for k, c in enumerate(cases):
        first = len(lines) + 1
        lines.append('static void c%d() {' % k)
        lines.append('#ifndef X%d' % k)
        lines.append('  auto r = %s;' % c['cpp'])
        lines.append('  diffx::report(r);')
        part_lines = {}
        for part, (macro, call) in PARTS.items():
            lines.append('#ifndef %s%d' % (macro, k))
            lines.append('  diffx::%s(r);' % call)
            part_lines[part] = len(lines)
            lines.append('#endif')
        lines.append('#endif')
        lines.append('}')
        spans.append([c['id'], first, len(lines), part_lines])
    lines.append('static diffx::CaseFn const cases[] = {%s};' % ', '.join('c%d' % k for k in range(len(cases))))
    lines.append('int main() { return diffx::run_all(cases, %d); }' % len(cases))
    return '\n'.join(lines) + '\n', spans


def units(cases):
    """every C++ expression to compile: the case, and for dynamic cases the static twin"""
    for c in cases:
        yield {'id': c['id'], 'cpp': c['cpp']}
        if c.get('twin_cpp') and c['twin_cpp'] != c['cpp']:
            yield {'id': c['id'] + '~twin', 'cpp': c['twin_cpp']}


def emit(cases_file, out_dir, per_tu):
    os.makedirs(out_dir, exist_ok=True)
    with open(cases_file) as f:
        cases = [json.loads(l) for l in f if l.strip()]
    us = list(units(cases))
    n = 0
    for start in range(0, len(us), per_tu):
        batch = us[start:start + per_tu]
        text, spans = tu_text(batch)
        base = os.path.join(out_dir, 'tu%04d' % n)
        with open(base + '.cpp', 'w') as f:
            f.write(text)
        with open(base + '.map.json', 'w') as f:
            json.dump(spans, f)
        n += 1
    print('%d cases, %d C++ expressions, %d translation units in %s' % (len(cases), len(us), n, out_dir))


# ----------------------------------------------------------------------------
# compile

DIAG = re.compile(r'^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+):\s+(?P<rest>.*)$')
IN_FUNCTION = re.compile(r"In function 'void c(\d+)\(\)'")


def attribute_errors(stderr, tu_name, spans):
    """g++ diagnostics -> {(case index, part): (reason, where)} for the cases they belong
    to; part is one of PARTS when the error comes from that part's line (the value
    builds and prints), else 'case'"""
    starts = [(s[1], s[2], k, s[3] if len(s) > 3 else {}) for k, s in enumerate(spans)]

    def case_at(line):
        for a, b, k, parts in starts:
            if a <= line <= b:
                return (k, next((p for p, at in parts.items() if at == line), 'case'))
        return None

    found = {}
    pending = None
    for raw in stderr.splitlines():
        m = IN_FUNCTION.search(raw)
        if m and os.path.basename(raw.split(':')[0]) == tu_name:
            pending = (int(m.group(1)), 'case')
            continue
        m = DIAG.match(raw)
        if not m:
            continue
        here = case_at(int(m.group('line'))) if os.path.basename(m.group('file')) == tu_name else None
        rest = m.group('rest')
        if rest.startswith('error:') or rest.startswith('fatal error:'):
            k = here if here is not None else pending
            if k is None:
                continue
            if k not in found:
                msg = rest.split(':', 1)[1].strip()
                f = m.group('file')
                if msg.startswith('static assertion failed'):
                    msg = msg[len('static assertion failed'):].lstrip(': ').strip() or source_line(f, int(m.group('line')))
                where = f[f.rfind('cute/'):] + ':' + m.group('line') if 'cute/' in f else os.path.basename(f) + ':' + m.group('line')
                found[k] = (msg, where)
        elif here is not None:
            pending = here
    return found


def source_line(path, n):
    """the text of a message-less static_assert, as the golden cases spell it"""
    try:
        with open(path) as f:
            text = f.read().split('\n')[n - 1].strip()
    except (OSError, IndexError):
        return 'static assertion failed'
    return text.rstrip(';') if text.startswith(('static_assert', 'CUTE_STATIC_ASSERT')) else 'static assertion failed'


def gxx(cutlass, src, out, defines, syntax_only):
    cmd = ['g++', '-std=c++17', '-O0', '-w', '-fmax-errors=0', '-I' + HERE, '-I' + os.path.join(cutlass, 'include')]
    cuda = os.environ.get('CUDA_DIR', '/usr/local/cuda')
    for inc in (os.path.join(cuda, 'include'), os.path.join(cuda, 'include', 'cccl')):
        if os.path.isdir(inc):
            cmd.append('-I' + inc)
    cmd += ['-D' + d for d in defines]
    cmd += ['-fsyntax-only', src] if syntax_only else [src, '-o', out]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=540)
        return p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        return -1, 'compile timed out'


def compile_tu(cutlass, base):
    """-> summary dict; writes base.out and base.errors.json"""
    t0 = time.time()
    src = base + '.cpp'
    with open(base + '.map.json') as f:
        spans = json.load(f)
    errors = {}
    rounds = 0
    built = False
    syntax_only = True
    while rounds < 8:
        rounds += 1
        defines = ['%s%d' % ('X' if part == 'case' else PARTS[part][0], k) for k, part in sorted(errors)]
        rc, err = gxx(cutlass, src, base + '.bin', defines, syntax_only)
        if rc == 0:
            if syntax_only:
                syntax_only = False
                continue
            built = True
            break
        found = attribute_errors(err, os.path.basename(src), spans)
        new = {k: v for k, v in found.items() if k not in errors}
        if not new:
            with open(base + '.compile.log', 'w') as f:
                f.write(err[-20000:])
            break
        errors.update(new)
    refused = {}
    for (k, part), (r, w) in errors.items():
        if part == 'case':
            refused[spans[k][0]] = {'reason': r, 'where': w}
    for (k, part), (r, w) in errors.items():
        if part != 'case' and 'parts' in refused.get(spans[k][0], {'parts': {}}):
            refused.setdefault(spans[k][0], {'parts': {}})['parts'][part] = {'reason': r, 'where': w}
    with open(base + '.errors.json', 'w') as f:
        json.dump(refused, f)
    out = ''
    if built:
        try:
            p = subprocess.run([base + '.bin'], capture_output=True, text=True, timeout=300, errors='replace')
            out = p.stdout
        except subprocess.TimeoutExpired as e:
            out = (e.stdout or b'').decode('utf-8', 'replace') if isinstance(e.stdout, bytes) else (e.stdout or '')
        os.remove(base + '.bin')
    with open(base + '.out', 'w') as f:
        f.write(out)
    return {'tu': os.path.basename(base), 'built': built, 'rounds': rounds, 'errors': len(errors),
            'seconds': round(time.time() - t0, 1)}


def cutlass_dir():
    """$CUTLASS_DIR, or exit 77 (skipped) without it"""
    cutlass = os.environ.get('CUTLASS_DIR')
    if not cutlass or not os.path.isdir(os.path.join(cutlass, 'include', 'cute')):
        print('CUTLASS_DIR is not set (or has no include/cute): skipping the CuTe runs')
        sys.exit(77)
    return cutlass


def compile_all(out_dir, jobs, seconds=None):
    cutlass = cutlass_dir()
    bases = sorted(p[:-len('.cpp')] for p in glob.glob(os.path.join(out_dir, 'tu*.cpp')))
    bases = [b for b in bases if not os.path.exists(b + '.out')]
    # --seconds: start no new translation unit after that long (the rest stays for a later run)
    stop_at = time.time() + seconds if seconds else None

    def one(b):
        if stop_at and time.time() > stop_at:
            return {'tu': os.path.basename(b), 'skipped': True}
        return compile_tu(cutlass, b)
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        for s in ex.map(one, bases):
            print(json.dumps(s), flush=True)


# ----------------------------------------------------------------------------
# collect

def parse_output(text):
    """program output -> {case index: record}"""
    res = {}
    cur = None
    in_grid = in_print = False
    grid = []
    for line in text.split('\n'):
        if in_grid:
            if line == 'PLEND':
                cur['print_layout'] = '\n'.join(grid) + '\n'
                in_grid = False
            else:
                grid.append(line)
            continue
        if in_print:  # a print of several lines (TiledMMA, TiledCopy)
            if line == 'PMEND':
                cur['P'] = '\n'.join(grid)
                in_print = False
            else:
                grid.append(line)
            continue
        if line.startswith('@@C '):
            cur = {}
            res[int(line[4:])] = cur
        elif line.startswith('@@RT '):
            if cur is not None:
                cur['runtime'] = line.split()[2]
        elif line.startswith('@@E '):
            cur = None
        elif cur is not None and line:
            key, _, val = line.partition(' ')
            if key == 'PL':
                in_grid, grid = True, []
            elif key == 'PM':
                in_print, grid = True, []
            elif key == 'O':
                cur['offsets'] = [int(x) for x in val.split()]
            elif key == 'CO':
                cur['coordinates'] = val.split()
            else:
                cur[key] = val
    return res


def static_int(text):
    if text is None:
        return None
    try:
        return int(text.replace('_', ''))
    except ValueError:
        return None


def answers(out_dir):
    """case id -> CuTe's record ({'error': ...} or the printed fields)"""
    got = {}
    for mp in sorted(glob.glob(os.path.join(out_dir, 'tu*.map.json'))):
        base = mp[:-len('.map.json')]
        with open(mp) as f:
            spans = json.load(f)
        errs = {}
        if os.path.exists(base + '.errors.json'):
            with open(base + '.errors.json') as f:
                errs = json.load(f)
        if not os.path.exists(base + '.out'):
            continue
        with open(base + '.out') as f:
            recs = parse_output(f.read())
        for k, span in enumerate(spans):
            cid = span[0]
            parts = errs.get(cid, {}).get('parts')
            if parts and k in recs and 'P' in recs[k] and 'runtime' not in recs[k]:
                got[cid] = dict(recs[k], refused_parts=parts)
            elif cid in errs and not parts:
                got[cid] = {'error': True, 'reason': errs[cid]['reason'], 'where': errs[cid]['where']}
            elif k in recs and 'runtime' in recs[k]:
                got[cid] = {'error': True, 'reason': 'runtime', 'runtime_detail': 'signal %s' % recs[k]['runtime']}
            elif k in recs and 'P' in recs[k]:
                got[cid] = recs[k]
            # else: not answered (the TU did not build or the run was cut short)
    return got


GRID_MAX = 64
NUMBER = re.compile(r'-?\d+')


def looks_wrapped(case, rec):
    """a 32-bit overflow in CuTe's int arithmetic (the case is left out: layoutx computes
    with 64 bits): a negative number in the answer while the expression has none, or a
    value at int's limit"""
    text = ' '.join(str(rec.get(k, '')) for k in ('P', 'SZ', 'CS')) + ' ' + ' '.join(map(str, rec.get('offsets', [])[:2048]))
    text = re.sub(r'Sw<[^>]*>', '', text)  # a swizzle's shift is negative by design
    nums = [int(x) for x in NUMBER.findall(text)]
    if any(abs(x) >= 2**31 - 1 for x in nums) or str(2**31 - 1) in case['expr']:
        return True
    return '-' not in re.sub(r'Sw<[^>]*>', '', case['expr']) and any(x < 0 for x in nums)


# CuTe's overload resolution failing on an int tuple where it needs a layout: layoutx
# reads a bare shape as its compact layout there (a documented extension), so such a
# case says nothing about layoutx.
TUPLE_AS_LAYOUT = re.compile(r"no matching function for call to ‘[a-z_]+(<[^>]*>)?\((cute::Layout<.*>, )?cute::tuple<")


def outside_comparison(case, rec):
    if rec.get('error'):
        return bool(TUPLE_AS_LAYOUT.match(rec.get('reason', '')))
    # CuTe prints the underscore `_`, which the static comparison would read as a mark
    return case.get('mode', 'static') == 'static' and rec.get('P') == '_'


def golden_record(case, rec, twin):
    dyn = case.get('mode', 'static') == 'dynamic'
    out = {'id': case['id'], 'source': 'differential'}
    if dyn:
        out['mode'] = 'dynamic'
    out.update({'expr': case['expr'], 'cpp': case['cpp'], 'op': case['op'], 'nest': case['nest']})
    fields = ['kind', 'print', 'print_layout', 'offsets', 'shape', 'stride', 'size', 'cosize', 'rank', 'depth',
              'error', 'reason']
    for k in fields:
        out[k] = None
    if rec.get('error'):
        out['error'] = True
        out['reason'] = rec['reason']
        if 'where' in rec:
            out['where'] = rec['where']
        if 'runtime_detail' in rec:
            out['runtime_detail'] = rec['runtime_detail']
    else:
        out['error'] = False
        out['kind'] = rec.get('K')
        out['print'] = rec.get('P')
        # the grid only for small layouts: it is most of the data's bytes
        out['print_layout'] = rec.get('print_layout') if (static_int(rec.get('SZ')) or 0) <= GRID_MAX else None
        out['offsets'] = rec.get('offsets')
        if rec.get('coordinates') is not None:
            out['coordinates'] = rec['coordinates']
        for part, why in rec.get('refused_parts', {}).items():
            # CuTe prints the value but its cosize or evaluation L(i) does not compile
            out[part + '_error'] = why['reason']
            out[part + '_where'] = why['where']
        out['shape'] = rec.get('SH')
        out['stride'] = rec.get('ST')
        for key, name in (('SZ', 'size'), ('CS', 'cosize'), ('RK', 'rank'), ('DP', 'depth')):
            out[name] = static_int(rec.get(key))
            if dyn:
                out[name + '_text'] = rec.get(key)
    if dyn:
        out['ints'] = case.get('ints')
        twin_err = twin.get('error') if twin else None
        out['dubious'] = bool(not out['error'] and twin_err and twin.get('reason') != 'runtime')
        out['static-required'] = bool(out['error'] and twin is not None and not twin_err)
        if out['dubious']:
            out['static_reason'] = twin['reason']
    return out


def collect(cases_file, out_dir):
    with open(cases_file) as f:
        cases = [json.loads(l) for l in f if l.strip()]
    got = answers(out_dir)
    n = left = wrapped = outside = 0
    for c in cases:
        rec = got.get(c['id'])
        if rec is None:
            left += 1
            continue
        if not rec.get('error') and looks_wrapped(c, rec):
            wrapped += 1
            continue
        if outside_comparison(c, rec):
            outside += 1
            continue
        twin = got.get(c['id'] + '~twin')
        if twin is None and c.get('twin_cpp') == c['cpp']:
            twin = rec
        rec = golden_record(c, rec, twin)
        # compact: absent fields are null (json_lines.hpp and check_cases.py read them so)
        print(json.dumps({k: v for k, v in rec.items() if v is not None}, separators=(',', ':')))
        n += 1
    sys.stderr.write('collect: %d answered, %d without an answer, %d left out (32-bit overflow), %d left out '
                     '(an int tuple where CuTe needs a layout; a static `_`)\n' % (n, left, wrapped, outside))


def verify(data_files, count, seed, work):
    """recompile a sample of stored cases with CuTe and check the answers are the stored ones"""
    import random
    import tempfile
    cutlass_dir()
    cases = []
    for p in data_files:
        with open(p) as f:
            cases += [json.loads(l) for l in f if l.strip()]
    rng = random.Random(seed)
    sample = [c for c in cases if c['id'].startswith('pin-')]
    rest = [c for c in cases if not c['id'].startswith('pin-')]
    sample += rng.sample(rest, min(count, len(rest)))
    if work is None:
        with tempfile.TemporaryDirectory(prefix='cute-verify-') as tmp:
            verify_in(sample, tmp)
    else:
        verify_in(sample, work)


def verify_in(sample, work):
    os.makedirs(work, exist_ok=True)
    units_file = os.path.join(work, 'cases.jsonl')
    with open(units_file, 'w') as f:
        for c in sample:
            f.write(json.dumps({'id': c['id'], 'mode': c.get('mode', 'static'), 'expr': c['expr'], 'cpp': c['cpp'],
                                'op': c['op'], 'nest': c['nest'], 'ints': c.get('ints')}) + '\n')
    emit(units_file, work, 100)
    compile_all(work, os.cpu_count() or 1)
    got = answers(work)
    keys = ('error', 'kind', 'print', 'print_layout', 'offsets', 'coordinates', 'evaluation_error', 'cosize_error',
            'shape', 'stride', 'size', 'cosize', 'rank', 'depth')
    bad = 0
    for c in sample:
        rec = got.get(c['id'])
        mine = {k: v for k, v in golden_record(c, rec, None).items() if v is not None} if rec else {}
        diff = [k for k in keys if k != 'print_layout' and mine.get(k) != c.get(k)]
        if c.get('print_layout') and mine.get('print_layout') != c['print_layout']:
            diff.append('print_layout')
        if diff:
            bad += 1
            print('%s %s: stored and recompiled answers differ in %s' % (c['id'], c['expr'], ', '.join(diff)))
    print('%d cases recompiled, %d differ from the stored answers' % (len(sample), bad))
    sys.exit(1 if bad else 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    e = sub.add_parser('emit')
    e.add_argument('cases')
    e.add_argument('dir')
    e.add_argument('--per-tu', type=int, default=200)
    c = sub.add_parser('compile')
    c.add_argument('dir')
    c.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    c.add_argument('--seconds', type=float, default=None, help='start no new TU after this many seconds')
    k = sub.add_parser('collect')
    k.add_argument('cases')
    k.add_argument('dir')
    v = sub.add_parser('verify', help='recompile a sample of stored cases and compare with the stored answers')
    v.add_argument('data', nargs='+')
    v.add_argument('--count', type=int, default=40, help='random cases besides the pinned ones')
    v.add_argument('--seed', type=int, default=1)
    v.add_argument('--work', default=None, help='working folder (default: a new temporary one)')
    a = ap.parse_args()
    if a.cmd == 'verify':
        verify(a.data, a.count, a.seed, a.work)
    elif a.cmd == 'emit':
        emit(a.cases, a.dir, a.per_tu)
    elif a.cmd == 'compile':
        compile_all(a.dir, a.jobs, a.seconds)
    else:
        collect(a.cases, a.dir)


if __name__ == '__main__':
    main()
