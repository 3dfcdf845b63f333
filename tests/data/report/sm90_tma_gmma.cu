// An SM90 mainloop in the style of CuTe's wgmma_tma_sm90 tutorial (TN): half,
// 64x64x64 tiles, A and B brought into k-major 128-byte-swizzled smem
// (GMMA::Layout_K_SW128_Atom) by TMA completing on an mbarrier, one warpgroup
// issuing SM90_64x64x16_F16F16F16_SS wgmma from smem; one stage.
#include <cute/tensor.hpp>
using namespace cute;

using SmemLayoutA = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<64>{}, Int<64>{})));
using SmemLayoutB = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<64>{}, Int<64>{})));
using TiledMma = decltype(make_tiled_mma(SM90_64x64x16_F16F16F16_SS<GMMA::Major::K, GMMA::Major::K>{}));

template <class TmaA, class TmaB>
__global__ void sm90_tma_gmma(CUTE_GRID_CONSTANT TmaA const tma_a, CUTE_GRID_CONSTANT TmaB const tma_b,
                              half_t* C, int M, int N, int K) {
  auto cta_tiler = make_shape(Int<64>{}, Int<64>{}, Int<64>{});
  Tensor mA = tma_a.get_tma_tensor(make_shape(M, K));
  Tensor mB = tma_b.get_tma_tensor(make_shape(N, K));
  Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(M, N), make_stride(Int<1>{}, M));
  auto cta_coord = make_coord(blockIdx.x, blockIdx.y, _);
  Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X, _1>{});  // (BLK_M,BLK_K,k)
  Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step<X, _1, _1>{});  // (BLK_N,BLK_K,k)
  Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1, _1, X>{});  // (BLK_M,BLK_N)

  __shared__ alignas(1024) half_t smemA[64 * 64];
  __shared__ alignas(1024) half_t smemB[64 * 64];
  __shared__ uint64_t tma_barrier;
  Tensor sA = make_tensor(make_smem_ptr(smemA), SmemLayoutA{});
  Tensor sB = make_tensor(make_smem_ptr(smemB), SmemLayoutB{});

  auto [tAgA, tAsA] = tma_partition(tma_a, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sA), group_modes<0, 2>(gA));
  auto [tBgB, tBsB] = tma_partition(tma_b, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sB), group_modes<0, 2>(gB));
  constexpr int tma_transaction_bytes = 2 * 64 * 64 * int(sizeof(half_t));

  TiledMma mma;
  ThrMMA thr_mma = mma.get_thread_slice(threadIdx.x);
  Tensor tCsA = thr_mma.partition_A(sA);  // (MMA,MMA_M,MMA_K)
  Tensor tCsB = thr_mma.partition_B(sB);  // (MMA,MMA_N,MMA_K)
  Tensor tCgC = thr_mma.partition_C(gC);  // (MMA,MMA_M,MMA_N)
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);
  clear(tCrC);
  Tensor tCrA = thr_mma.make_fragment_A(tCsA);  // smem descriptors
  Tensor tCrB = thr_mma.make_fragment_B(tCsB);

  if (threadIdx.x == 0) initialize_barrier(tma_barrier, 1);
  __syncthreads();

  int phase = 0;
  int k_tile_max = size<1>(tAgA);
  for (int k_tile = 0; k_tile < k_tile_max; ++k_tile) {
    if (threadIdx.x == 0) {
      set_barrier_transaction_bytes(tma_barrier, tma_transaction_bytes);
      copy(tma_a.with(tma_barrier), tAgA(_, k_tile), tAsA);
      copy(tma_b.with(tma_barrier), tBgB(_, k_tile), tBsB);
    }
    wait_barrier(tma_barrier, phase);
    phase ^= 1;
    warpgroup_fence_operand(tCrC);
    warpgroup_arrive();
    gemm(mma, tCrA, tCrB, tCrC);
    warpgroup_commit_batch();
    warpgroup_wait<0>();
    warpgroup_fence_operand(tCrC);
    __syncthreads();
  }
  copy(tCrC, tCgC);
}

int main() {
  int M = 64, N = 64, K = 256;
  half_t *A, *B, *C;
  cudaMalloc(&A, M * K * sizeof(half_t));
  cudaMalloc(&B, N * K * sizeof(half_t));
  cudaMalloc(&C, M * N * sizeof(half_t));
  cudaMemset(A, 0, M * K * sizeof(half_t));
  cudaMemset(B, 0, N * K * sizeof(half_t));
  Tensor mA = make_tensor(A, make_shape(M, K), make_stride(K, Int<1>{}));
  Tensor mB = make_tensor(B, make_shape(N, K), make_stride(K, Int<1>{}));
  auto tmaA = make_tma_atom(SM90_TMA_LOAD{}, mA, SmemLayoutA{}, make_shape(Int<64>{}, Int<64>{}));
  auto tmaB = make_tma_atom(SM90_TMA_LOAD{}, mB, SmemLayoutB{}, make_shape(Int<64>{}, Int<64>{}));
  sm90_tma_gmma<<<dim3(1, 1), dim3(128)>>>(tmaA, tmaB, C, M, N, K);
  cudaDeviceSynchronize();
  return 0;
}
