// A wrong residue predicate: the sgemm_nt_residue_cp_async set-up with A's
// predicate comparing only the m coordinate with M, so the last k-tile's
// columns past K are copied (the report's out-of-bounds finding, its fix
// the predicate). B is loaded without a predicate, as there. Both
// allocations are padded to whole tiles, so the GPU reads memory it owns.
#include <cute/tensor.hpp>
using namespace cute;

__global__ void sgemm_nt_residue_m_only(float const* A, float const* B, int M, int N, int K) {
  auto bM = Int<128>{};
  auto bN = Int<128>{};
  auto bK = Int<8>{};
  auto cta_tiler = make_shape(bM, bN, bK);

  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(M, K), make_stride(Int<1>{}, M));
  Tensor mB = make_tensor(make_gmem_ptr(B), make_shape(N, K), make_stride(Int<1>{}, N));
  auto cta_coord = make_coord(blockIdx.x, blockIdx.y, _);
  Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X, _1>{});  // (BLK_M,BLK_K,k)
  Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step<X, _1, _1>{});  // (BLK_N,BLK_K,k)
  Tensor cA = make_identity_tensor(shape(mA));                          // (m,k) -> (m,k)
  Tensor gcA = local_tile(cA, cta_tiler, cta_coord, Step<_1, X, _1>{});  // (BLK_M,BLK_K,k)

  __shared__ alignas(128) float smemA[128 * 8];
  __shared__ alignas(128) float smemB[128 * 8];
  Tensor sA = make_tensor(make_smem_ptr(smemA), make_layout(make_shape(bM, bK)));
  Tensor sB = make_tensor(make_smem_ptr(smemB), make_layout(make_shape(bN, bK)));

  TiledCopy copyA = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, float>{},
                                    Layout<Shape<_32, _8>>{},  // 32x8 threads, m-major
                                    Layout<Shape<_4, _1>>{});  // 4x1 values
  TiledCopy copyB = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, float>{},
                                    Layout<Shape<_32, _8>>{},
                                    Layout<Shape<_4, _1>>{});

  ThrCopy thr_copy_a = copyA.get_slice(threadIdx.x);
  Tensor tAgA = thr_copy_a.partition_S(gA);   // (CPY,CPY_M,CPY_K,k)
  Tensor tAsA = thr_copy_a.partition_D(sA);   // (CPY,CPY_M,CPY_K)
  Tensor tAcA = thr_copy_a.partition_S(gcA);  // (CPY,CPY_M,CPY_K,k)
  ThrCopy thr_copy_b = copyB.get_slice(threadIdx.x);
  Tensor tBgB = thr_copy_b.partition_S(gB);
  Tensor tBsB = thr_copy_b.partition_D(sB);

  // One predicate a vector, of m alone: k is left unguarded.
  Tensor tApA = make_tensor<bool>(make_shape(size<1>(tAsA), size<2>(tAsA)));

  int k_tile_max = size<3>(tAgA);
  for (int k_tile = 0; k_tile < k_tile_max; ++k_tile) {
    for (int m = 0; m < size<0>(tApA); ++m)
      for (int k = 0; k < size<1>(tApA); ++k)
        tApA(m, k) = get<0>(tAcA(0, m, k, k_tile)) < M;
    copy_if(copyA, tApA, tAgA(_, _, _, k_tile), tAsA);
    copy(copyB, tBgB(_, _, _, k_tile), tBsB);
    cp_async_fence();
    cp_async_wait<0>();
    __syncthreads();
  }
}

int main() {
  int M = 100, N = 100, K = 20;
  float *A, *B;
  cudaMalloc(&A, M * 24 * sizeof(float));
  cudaMalloc(&B, 128 * 24 * sizeof(float));
  cudaMemset(A, 0, M * 24 * sizeof(float));
  cudaMemset(B, 0, 128 * 24 * sizeof(float));
  sgemm_nt_residue_m_only<<<dim3(1, 1), dim3(256)>>>(A, B, M, N, K);
  cudaDeviceSynchronize();
  return 0;
}
