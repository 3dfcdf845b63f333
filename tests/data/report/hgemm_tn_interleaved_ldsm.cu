// CuTe's sgemm_sm80 tutorial, TN HGEMM set-up: half, 128x128x64 tiles,
// cp.async 128-bit gmem->smem with 16x8 threads of 1x8 values (k-major),
// smem k-major in the tutorial's 8x64 atoms without their swizzle (8x8 blocks),
// SM80_16x8x16 MMA atoms 2x2 (Tile<_32,_32,_16>), smem->register by ldmatrix x4.
#include <cute/tensor.hpp>
using namespace cute;

__global__ void hgemm_tn_interleaved_ldsm(half_t const* A, half_t const* B, half_t* C, int M, int N, int K) {
  auto bM = Int<128>{};
  auto bN = Int<128>{};
  auto bK = Int<64>{};
  auto cta_tiler = make_shape(bM, bN, bK);

  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(M, K), make_stride(K, Int<1>{}));
  Tensor mB = make_tensor(make_gmem_ptr(B), make_shape(N, K), make_stride(K, Int<1>{}));
  Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(M, N), make_stride(Int<1>{}, M));
  auto cta_coord = make_coord(blockIdx.x, blockIdx.y, _);
  Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X, _1>{});
  Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step<X, _1, _1>{});
  Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1, _1, X>{});

  auto smem_atom = Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{};
  auto sA_layout = tile_to_shape(smem_atom, make_shape(bM, bK));
  auto sB_layout = tile_to_shape(smem_atom, make_shape(bN, bK));
  __shared__ alignas(128) half_t smemA[128 * 64];
  __shared__ alignas(128) half_t smemB[128 * 64];
  Tensor sA = make_tensor(make_smem_ptr(smemA), sA_layout);
  Tensor sB = make_tensor(make_smem_ptr(smemB), sB_layout);

  TiledCopy copyA = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                                    Layout<Shape<_16, _8>, Stride<_8, _1>>{},  // 16x8 threads, k-major
                                    Layout<Shape<_1, _8>>{});                  // 1x8 values
  TiledCopy copyB = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                                    Layout<Shape<_16, _8>, Stride<_8, _1>>{},
                                    Layout<Shape<_1, _8>>{});
  TiledMMA mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{},
                                Layout<Shape<_2, _2>>{},  // 2x2x1 MMA atoms
                                Tile<_32, _32, _16>{});   // 32x32x16 tiled MMA for LDSM

  ThrCopy thr_copy_a = copyA.get_slice(threadIdx.x);
  Tensor tAgA = thr_copy_a.partition_S(gA);  // (CPY,CPY_M,CPY_K,k)
  Tensor tAsA = thr_copy_a.partition_D(sA);  // (CPY,CPY_M,CPY_K)
  ThrCopy thr_copy_b = copyB.get_slice(threadIdx.x);
  Tensor tBgB = thr_copy_b.partition_S(gB);
  Tensor tBsB = thr_copy_b.partition_D(sB);

  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCgC = thr_mma.partition_C(gC);            // (MMA,MMA_M,MMA_N)
  Tensor tCrA = thr_mma.partition_fragment_A(sA);   // (MMA,MMA_M,MMA_K)
  Tensor tCrB = thr_mma.partition_fragment_B(sB);   // (MMA,MMA_N,MMA_K)
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);
  clear(tCrC);

  TiledCopy s2r_copy_a = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
  ThrCopy s2r_thr_copy_a = s2r_copy_a.get_slice(threadIdx.x);
  Tensor tXsA = s2r_thr_copy_a.partition_S(sA);  // (CPY,MMA_M,MMA_K)
  Tensor tXrA = s2r_thr_copy_a.retile_D(tCrA);
  TiledCopy s2r_copy_b = make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
  ThrCopy s2r_thr_copy_b = s2r_copy_b.get_slice(threadIdx.x);
  Tensor tXsB = s2r_thr_copy_b.partition_S(sB);  // (CPY,MMA_N,MMA_K)
  Tensor tXrB = s2r_thr_copy_b.retile_D(tCrB);

  auto K_BLOCK_MAX = size<2>(tCrA);
  int k_tile_max = size<3>(tAgA);
  for (int k_tile = 0; k_tile < k_tile_max; ++k_tile) {
    copy(copyA, tAgA(_, _, _, k_tile), tAsA);
    copy(copyB, tBgB(_, _, _, k_tile), tBsB);
    cp_async_fence();
    cp_async_wait<0>();
    __syncthreads();
    CUTE_UNROLL
    for (int k_block = 0; k_block < K_BLOCK_MAX; ++k_block) {
      copy(s2r_copy_a, tXsA(_, _, k_block), tXrA(_, _, k_block));
      copy(s2r_copy_b, tXsB(_, _, k_block), tXrB(_, _, k_block));
      gemm(mma, tCrA(_, _, k_block), tCrB(_, _, k_block), tCrC);
    }
    __syncthreads();
  }
  copy(tCrC, tCgC);
}

int main() {
  int M = 128, N = 128, K = 128;
  half_t *A, *B, *C;
  cudaMalloc(&A, M * K * sizeof(half_t));
  cudaMalloc(&B, N * K * sizeof(half_t));
  cudaMalloc(&C, M * N * sizeof(half_t));
  cudaMemset(A, 0, M * K * sizeof(half_t));
  cudaMemset(B, 0, N * K * sizeof(half_t));
  hgemm_tn_interleaved_ldsm<<<dim3(1, 1), dim3(128)>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
  return 0;
}
