// CuTe's sgemm_sm80 tutorial, NT set-up: float, 128x128x8 tiles, cp.async
// 128-bit gmem->smem with 32x8 threads of 4x1 values (m-major), m-major smem,
// a 16x16x1 UniversalFMA TiledMMA reading its fragments from smem, one stage.
#include <cute/tensor.hpp>
using namespace cute;

__global__ void sgemm_nt(float const* A, float const* B, float* C, int M, int N, int K) {
  auto bM = Int<128>{};
  auto bN = Int<128>{};
  auto bK = Int<8>{};
  auto cta_tiler = make_shape(bM, bN, bK);

  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(M, K), make_stride(Int<1>{}, M));
  Tensor mB = make_tensor(make_gmem_ptr(B), make_shape(N, K), make_stride(Int<1>{}, N));
  Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(M, N), make_stride(Int<1>{}, M));
  auto cta_coord = make_coord(blockIdx.x, blockIdx.y, _);
  Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X, _1>{});  // (BLK_M,BLK_K,k)
  Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step<X, _1, _1>{});  // (BLK_N,BLK_K,k)
  Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1, _1, X>{});  // (BLK_M,BLK_N)

  __shared__ float smemA[128 * 8];
  __shared__ float smemB[128 * 8];
  Tensor sA = make_tensor(make_smem_ptr(smemA), make_layout(make_shape(bM, bK)));  // m-major
  Tensor sB = make_tensor(make_smem_ptr(smemB), make_layout(make_shape(bN, bK)));  // n-major

  TiledCopy copyA = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, float>{},
                                    Layout<Shape<_32, _8>>{},  // 32x8 threads, m-major
                                    Layout<Shape<_4, _1>>{});  // 4x1 values
  TiledCopy copyB = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, float>{},
                                    Layout<Shape<_32, _8>>{},
                                    Layout<Shape<_4, _1>>{});
  TiledMMA mma = make_tiled_mma(UniversalFMA<float, float, float>{}, Layout<Shape<_16, _16, _1>>{});

  ThrCopy thr_copy_a = copyA.get_slice(threadIdx.x);
  Tensor tAgA = thr_copy_a.partition_S(gA);  // (CPY,CPY_M,CPY_K,k)
  Tensor tAsA = thr_copy_a.partition_D(sA);  // (CPY,CPY_M,CPY_K)
  ThrCopy thr_copy_b = copyB.get_slice(threadIdx.x);
  Tensor tBgB = thr_copy_b.partition_S(gB);
  Tensor tBsB = thr_copy_b.partition_D(sB);

  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCsA = thr_mma.partition_A(sA);  // (MMA,MMA_M,MMA_K)
  Tensor tCsB = thr_mma.partition_B(sB);  // (MMA,MMA_N,MMA_K)
  Tensor tCgC = thr_mma.partition_C(gC);  // (MMA,MMA_M,MMA_N)
  Tensor tCrA = thr_mma.partition_fragment_A(sA);
  Tensor tCrB = thr_mma.partition_fragment_B(sB);
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);
  clear(tCrC);

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
      copy(tCsA(_, _, k_block), tCrA(_, _, k_block));
      copy(tCsB(_, _, k_block), tCrB(_, _, k_block));
      gemm(mma, tCrA(_, _, k_block), tCrB(_, _, k_block), tCrC);
    }
    __syncthreads();
  }
  copy(tCrC, tCgC);
}

int main() {
  int M = 128, N = 128, K = 32;
  float *A, *B, *C;
  cudaMalloc(&A, M * K * sizeof(float));
  cudaMalloc(&B, N * K * sizeof(float));
  cudaMalloc(&C, M * N * sizeof(float));
  cudaMemset(A, 0, M * K * sizeof(float));
  cudaMemset(B, 0, N * K * sizeof(float));
  sgemm_nt<<<dim3(1, 1), dim3(256)>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
  return 0;
}
