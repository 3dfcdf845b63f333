#!/usr/bin/env python3
"""CuTe's answers for make_tma_copy: tests/data/atoms/tma.jsonl.

Each case (a TMA operation, a global tensor, a shared-memory layout, a value
type and a multicast size) becomes a host-only C++ program over CuTe's
headers.  The program calls make_tma_copy and prints, with CuTe's own print,
what it chose: the TMA basis (box mode -> gmem mode), the coordinate strides
of the TMA tensor, the swizzle and its TMA mode, the atom's layouts and the
TiledCopy's Tiler_MN and TV layout.  It also replaces cuTensorMapEncodeTiled
(and cudaDriverGetVersion) by functions that print the descriptor's fields
instead of encoding them, so the box dimensions are the ones make_tma_copy
passes to the driver.  A case CuTe refuses keeps its reason: the failing
assert's condition (the program aborts) or static_assert's message (the
program does not compile).

  CUTLASS_DIR=... CUDA_INCLUDE=... generate_tma.py OUT.jsonl [JOBS]
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

OPS = ['SM90_TMA_LOAD', 'SM90_TMA_LOAD_MULTICAST', 'SM90_TMA_STORE', 'SM90_TMA_REDUCE_ADD',
       'SM100_TMA_2SM_LOAD', 'SM100_TMA_2SM_LOAD_MULTICAST']


def cpp_tuple(text, static):
    """'(1024,(8,_4))' -> make_shape(1024,make_shape(8,Int<4>{})); plain integers are static when `static`."""
    pos = 0

    def parse():
        nonlocal pos
        if text[pos] == '(':
            pos += 1
            elems = [parse()]
            while text[pos] == ',':
                pos += 1
                elems.append(parse())
            assert text[pos] == ')', text
            pos += 1
            return 'make_shape(%s)' % ','.join(elems)
        m = re.match(r'_?\d+', text[pos:])
        pos += len(m.group(0))
        v = m.group(0)
        if v.startswith('_'):
            return 'Int<%s>{}' % v[1:]
        return 'Int<%s>{}' % v if static else v
    out = parse()
    assert pos == len(text), text
    return out


def cpp_layout(text, static):
    shape, stride = text.split(':') if ':' in text else (text, None)
    s = cpp_tuple(shape, static)
    if stride is None:
        return 'make_layout(%s)' % s
    return 'make_layout(%s,%s)' % (s, cpp_tuple(stride, static).replace('make_shape', 'make_stride'))


def cpp_smem(text):
    m = re.fullmatch(r'tile_to_shape\(([\w:]+<\w+>),(\(.*\))\)', text)
    if m:
        return 'tile_to_shape(%s{},%s)' % (m.group(1), cpp_tuple(m.group(2), True))
    m = re.fullmatch(r'Sw<(\d+),(\d+),(\d+)> o (.*)', text)
    if m:
        return 'composition(Swizzle<%s,%s,%s>{},%s)' % (m.group(1), m.group(2), m.group(3), cpp_layout(m.group(4), True))
    return cpp_layout(text, True)


def case(op, ty, gmem, smem, multicast=1):
    return {'op': op, 'type': ty, 'gmem': gmem, 'smem': smem, 'multicast': multicast}


def cases():
    out = []
    bits = {'half_t': 16, 'bfloat16_t': 16, 'float': 32, 'tfloat32_t': 32, 'float_e4m3_t': 8, 'int8_t': 8,
            'uint8_t': 8, 'double': 64}
    # Canonical GMMA smem atoms tiled to CTA tiles, over K-major and MN-major tensors.
    for ty in ['half_t', 'float', 'float_e4m3_t', 'double', 'bfloat16_t']:
        for major in ['K', 'MN']:
            for sw in ['INTER', 'SW32', 'SW64', 'SW128']:
                for tile in ['(128,64)', '(256,32)']:
                    gmem = '(4096,1024):(1024,_1)' if major == 'K' else '(4096,1024):(_1,4096)'
                    out.append(case('SM90_TMA_LOAD', ty, gmem, 'tile_to_shape(GMMA::Layout_%s_%s_Atom<%s>,%s)' % (major, sw, ty, tile)))
    # Multicast over clusters, loads and stores, the SM100 2-SM loads.
    for op in ['SM90_TMA_LOAD_MULTICAST', 'SM90_TMA_LOAD', 'SM100_TMA_2SM_LOAD_MULTICAST']:
        for mc in [2, 4, 8, 16]:
            for major, sw in [('K', 'SW128'), ('MN', 'SW64'), ('K', 'INTER')]:
                gmem = '(4096,1024):(1024,_1)' if major == 'K' else '(4096,1024):(_1,4096)'
                out.append(case(op, 'half_t', gmem, 'tile_to_shape(GMMA::Layout_%s_%s_Atom<half_t>,(128,64))' % (major, sw), mc))
    for op in ['SM90_TMA_STORE', 'SM90_TMA_REDUCE_ADD', 'SM100_TMA_2SM_LOAD']:
        for major, sw, ty in [('K', 'SW128', 'half_t'), ('MN', 'SW32', 'float'), ('K', 'SW64', 'int8_t')]:
            gmem = '(512,768):(768,_1)' if major == 'K' else '(512,768):(_1,512)'
            out.append(case(op, ty, gmem, 'tile_to_shape(GMMA::Layout_%s_%s_Atom<%s>,(64,128))' % (major, sw, ty)))
    # UMMA's 32B-based atom.
    out.append(case('SM90_TMA_LOAD', 'float', '(1024,512):(_1,1024)', 'tile_to_shape(UMMA::Layout_MN_SW128_32B_Atom<float>,(128,32))'))
    out.append(case('SM90_TMA_LOAD', 'half_t', '(1024,512):(_1,1024)', 'tile_to_shape(UMMA::Layout_MN_SW128_32B_Atom<half_t>,(256,32))'))
    # Plain and hand-swizzled layouts, more modes, static tensors (box modes merge up to 256).
    plain = [
        ('float', '(1024,256):(256,_1)', '(64,32):(32,1)'),
        ('float', '(1024,256):(_1,1024)', '(64,32):(1,64)'),
        ('float', '(1024,32,512):(64,_1,65536)', '(16,8,2):(16,1,8)'),
        ('half_t', '(1024,32,512):(64,_1,65536)', '(16,8,2):(16,1,8)'),
        ('half_t', '(_1024,_256):(_256,_1)', '(64,32):(32,1)'),
        ('half_t', '(_1024,_256):(_1,_1024)', '(64,32):(1,64)'),
        ('half_t', '(_64,_32):(_1,_64)', '(64,32):(1,64)'),
        ('float', '(_16,_16,_16):(_1,_16,_256)', '(16,16,16):(1,16,256)'),
        ('half_t', '(_512,_8):(_1,_512)', '(512,8):(1,512)'),
        ('half_t', '(512,8):(_1,512)', '(256,8):(1,256)'),
        ('half_t', '(512,8):(_1,512)', '(512,8):(1,512)'),
        ('half_t', '((32,40),((8,8),656)):((_1,32),((1280,10240),81920))', '(128,(32,2)):(1,(128,4096))'),
        ('half_t', '(4096,1024,8):(1024,_1,4194304)', '(128,64,1):(64,1,8192)'),
        ('half_t', '(4096,1024):(1024,_1)', 'Sw<3,4,3> o (64,64):(64,1)'),
        ('half_t', '(4096,1024):(1024,_1)', 'Sw<2,4,3> o (64,32):(32,1)'),
        ('half_t', '(4096,1024):(1024,_1)', 'Sw<3,4,3> o (128,32):(32,1)'),
        ('half_t', '(4096,1024):(1024,_1)', 'Sw<2,5,2> o (64,64):(64,1)'),
        ('uint8_t', '(4096,1024):(1024,_1)', '(8,128):(128,1)'),
        ('double', '(4096,1024):(_1,4096)', '(16,16):(1,16)'),
        ('half_t', '(2,3,4,5,6,64):(_1,2,6,24,120,720)', '(2,3,4,5,6,8):(1,2,6,24,120,720)'),
        ('half_t', '(64,2,3,4,5,6):(_1,64,128,384,1536,7680)', '(64,2,3,4,5,6):(1,64,128,384,1536,7680)'),
        ('float', '(1000,1000):(_1,1000)', '(32,32):(1,32)'),
        ('half_t', '(100,100):(_1,100)', '(32,32):(1,32)'),
        ('half_t', '(256,256):(256,_1)', '(64,32):(1,64)'),
        ('half_t', '(256,256):(_1,256)', '(8,8):(2,16)'),
        ('half_t', '(256,256):(_1,256)', '(64,32):(1,64)'),
        ('half_t', '(256,256):(_1,256)', 'Sw<3,4,2> o (64,32):(1,64)'),
        ('half_t', '(256,256):(_1,256)', 'Sw<1,5,2> o (64,32):(1,64)'),
        ('half_t', '(256,256):(_1,256)', '(64,64):(1,64)'),
        ('half_t', '(256,256):(_1,256)', '(64,30):(1,64)'),
        ('float', '(256,256,4):(_1,256,65536)', '(32,16):(1,32)'),
        ('float', '(256,256):(_1,256)', '(32,16,2):(1,32,512)'),
        ('float_e2m1_t', '(4096,1024):(1024,_1)', '(128,128):(128,1)'),
        ('int16_t', '(4096,1024):(1024,_1)', '(64,64):(64,1)'),
    ]
    for ty, g, s in plain:
        out.append(case('SM90_TMA_LOAD', ty, g, s))
    out.append(case('SM90_TMA_LOAD_MULTICAST', 'half_t', '(4096,1024):(1024,_1)', '(8,64):(64,1)', 4))
    out.append(case('SM90_TMA_LOAD_MULTICAST', 'half_t', '(4096,1024):(1024,_1)', '(8,64):(64,1)', 16))
    out.append(case('SM90_TMA_LOAD_MULTICAST', 'half_t', '(4096,1024):(1024,_1)', '(6,64):(64,1)', 4))
    out.append(case('SM90_TMA_LOAD_MULTICAST', 'half_t', '(4096,1024):(1024,_1)', '(12,64):(64,1)', 8))
    out.append(case('SM90_TMA_LOAD_MULTICAST', 'half_t', '(4096,1024):(1024,_1)', '(128,64):(64,1)', 3))
    # Rank-1 tensors and tiles (the identity layout of a rank-1 shape has the stride _1, no basis).
    out.append(case('SM90_TMA_LOAD', 'half_t', '64:_1', '64:1'))
    out.append(case('SM90_TMA_LOAD', 'half_t', '(64,32):(_1,64)', '64:1'))
    # More modes than a box has: the trailing ones grouped, read through the stride recurrence.
    out.append(case('SM90_TMA_LOAD', 'float', '(2,2,2,2,2,2,2,2):(_1,2,4,8,16,32,64,128)', '(2,2,2,2,2,2,2,2):(1,2,4,8,16,32,64,128)'))
    out.append(case('SM90_TMA_LOAD_MULTICAST', 'half_t', '(4,4):(_1,4)', '(4,4):(1,4)', 16))
    out.append(case('SM90_TMA_LOAD', 'half_t', '(16,16,16,16,16,16):(_1,16,256,4096,65536,1048576)', '(16,2,2,2,2,2):(1,16,256,4096,65536,1048576)'))
    for i, c in enumerate(out):
        c['id'] = 'tma-%03d' % (i + 1)
    return out


PRELUDE = r'''#include <cstdio>
#include <cute/tensor.hpp>
#include <cute/atom/copy_traits_sm90_tma.hpp>
#include <cute/atom/copy_traits_sm100_tma.hpp>
using namespace cute;
// make_tma_copy hands the descriptor's fields to the driver: print them instead.
extern "C" CUresult cuTensorMapEncodeTiled(CUtensorMap*, CUtensorMapDataType format, cuuint32_t rank, void*,
                                           const cuuint64_t* dims, const cuuint64_t* strides, const cuuint32_t* box,
                                           const cuuint32_t* element_strides, CUtensorMapInterleave,
                                           CUtensorMapSwizzle swizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill) {
  auto list = [](const char* key, auto const* v, unsigned n) {
    std::printf("%s\t", key);
    for (unsigned i = 0; i < n; ++i) std::printf(i ? ",%llu" : "%llu", (unsigned long long)v[i]);
    std::printf("\n");
  };
  std::printf("desc_format\t%d\ndesc_rank\t%u\n", int(format), rank);
  list("desc_dims", dims, rank);
  list("desc_strides", strides, rank - 1);
  list("desc_box", box, rank);
  list("desc_element_strides", element_strides, rank);
  std::printf("desc_swizzle\t%d\n", int(swizzle));
  return CUDA_SUCCESS;
}
extern "C" cudaError_t cudaDriverGetVersion(int* version) { *version = 13000; return cudaSuccess; }

template <class X> void field(const char* key, X const& x) { std::printf("%s\t", key); print(x); std::printf("\n"); }

template <class TMA> void report(TMA const& tma) {
  using Traits = typename TMA::Traits;
  using Aux = typename Traits::AuxParams;
  field("tma_gbasis", typename Aux::TmaGmemBasis{});
  field("g_stride", tma.aux_params_.g_stride_);
  field("swizzle", typename Aux::TmaSwizzle{});
  std::printf("swizzle_bits\t%d\n", int(detail::get_tma_swizzle_bits(typename Aux::TmaSwizzle{})));
  std::printf("swizzle_base\t%d\n", int(detail::get_tma_swizzle_base(typename Aux::TmaSwizzle{})));
  field("traits_src", typename Traits::SrcLayout{});
  field("thr_id", typename TMA::ThrID{});
  field("val_src", typename TMA::ValLayoutSrc{});
  field("val_dst", typename TMA::ValLayoutDst{});
  field("val_ref", typename TMA::ValLayoutRef{});
  field("tiler", typename TMA::Tiler_MN{});
  field("tv", typename TMA::TiledLayout_TV{});
}
'''


def program(c):
    g = c['gmem']
    return PRELUDE + '''int main() {
  using T = %s;
  Tensor g = make_tensor(make_gmem_ptr(reinterpret_cast<T*>(0x100000)), %s);
  auto s = %s;
  report(make_tma_copy(%s{}, g, s, Int<%d>{}));
}
''' % (c['type'], cpp_layout(g, False), cpp_smem(c['smem']), c['op'], c['multicast'])


def run_case(c, cutlass, cuda, work):
    src = os.path.join(work, c['id'] + '.cpp')
    exe = os.path.join(work, c['id'])
    with open(src, 'w') as f:
        f.write(program(c))
    cmd = ['g++', '-std=c++17', '-O0', '-w', '-DCUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL=1', '-D__CUDACC_VER_MAJOR__=12',
           '-D__CUDACC_VER_MINOR__=8', '-I' + cutlass, '-I' + cuda, '-I' + os.path.join(cuda, 'cccl'), src, '-o', exe]
    r = subprocess.run(cmd, capture_output=True, text=True)
    out = dict(c)
    out['cpp'] = program(c).split('int main() {')[1].strip()
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
        m = re.search(r"Assertion `(.*)' failed", r.stderr)
        out['error'] = 'assert'
        out['reason'] = m.group(1) if m else r.stderr.strip()[-300:]
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
