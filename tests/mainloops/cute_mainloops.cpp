// CuTe's own answers for three mainloops, printed per thread as JSON lines:
// what partition_A/B/C (TiledMMA) and partition_S/D (TiledCopy) of the
// local_tile of each operand give, the element offsets and coordinates every
// thread touches, and the identity-tensor predicate at a residue tile.
// Built host-only against CuTe (tests/mainloops/cute_mainloops.py), never
// part of layoutx itself.
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/copy_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>

#include <cstdio>

using namespace cute;

namespace {

// The problem of every mainloop: M = N = K = 1000, so the last CTA tile of
// each mode is a residue tile.
constexpr int kProblem = 1000;

alignas(1024) half_t gmem[kProblem * kProblem];
alignas(1024) half_t smem[128 * 64];

template <class P>
long element_offset(P const& p, half_t const* base) {
  return static_cast<long>(raw_pointer_cast(p) - base);
}

// One line: the partition of the data tensor (layout and data offset), the
// partition of the identity tensor (layout and origin coordinate), then for
// every element of the partition its offset, its coordinate and the predicate
// elem_less(coordinate, problem shape).
template <class TData, class TCoord, class Shape>
void report(char const* loop, char const* part, int thread, TData const& data, half_t const* base,
            TCoord const& coords, Shape const& problem) {
  printf("{\"loop\":\"%s\",\"part\":\"%s\",\"thread\":%d,\"layout\":\"", loop, part, thread);
  print(data.layout());
  printf("\",\"origin\":%ld,\"coord_layout\":\"", element_offset(data.data(), base));
  print(coords.layout());
  printf("\",\"coord_origin\":\"");
  print(coords.data().coord_);
  printf("\",\"offsets\":[");
  for (int i = 0; i < size(data); ++i) printf("%s%ld", i ? "," : "", element_offset(&data(i), base));
  printf("],\"coords\":[");
  for (int i = 0; i < size(coords); ++i) {
    printf("%s\"", i ? "," : "");
    print(coords(i));
    printf("\"");
  }
  printf("],\"pred\":\"");
  for (int i = 0; i < size(coords); ++i) printf("%d", elem_less(coords(i), problem) ? 1 : 0);
  printf("\"}\n");
}

template <class Tensor>
void report_kernel_layout(char const* loop, char const* part, int thread, Tensor const& t, half_t const* base) {
  printf("{\"loop\":\"%s\",\"part\":\"%s\",\"thread\":%d,\"kernel_layout\":\"", loop, part, thread);
  print(t.layout());
  printf("\",\"kernel_origin\":%ld}\n", element_offset(t.data(), base));
}

template <class Tensor>
void report_fragment(char const* loop, char const* part, int thread, Tensor const& t) {
  printf("{\"loop\":\"%s\",\"part\":\"%s\",\"thread\":%d,\"fragment\":\"", loop, part, thread);
  print(t.layout());
  printf("\"}\n");
}

// (a) SM80 16x8x16 fp16 TiledMMA, 2x2x1 warps, permutation tile 32x32x16,
// CTA tile 128x128x32; A (M,K) and B (N,K) K-major (TN), C (M,N) M-major.
void sm80_mma() {
  char const* loop = "sm80_mma";
  int M = kProblem, N = kProblem, K = kProblem;
  auto mA = make_tensor(make_gmem_ptr(gmem), make_shape(M, K), make_stride(K, Int<1>{}));
  auto mB = make_tensor(make_gmem_ptr(gmem), make_shape(N, K), make_stride(K, Int<1>{}));
  auto mC = make_tensor(make_gmem_ptr(gmem), make_shape(M, N), make_stride(Int<1>{}, M));
  auto cA = make_identity_tensor(shape(mA));
  auto cB = make_identity_tensor(shape(mB));
  auto cC = make_identity_tensor(shape(mC));
  auto cta_tiler = make_shape(Int<128>{}, Int<128>{}, Int<32>{});
  auto mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2, _2, _1>>{},
                            Tile<_32, _32, _16>{});
  // The last CTA tile of every mode: (7,7) of M and N, 31 of K.
  auto kernel_coord = make_coord(7, 7, _);
  auto coord = make_coord(7, 7, 31);
  for (int t = 0; t < size(mma); ++t) {
    auto thr = mma.get_slice(t);
    report_kernel_layout(loop, "A", t, thr.partition_A(local_tile(mA, cta_tiler, kernel_coord, Step<_1, X, _1>{})), gmem);
    report_kernel_layout(loop, "B", t, thr.partition_B(local_tile(mB, cta_tiler, kernel_coord, Step<X, _1, _1>{})), gmem);
    auto gA = local_tile(mA, cta_tiler, coord, Step<_1, X, _1>{});
    auto gB = local_tile(mB, cta_tiler, coord, Step<X, _1, _1>{});
    auto gC = local_tile(mC, cta_tiler, coord, Step<_1, _1, X>{});
    report(loop, "A", t, thr.partition_A(gA), gmem, thr.partition_A(local_tile(cA, cta_tiler, coord, Step<_1, X, _1>{})), shape(mA));
    report(loop, "B", t, thr.partition_B(gB), gmem, thr.partition_B(local_tile(cB, cta_tiler, coord, Step<X, _1, _1>{})), shape(mB));
    report(loop, "C", t, thr.partition_C(gC), gmem, thr.partition_C(local_tile(cC, cta_tiler, coord, Step<_1, _1, X>{})), shape(mC));
    report_fragment(loop, "A", t, thr.partition_fragment_A(gA));
    report_fragment(loop, "B", t, thr.partition_fragment_B(gB));
    report_fragment(loop, "C", t, thr.partition_fragment_C(gC));
  }
}

// (b) SM80 cp.async 128-bit G2S copy of a 128x32 K-major tile of A into
// tile_to_shape(Sw<3,3,3> o (8,32):(32,1), (128,32)): 32x4 threads, 8 halves each.
void sm80_cp_async() {
  char const* loop = "sm80_cp_async";
  int M = kProblem, K = kProblem;
  auto mA = make_tensor(make_gmem_ptr(gmem), make_shape(M, K), make_stride(K, Int<1>{}));
  auto cA = make_identity_tensor(shape(mA));
  auto sA_layout = tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}),
                                 Shape<_128, _32>{});
  auto sA = make_tensor(make_smem_ptr(smem), sA_layout);
  auto cS = make_identity_tensor(product_each(shape(sA)));
  auto copy = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t>{},
                              Layout<Shape<_32, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _8>>{});
  auto cta_tiler = make_shape(Int<128>{}, Int<128>{}, Int<32>{});
  auto coord = make_coord(7, 7, 31);
  for (int t = 0; t < size(copy); ++t) {
    auto thr = copy.get_slice(t);
    report_kernel_layout(loop, "S", t, thr.partition_S(local_tile(mA, cta_tiler, make_coord(7, 7, _), Step<_1, X, _1>{})), gmem);
    auto gA = local_tile(mA, cta_tiler, coord, Step<_1, X, _1>{});
    report(loop, "S", t, thr.partition_S(gA), gmem, thr.partition_S(local_tile(cA, cta_tiler, coord, Step<_1, X, _1>{})), shape(mA));
    report(loop, "D", t, thr.partition_D(sA), smem, thr.partition_D(cS), shape(cS));
  }
}

// (c) SM90 64x128x16 fp16 GMMA, one warpgroup, A and B from K-major 128-byte
// swizzled shared memory (64x64 and 128x64 tiles), C (M,N) M-major in gmem.
void sm90_gmma() {
  char const* loop = "sm90_gmma";
  int M = kProblem, N = kProblem;
  auto sA_layout = tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64, _64>{});
  auto sB_layout = tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128, _64>{});
  auto sA = make_tensor(make_smem_ptr(smem), sA_layout);
  auto sB = make_tensor(make_smem_ptr(smem), sB_layout);
  auto cSA = make_identity_tensor(product_each(shape(sA_layout)));
  auto cSB = make_identity_tensor(product_each(shape(sB_layout)));
  auto mC = make_tensor(make_gmem_ptr(gmem), make_shape(M, N), make_stride(Int<1>{}, M));
  auto cC = make_identity_tensor(shape(mC));
  auto mma = make_tiled_mma(SM90_64x128x16_F16F16F16_SS<GMMA::Major::K, GMMA::Major::K>{});
  auto cta_tiler = make_shape(Int<64>{}, Int<128>{}, Int<64>{});
  auto coord = make_coord(15, 7, 0);
  for (int t = 0; t < size(mma); ++t) {
    auto thr = mma.get_slice(t);
    report(loop, "A", t, thr.partition_A(sA), smem, thr.partition_A(cSA), shape(cSA));
    report(loop, "B", t, thr.partition_B(sB), smem, thr.partition_B(cSB), shape(cSB));
    auto gC = local_tile(mC, cta_tiler, coord, Step<_1, _1, X>{});
    report(loop, "C", t, thr.partition_C(gC), gmem, thr.partition_C(local_tile(cC, cta_tiler, coord, Step<_1, _1, X>{})), shape(mC));
    report_fragment(loop, "C", t, thr.partition_fragment_C(gC));
  }
}

}  // namespace

int main() {
  sm80_mma();
  sm80_cp_async();
  sm90_gmma();
  return 0;
}
