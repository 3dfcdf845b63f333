// A 100-line CuTe program (layouts, algebra, swizzles, loops and printf) for
// bench/run.sh: `layoutx run` answers it against g++ compiling it.
#include <cstdio>
#include <cute/tensor.hpp>
using namespace cute;

constexpr int kBlockM = 128;
constexpr int kBlockN = 128;
constexpr int kBlockK = 32;
using SmemAtom = decltype(composition(Swizzle<3, 3, 3>{},
                                      make_layout(make_shape(Int<8>{}, Int<64>{}), make_stride(Int<64>{}, Int<1>{}))));
using SmemLayoutA = decltype(tile_to_shape(SmemAtom{}, make_shape(Int<kBlockM>{}, Int<64>{})));

int checksum(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s = (s * 31 + i) % 1000003;
  return s;
}

int main() {
  int M = 5120, N = 4096, K = 4096;
  auto prob_shape = make_shape(M, N, K);
  auto cta_tiler = make_shape(Int<kBlockM>{}, Int<kBlockN>{}, Int<kBlockK>{});
  auto dA = make_stride(Int<1>{}, M);
  auto dB = make_stride(Int<1>{}, N);
  auto dC = make_stride(Int<1>{}, M);
  print(prob_shape);
  printf("\n");
  print(cta_tiler);
  printf("\n");
  print(dA);
  print(" ");
  print(dB);
  print(" ");
  print(dC);
  printf("\n");

  auto mA = make_layout(select<0, 2>(prob_shape), dA);
  auto mB = make_layout(select<1, 2>(prob_shape), dB);
  auto tiles_A = zipped_divide(mA, select<0, 2>(cta_tiler));
  auto tiles_B = zipped_divide(mB, select<1, 2>(cta_tiler));
  print(tiles_A);
  printf("\n");
  print(tiles_B);
  printf("\n");
  printf("tiles: %d x %d x %d\n", int(ceil_div(M, kBlockM)), int(ceil_div(N, kBlockN)), int(ceil_div(K, kBlockK)));

  auto sA = make_layout(make_shape(Int<kBlockM>{}, Int<kBlockK>{}));
  auto sB = make_layout(make_shape(Int<kBlockN>{}, Int<kBlockK>{}), LayoutRight{});
  auto tA = make_layout(make_shape(Int<32>{}, Int<8>{}));
  print(sA);
  printf("\n");
  print(sB);
  printf("\n");
  print(tA);
  printf("\n");
  print(logical_divide(sA, make_shape(Int<32>{}, Int<8>{})));
  printf("\n");
  print(zipped_divide(sB, make_shape(Int<16>{}, Int<8>{})));
  printf("\n");

  // The swizzled shared-memory layout and a few of its offsets.
  print(SmemAtom{});
  printf("\n");
  print(SmemLayoutA{});
  printf("\n");
  printf("size %d cosize %d\n", int(size(SmemLayoutA{})), int(cosize(SmemLayoutA{})));
  auto smem = SmemLayoutA{};
  for (int i = 0; i < 64; i += 9) printf("smem(%2d) = %4d\n", i, int(smem(i)));
  print_layout(composition(Swizzle<2, 0, 2>{}, make_layout(make_shape(_4{}, _4{}), LayoutRight{})));

  // Products and inverses.
  auto tile = make_layout(make_shape(_2{}, _4{}), make_stride(_4{}, _1{}));
  auto grid = make_layout(make_shape(_3{}, _2{}));
  print(blocked_product(tile, grid));
  printf("\n");
  print(raked_product(tile, grid));
  printf("\n");
  print(logical_product(tile, grid));
  printf("\n");
  print(right_inverse(tile));
  printf("\n");
  print(left_inverse(tile));
  printf("\n");
  print(complement(tile, _32{}));
  printf("\n");
  print(coalesce(make_layout(make_shape(_2{}, _4{}, _8{}))));
  printf("\n");
  print(composition(make_layout(make_shape(_8{}, _8{}), LayoutRight{}), tile));
  printf("\n");
  print_layout(blocked_product(tile, grid));

  // A thread's coordinates in a 16x16 thread layout, as a kernel computes them.
  auto tC = make_layout(make_shape(Int<16>{}, Int<16>{}));
  for (int tid = 0; tid < 256; tid += 37) {
    auto crd = make_coord(tid % 16, tid / 16);
    printf("thread %3d -> (%2d,%2d) -> %3d\n", tid, int(get<0>(crd)), int(get<1>(crd)), int(tC(crd)));
  }

  // Loops over a layout, with C arithmetic.
  auto L = make_layout(make_shape(4, make_shape(2, 3)), make_stride(6, make_stride(1, 2)));
  int total = 0, odd = 0;
  for (int i = 0; i < size(L); ++i) {
    int v = L(i);
    total += v;
    if (v % 2 == 1) ++odd;
  }
  printf("total %d, odd %d, mean %.3f\n", total, odd, double(total) / size(L));
  int k = 0;
  while (k * k < 200) ++k;
  printf("k = %d, checksum %d\n", k, checksum(1000));
  for (int s : {1, 2, 4, 8}) {
    auto lay = make_layout(make_shape(s, 8 / s));
    print(lay);
    printf(s == 8 ? "\n" : " ");
  }
  static_assert(kBlockM % kBlockK == 0, "tiles divide");
  CUTE_STATIC_ASSERT_V(size(SmemLayoutA{}) == Int<kBlockM * 64>{});
  printf("%-8s|%8s|%08.3f|%x\n", "left", "right", 3.14159, 48879);
  return 0;
}
