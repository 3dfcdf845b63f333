#!/usr/bin/env python3
"""Hand-made whole programs for `layoutx run`: the seed posts' code and the set-up of
CuTe's tutorial GEMMs.

  seeds     every code block of the two seed posts (the blog posts the project grew
            from) that is a whole program or a fragment of one, verbatim.  A
            fragment is wrapped minimally: the includes, `using namespace cute;` and
            `int main() { ... }` around it; where the post shows the value a
            fragment declares (its print_layout, or the values in its comments), one
            print of it is added after the fragment.  The `note` field says which.
  tutorial  the host-side part of CuTe's tutorial GEMMs (sgemm_1, sgemm_2,
            sgemm_sm80 in CUTLASS's examples/cute/tutorial), written anew: the
            problem shape and strides, CTA tiler, shared-memory and thread layouts,
            TiledCopy and TiledMMA of each, then one thread's partitions of one CTA's
            tiles printed as the tutorial's debug prints do.  Global and shared memory
            are tensors over nullptr (their pointers print as offsets from address 0,
            the same on every run); register fragments print their layout only.

usage: program_cases.py seeds|tutorial > programs.jsonl
"""
import json
import sys

HEAD = '#include <cute/tensor.hpp>\nusing namespace cute;\n'


def wrapped(block, after=''):
    """a fragment inside main, as minimally as it compiles"""
    text = HEAD + 'int main() {\n' + block.rstrip('\n') + '\n'
    if after:
        text += after.rstrip('\n') + '\n'
    return text + '}\n'


# ----------------------------------------------------------------------------
# seeds/000: "cute (1) Layout basics".  The blocks as the post shows them (its line
# numbers left out).

SEED0_BLOCKS = [
    ('s0-1d-layout', '''// ============================================================
  // 1. 最简单的 Layout：一维
  // ============================================================
  {
    // Shape = 8，Stride = 1
    // 含义：8 个元素，相邻元素 offset 差 1
    auto layout = make_layout(Int<8>{});  // 等价于 (8):(1)
    printf("=== 1D Layout ===\\n");
    print(layout);
    printf("\\n");

    // 手动验证：layout(i) 返回 offset
    for (int i = 0; i < size(layout); ++i) {
      printf("  layout(%d) = %d\\n", i, int(layout(i)));
    }
    printf("\\n");
  }
''', ''),
    ('s0-1d-layout-line', '''auto layout = make_layout(Int<8>{});  // (8):(1)
''', 'for (int i = 0; i < size(layout); ++i) printf("layout(%d) = %d\\n", i, int(layout(i)));'),
    ('s0-row-major', '''// ============================================================
 // 2. 二维 Layout：row-major
 // ============================================================
 {
   // Shape = (4, 3)，Stride = (3, 1)
   // row-major: 行内连续（stride=1），行间跳 3（stride=3）
   auto layout = make_layout(make_shape(4, 3), make_stride(3, 1));
   printf("=== 2D Row-Major (4,3):(3,1) ===\\n");
   print_layout(layout);
   printf("\\n");

   // 用二维坐标访问
   printf("  layout(0,0) = %d\\n", int(layout(0, 0)));  // 0*3 + 0*1 = 0
   printf("  layout(1,2) = %d\\n", int(layout(1, 2)));  // 1*3 + 2*1 = 5
   printf("  layout(3,2) = %d\\n", int(layout(3, 2)));  // 3*3 + 2*1 = 11
   printf("\\n");
 }
''', ''),
    ('s0-row-major-line', '''auto layout = make_layout(make_shape(4, 3), make_stride(3, 1));
''', 'print_layout(layout);'),
    ('s0-col-major', '''// ============================================================
  // 3. 二维 Layout：col-major
  // ============================================================
  {
    // Shape = (4, 3)，Stride = (1, 4)
    // col-major: 列内连续（stride=1），列间跳 4（stride=4）
    auto layout = make_layout(make_shape(4, 3), make_stride(1, 4));
    printf("=== 2D Col-Major (4,3):(1,4) ===\\n");
    print_layout(layout);
    printf("\\n");

    printf("  layout(0,0) = %d\\n", int(layout(0, 0)));  // 0*1 + 0*4 = 0
    printf("  layout(1,2) = %d\\n", int(layout(1, 2)));  // 1*1 + 2*4 = 9
    printf("\\n");
  }
''', ''),
    ('s0-col-major-line', '''auto layout = make_layout(make_shape(4, 3), make_stride(1, 4));
''', 'print_layout(layout);'),
    ('s0-default-col-major', '''// ============================================================
  // 4. make_layout 的便捷用法
  // ============================================================
  {
    // 只给 shape，不给 stride -> 默认 col-major（CuTe 惯例！）
    auto layout = make_layout(make_shape(4, 3));
    printf("=== Default (col-major): make_layout(make_shape(4,3)) ===\\n");
    print(layout);  // 打印 shape:stride 的文本形式
    printf("\\n");
    print_layout(layout);
    printf("\\n");
  }
''', ''),
    ('s0-default-line', '''auto layout = make_layout(make_shape(4, 3));  // 不给 stride
''', 'print(layout); printf("\\n");'),
    ('s0-nested', '''// ============================================================
 // 5. 嵌套 Shape（层级 Layout）
 // ============================================================
 {
   // Shape = ((2, 3), 4) 是一个嵌套 shape
   // 第一维由 (2, 3) 组成（逻辑上 2*3=6 个位置），第二维 4
   // CuTe 会自动计算 col-major stride
   auto layout = make_layout(make_shape(make_shape(2, 3), 4));
   printf("=== Nested Shape ((2,3), 4) ===\\n");
   print(layout);
   printf("\\n");
   print_layout(layout);
   printf("\\n");

   // stride 的结构必须和 shape 一一对应：
   // shape  = ((2, 3),   4)
   // stride = ((1, 2),   6)   <-- 第一维嵌套，stride 也必须嵌套
   auto layout1 = make_layout(make_shape(make_shape(2, 3), 4),
                              make_stride(make_stride(2, 2), 3));
   printf("=== Nested Shape ((2,3), 4) stride((1,2), 6) ===\\n");
   print(layout1);
   printf("\\n");
   print_layout(layout1);
   printf("\\n");
 }
''', ''),
    ('s0-nested-line', '''auto layout = make_layout(make_shape(make_shape(2, 3), 4));
''', 'print(layout); printf("\\n");'),
    ('s0-common-mistake', '''// 错误！shape 是嵌套的 ((2,3), 4)，stride 不能是 flat 的 (s1, s2)
make_layout(make_shape(make_shape(2, 3), 4), make_stride(2, 3));  // 编译错误

// 正确：stride 也嵌套
make_layout(make_shape(make_shape(2, 3), 4), make_stride(make_stride(2, 2), 3));
''', ''),
    # The post calls the first line a compile error; CuTe 7107b05 builds it (the flat stride is
    # weakly congruent with the nested shape): printed, it shows what CuTe makes of it.
    ('s0-common-mistake-line', '''make_layout(make_shape(make_shape(2, 3), 4), make_stride(2, 3));  // 编译错误
''', 'print(make_layout(make_shape(make_shape(2, 3), 4), make_stride(2, 3))); printf("\\n");'),
    ('s0-properties', '''auto layout = make_layout(make_shape(4, 8), make_stride(8, 1));
''', 'print(shape(layout)); print(stride(layout)); printf(" %d %d %d\\n", int(size(layout)), int(rank(layout)), int(cosize(layout)));'),
    ('s0-sparse', '''auto sparse = make_layout(make_shape(2, 2), make_stride(1, 8));
// 实际访问的 offset: 0, 1, 8, 9
// size = 4（4 个元素）
// cosize = 10（max_offset=9, +1=10）
''', 'printf("size = %d, cosize = %d\\n", int(size(sparse)), int(cosize(sparse)));'),
    ('s0-1d-index', '''auto layout = make_layout(make_shape(3, 4), make_stride(4, 1));

// layout(i) 等价于 layout(i % shape<0>, i / shape<0>)
// 即 layout(i) = layout(i % 3, i / 3)
''', 'for (int i = 0; i < size(layout); ++i) printf("layout(%d) = layout(%d,%d) = %d\\n", i, i % 3, i / 3, int(layout(i)));'),
]

SEED0_NOTES = {
    '': 'a block of the post, wrapped in main',
    'line': 'a one-line fragment, wrapped in main; one print of what the post shows of its value added',
}

# ----------------------------------------------------------------------------
# seeds/001: CuTe Layout from a CUDA programmer's view.

SEED1_PROGRAM = '''#include <cute/tensor.hpp>
using namespace cute;
int main() {
auto layout = make_layout(Shape<_4, _8>{}, Stride<_8, _1>{});
print_layout(layout);
}'''

SEED1_FRAGMENTS = [
    ('s1-col-major', '''// auto layout = make_layout(Shape<_4, _8>{}, Stride<_8, _1>{});
auto layout = make_layout(Shape<_4, _8>{}, Stride<_1, _4>{});''', 'print_layout(layout);'),
    ('s1-hierarchy', '''auto layout2 = make_layout(Shape<_4, Shape<_2, _4>>{}, Stride<_2, Stride<_1, _8>>{});''',
     'print_layout(layout2);'),
    ('s1-tiles', '''auto layout4 = make_layout(Shape<Shape<_2, _2>, Shape<_4, _2>>{}, Stride<Stride<_4, _16>, Stride<_1, _8>>{});''',
     'print_layout(layout4);'),
    ('s1-blocked-product', '''auto outer = make_layout(Shape<_2, _2>{}, Stride<_2, _1>{});
print_layout(outer);
auto inner = make_layout(Shape<_2, _4>{}, Stride<_4, _1>{});
print_layout(inner);
auto result = blocked_product(inner, outer);
print_layout(result);''', ''),
]


def seeds():
    out = []
    for pid, block, after in SEED0_BLOCKS:
        note = SEED0_NOTES['line' if after else '']
        out.append({'id': 'seed-' + pid, 'group': 'seeds', 'program': wrapped(block, after), 'flags': [],
                    'source': 'seeds/000', 'note': note})
    out.append({'id': 'seed-s1-program', 'group': 'seeds', 'program': SEED1_PROGRAM + '\n', 'flags': [],
                'source': 'seeds/001', 'note': 'the post\'s whole program, verbatim'})
    for pid, block, after in SEED1_FRAGMENTS:
        note = ('a fragment, wrapped in main; the print_layout the post shows added' if after
                else 'a fragment, wrapped in main')
        out.append({'id': 'seed-' + pid, 'group': 'seeds', 'program': wrapped(block, after), 'flags': [],
                    'source': 'seeds/001', 'note': note})
    return out


# ----------------------------------------------------------------------------
# The tutorial GEMMs' set-up, one thread of one CTA.

def tutorial_program(variant, tid, cta, mnk=(512, 256, 64)):
    """variant: gemm1_nt, gemm1_tn, gemm2_nt, gemm2_tn, sm80_nt, sm80_tn"""
    m, n, k = mnk
    half = variant == 'sm80_tn'
    T = 'half_t' if half else 'float'
    tn = variant.endswith('_tn')
    L = ['int main() {',
         '  // the problem: dynamic extents and leading dimensions',
         '  int M = %d, N = %d, K = %d;' % (m, n, k),
         '  int ldA = %s, ldB = %s, ldC = M;' % (('K', 'K') if tn else ('M', 'N')),
         '  auto prob_shape = make_shape(M, N, K);']
    if tn:
        L += ['  auto dA = make_stride(ldA, Int<1>{});', '  auto dB = make_stride(ldB, Int<1>{});']
    else:
        L += ['  auto dA = make_stride(Int<1>{}, ldA);', '  auto dB = make_stride(Int<1>{}, ldB);']
    L += ['  auto dC = make_stride(Int<1>{}, ldC);',
          '  // the CTA tile (static)',
          '  auto bM = Int<128>{};', '  auto bN = Int<128>{};',
          '  auto bK = Int<%d>{};' % (64 if half else 8),
          '  auto cta_tiler = make_shape(bM, bN, bK);']
    pipe = variant.startswith('sm80')
    if pipe:
        L.append('  auto bP = Int<3>{};')
    ext = lambda a: 'make_shape(%s, bK%s)' % (a, ', bP' if pipe else '')
    if variant == 'sm80_tn':
        L += ['  auto atom = composition(Swizzle<3,3,3>{}, Layout<Shape<_8, Shape<_8,_8>>, Stride<_8, Stride<_1,_64>>>{});',
              '  auto sA_layout = tile_to_shape(atom, %s);' % ext('bM'),
              '  auto sB_layout = tile_to_shape(atom, %s);' % ext('bN')]
    elif variant == 'gemm1_tn':
        L += ['  auto sA_layout = make_layout(make_shape(bM, bK), LayoutRight{});',
              '  auto sB_layout = make_layout(make_shape(bN, bK), LayoutRight{});']
    elif variant == 'gemm2_tn':
        L += ['  auto sA_layout = make_layout(make_shape(bM, bK), make_stride(Int<1>{}, bM + Int<1>{}));',
              '  auto sB_layout = make_layout(make_shape(bN, bK), make_stride(Int<1>{}, bN + Int<1>{}));']
    else:
        L += ['  auto sA_layout = make_layout(%s);' % ext('bM'), '  auto sB_layout = make_layout(%s);' % ext('bN')]
    L += ['  // global memory: tensors over nullptr (the pointers print as offsets)',
          '  %s const* A = nullptr;' % T, '  %s const* B = nullptr;' % T, '  %s* C = nullptr;' % T,
          '  Tensor mA = make_tensor(make_gmem_ptr(A), select<0,2>(prob_shape), dA);',
          '  Tensor mB = make_tensor(make_gmem_ptr(B), select<1,2>(prob_shape), dB);',
          '  Tensor mC = make_tensor(make_gmem_ptr(C), select<0,1>(prob_shape), dC);',
          '  // the CTA (%d,%d) and its tiles' % cta,
          '  auto cta_coord = make_coord(%d, %d, _);' % cta,
          '  Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X,_1>{});',
          '  Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step< X,_1,_1>{});',
          '  Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1,_1, X>{});',
          '  Tensor sA = make_tensor(make_smem_ptr((%s*)nullptr), sA_layout);' % T,
          '  Tensor sB = make_tensor(make_smem_ptr((%s*)nullptr), sB_layout);' % T,
          '  int tid = %d;' % tid]
    P = lambda name: '  print("%4s : "); print(%s); print("\\n");' % (name, name)
    PL = lambda name: '  print("%4s : "); print(%s.layout()); print("\\n");' % (name, name)
    if variant.startswith('gemm1'):
        order = ', LayoutRight{}' if tn else ''
        L += ['  // thread layouts (static)',
              '  auto tA = make_layout(make_shape(Int<32>{}, Int<8>{})%s);' % order,
              '  auto tB = make_layout(make_shape(Int<32>{}, Int<8>{})%s);' % order,
              '  auto tC = make_layout(make_shape(Int<16>{}, Int<16>{}));',
              '  Tensor tAgA = local_partition(gA, tA, tid);',
              '  Tensor tAsA = local_partition(sA, tA, tid);',
              '  Tensor tBgB = local_partition(gB, tB, tid);',
              '  Tensor tBsB = local_partition(sB, tB, tid);',
              '  Tensor tCsA = local_partition(sA, tC, tid, Step<_1, X>{});',
              '  Tensor tCsB = local_partition(sB, tC, tid, Step< X,_1>{});',
              '  Tensor tCgC = local_partition(gC, tC, tid, Step<_1,_1>{});',
              '  Tensor tCrC = make_tensor_like(tCgC);']
        L += [P(x) for x in ('mA', 'gA', 'sA', 'tAgA', 'tAsA', 'mB', 'gB', 'sB', 'tBgB', 'tBsB', 'mC', 'gC',
                             'tCsA', 'tCsB', 'tCgC')] + [PL('tCrC')]
        L.append('  printf("threads %d, grid %d x %d\\n", int(size(tC)), int(size(ceil_div(M, bM))), int(size(ceil_div(N, bN))));')
    else:
        if variant == 'gemm2_nt':
            L += ['  TiledCopy copyA = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{}, Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{});',
                  '  TiledCopy copyB = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{}, Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{});']
        elif variant == 'gemm2_tn':
            L += ['  TiledCopy copyA = make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{}, Layout<Shape<_32,_8>, Stride<_8,_1>>{}, Layout<Shape<_1,_1>>{});',
                  '  TiledCopy copyB = make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{}, Layout<Shape<_32,_8>, Stride<_8,_1>>{}, Layout<Shape<_1,_1>>{});']
        elif variant == 'sm80_nt':
            L += ['  TiledCopy copyA = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, float>{}, Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{});',
                  '  TiledCopy copyB = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, float>{}, Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{});']
        else:
            L += ['  TiledCopy copyA = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>, Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{});',
                  '  TiledCopy copyB = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>, Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{});']
        if variant == 'sm80_tn':
            L.append('  TiledMMA mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2>>{}, Tile<_32,_32,_16>{});')
        else:
            L.append('  TiledMMA mma = make_tiled_mma(UniversalFMA<float,float,float>{}, Layout<Shape<_16,_16,_1>>{});')
        L += ['  ThrCopy thr_copy_a = copyA.get_slice(tid);',
              '  Tensor tAgA = thr_copy_a.partition_S(gA);',
              '  Tensor tAsA = thr_copy_a.partition_D(sA);',
              '  ThrCopy thr_copy_b = copyB.get_slice(tid);',
              '  Tensor tBgB = thr_copy_b.partition_S(gB);',
              '  Tensor tBsB = thr_copy_b.partition_D(sB);',
              '  ThrMMA thr_mma = mma.get_slice(tid);',
              '  Tensor tCgC = thr_mma.partition_C(gC);',
              '  Tensor tCrC = thr_mma.make_fragment_C(tCgC);']
        shown = ['mA', 'gA', 'sA', 'tAgA', 'tAsA', 'mB', 'gB', 'sB', 'tBgB', 'tBsB', 'mC', 'gC']
        if variant == 'sm80_tn':
            L += ['  Tensor tCrA = thr_mma.partition_fragment_A(sA(_,_,0));',
                  '  Tensor tCrB = thr_mma.partition_fragment_B(sB(_,_,0));',
                  '  TiledCopy s2r_copy_a = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);',
                  '  ThrCopy s2r_thr_copy_a = s2r_copy_a.get_slice(tid);',
                  '  Tensor tXsA = s2r_thr_copy_a.partition_S(sA);',
                  '  Tensor tXrA = s2r_thr_copy_a.retile_D(tCrA);',
                  '  TiledCopy s2r_copy_b = make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);',
                  '  ThrCopy s2r_thr_copy_b = s2r_copy_b.get_slice(tid);',
                  '  Tensor tXsB = s2r_thr_copy_b.partition_S(sB);',
                  '  Tensor tXrB = s2r_thr_copy_b.retile_D(tCrB);']
            L += [P(x) for x in shown + ['tCgC', 'tXsA', 'tXsB']] + [PL(x) for x in ('tCrA', 'tCrB', 'tCrC', 'tXrA', 'tXrB')]
        else:
            L += ['  Tensor tArA = make_fragment_like(tAsA);',
                  '  Tensor tCsA = thr_mma.partition_A(sA);',
                  '  Tensor tCsB = thr_mma.partition_B(sB);']
            L += [P(x) for x in shown + ['tCsA', 'tCsB', 'tCgC']] + [PL(x) for x in ('tArA', 'tCrC')]
        if tid == 0:
            L += ['  print(copyA);', '  print(mma);']
        L.append('  printf("block %d, grid %d x %d\\n", int(size(mma)), int(size(ceil_div(M, bM))), int(size(ceil_div(N, bN))));')
    L.append('}')
    return HEAD + '\n'.join(L) + '\n'


TUTORIAL = [('gemm1_nt', [0, 1, 37, 255], [(0, 0), (2, 1)]), ('gemm1_tn', [0, 100, 255], [(0, 0), (3, 1)]),
            ('gemm2_nt', [0, 33, 200], [(0, 0), (1, 1)]), ('gemm2_tn', [0, 17, 255], [(1, 0), (3, 1)]),
            ('sm80_nt', [0, 64, 129], [(0, 0), (2, 1)]), ('sm80_tn', [0, 5, 77, 127], [(0, 0), (1, 1)])]


def tutorial():
    out = []
    for variant, tids, ctas in TUTORIAL:
        for tid in tids:
            for cta in ctas:
                out.append({'id': 'tut-%s-t%d-c%d%d' % (variant, tid, cta[0], cta[1]), 'group': 'tutorial',
                            'program': tutorial_program(variant, tid, cta), 'flags': [],
                            'source': 'examples/cute/tutorial/%s.cu' % {'gemm1': 'sgemm_1', 'gemm2': 'sgemm_2',
                                                                         'sm80': 'sgemm_sm80'}[variant.split('_')[0]]})
    return out


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else ''
    if what not in ('seeds', 'tutorial'):
        sys.exit(__doc__)
    for p in seeds() if what == 'seeds' else tutorial():
        print(json.dumps(p, ensure_ascii=False))


if __name__ == '__main__':
    main()
