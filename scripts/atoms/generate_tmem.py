#!/usr/bin/env python3
"""CuTe's tensor-memory layouts for SM100 UMMA atoms: tests/data/atoms/tmem.jsonl.

For a spread of the catalogue's UMMA atoms (the smallest and largest tile of
each operation), a host-only program over CuTe's headers makes the TiledMMA
(make_tiled_mma(Op{})), partitions the (M,N) tile for CTA 0 and prints, with
CuTe's print, the accumulator's TMEM layout (make_fragment_C, tmem_frg) and,
for the operations that read A from tensor memory (_TS), A's.  For a few
accumulators it also prints make_tmem_copy's TiledCopy for TMEM loads and
thread 0's partitions of the accumulator (partition_S) and of the tile's
coordinates (partition_D).  One program per line, so a refusal (g++'s
static_assert message) stays with its case.

  CUTLASS_DIR=... CUDA_INCLUDE=... generate_tmem.py OUT.jsonl [JOBS]
"""
import concurrent.futures
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import generate_atoms  # noqa: E402

LOADS = ['SM100_TMEM_LOAD_32dp32b1x', 'SM100_TMEM_LOAD_32dp32b8x', 'SM100_TMEM_LOAD_16dp256b1x',
         'SM100_TMEM_LOAD_16dp128b2x', 'SM100_TMEM_LOAD_16dp64b4x', 'SM100_TMEM_LOAD_16dp32b2x']

PRELUDE = r'''#include <cstdio>
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/mma_traits_sm100.hpp>
#include <cute/atom/copy_traits_sm100.hpp>
using namespace cute;
template <class X> void field(const char* key, X const& x) { std::printf("%s\t", key); print(x); std::printf("\n"); }
'''


def program(cpp_type, ts, load):
    body = '''  TiledMMA mma = make_tiled_mma(%s{});
  auto cta = mma.get_slice(0);
  auto M = tile_size<0>(mma); auto N = tile_size<1>(mma); auto K = tile_size<2>(mma);
  field("tile_mnk", make_shape(M, N, K));
  Tensor cC = make_identity_tensor(make_shape(M, N));
  Tensor tCcC = cta.partition_C(cC);
  Tensor acc = cta.make_fragment_C(tCcC);
  field("acc", acc.layout());
''' % cpp_type
    if ts:
        body += '''  Tensor tCcA = cta.partition_A(make_identity_tensor(make_shape(M, K)));
  field("frg_a", cta.make_fragment_A(tCcA).layout());
'''
    if load:
        body += '''  auto t2r = make_tmem_copy(%s{}, acc);
  field("tiler", typename decltype(t2r)::Tiler_MN{});
  field("tv", typename decltype(t2r)::TiledLayout_TV{});
  auto thr = t2r.get_slice(0);
  field("part_s", thr.partition_S(acc).layout());
  field("part_d", thr.partition_D(tCcC).layout());
''' % load
    return PRELUDE + 'int main() {\n' + body + '}\n'


def cases():
    atom_dir = pathlib.Path(os.environ['CUTLASS_DIR']) / 'include' / 'cute' / 'atom'
    by_op = {}
    for spec in generate_atoms.scan(atom_dir):
        if spec.kind != 'mma' or not spec.header.startswith('mma_traits_sm100'):
            continue
        result = generate_atoms.instances(spec)
        if isinstance(result, str):
            continue
        for name, cpp in result:
            if name.startswith('SM100_MMA'):
                by_op.setdefault(name.split('<')[0], []).append((name, cpp))
    out = []
    for op, insts in by_op.items():
        for name, cpp in sorted({insts[0], insts[-1]}):
            out.append({'atom': name, 'cpp_type': cpp, 'ts': '_TS' in op})
    # TMEM loads of a few accumulators.
    for name, cpp in [by_op['SM100_MMA_F16BF16_SS'][i] for i in (0, len(by_op['SM100_MMA_F16BF16_SS']) - 1)] + \
                     [by_op['SM100_MMA_F16BF16_2x1SM_SS'][-1], by_op['SM100_MMA_TF32_SS'][-1]]:
        for load in LOADS:
            out.append({'atom': name, 'cpp_type': cpp, 'ts': False, 'load': load})
    for i, c in enumerate(out):
        c['id'] = 'tmem-%03d' % (i + 1)
    return out


def run_case(c, cutlass, cuda, work):
    src = os.path.join(work, c['id'] + '.cpp')
    exe = os.path.join(work, c['id'])
    text = program(c['cpp_type'], c['ts'], c.get('load'))
    with open(src, 'w') as f:
        f.write(text)
    cmd = ['g++', '-std=c++17', '-O0', '-w', '-I' + cutlass, '-I' + cuda, '-I' + os.path.join(cuda, 'cccl'), src, '-o', exe]
    r = subprocess.run(cmd, capture_output=True, text=True)
    out = {k: v for k, v in c.items() if k != 'cpp_type'}
    out['cpp'] = text.split('int main() {\n')[1].rstrip('}\n')
    if r.returncode != 0:
        msgs = [m for m in re.findall(r'static assertion failed(?:: (.*))?', r.stderr) if m]
        out['error'] = 'static_assert' if msgs else 'compile'
        out['reason'] = msgs[0] if msgs else '\n'.join(l for l in r.stderr.splitlines() if 'error' in l)[:600]
        return out
    r = subprocess.run([exe], capture_output=True, text=True, timeout=60)
    for line in r.stdout.splitlines():
        key, _, value = line.partition('\t')
        out[key] = value
    if r.returncode != 0:
        out['error'] = 'run'
        out['reason'] = r.stderr.strip()[-300:]
    return out


def main():
    cutlass = os.path.join(os.environ['CUTLASS_DIR'], 'include')
    cuda = os.environ.get('CUDA_INCLUDE', '/usr/local/cuda/include')
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else os.cpu_count()
    all_cases = cases()
    with tempfile.TemporaryDirectory() as work, concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(lambda c: run_case(c, cutlass, cuda, work), all_cases))
    with open(sys.argv[1], 'w') as f:
        for r in results:
            f.write(json.dumps(r) + '\n')
    print('%d cases, %d refused' % (len(results), sum('error' in r for r in results)))


if __name__ == '__main__':
    main()
