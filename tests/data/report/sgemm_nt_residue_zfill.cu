// The residue CTA of CuTe's sgemm_sm80 NT mainloop loaded with the zero-fill
// cp.async: copy_if through SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint128_t> hands
// each vector's predicate to the instruction (CuTe's Copy_Traits::with(bool)),
// which writes zeros to shared memory where it is false instead of skipping
// the copy. M, N, K and the predicate as in sgemm_nt_residue_cp_async.cu; B
// here is predicated too.
#include <cute/tensor.hpp>
using namespace cute;

__global__ void sgemm_nt_residue_zfill(float const* A, float const* B, int M, int N, int K) {
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
  Tensor cB = make_identity_tensor(shape(mB));
  Tensor gcB = local_tile(cB, cta_tiler, cta_coord, Step<X, _1, _1>{});

  __shared__ alignas(128) float smemA[128 * 8];
  __shared__ alignas(128) float smemB[128 * 8];
  Tensor sA = make_tensor(make_smem_ptr(smemA), make_layout(make_shape(bM, bK)));
  Tensor sB = make_tensor(make_smem_ptr(smemB), make_layout(make_shape(bN, bK)));

  TiledCopy copyA = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint128_t>, float>{},
                                    Layout<Shape<_32, _8>>{},  // 32x8 threads, m-major
                                    Layout<Shape<_4, _1>>{});  // 4x1 values
  TiledCopy copyB = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint128_t>, float>{},
                                    Layout<Shape<_32, _8>>{},
                                    Layout<Shape<_4, _1>>{});

  ThrCopy thr_copy_a = copyA.get_slice(threadIdx.x);
  Tensor tAgA = thr_copy_a.partition_S(gA);   // (CPY,CPY_M,CPY_K,k)
  Tensor tAsA = thr_copy_a.partition_D(sA);   // (CPY,CPY_M,CPY_K)
  Tensor tAcA = thr_copy_a.partition_S(gcA);  // (CPY,CPY_M,CPY_K,k)
  ThrCopy thr_copy_b = copyB.get_slice(threadIdx.x);
  Tensor tBgB = thr_copy_b.partition_S(gB);
  Tensor tBsB = thr_copy_b.partition_D(sB);
  Tensor tBcB = thr_copy_b.partition_S(gcB);

  // One predicate a vector: (CPY_M,CPY_K), broadcast over the vector's values.
  Tensor tApA = make_tensor<bool>(make_shape(size<1>(tAsA), size<2>(tAsA)));
  Tensor tBpB = make_tensor<bool>(make_shape(size<1>(tBsB), size<2>(tBsB)));

  int k_tile_max = size<3>(tAgA);
  for (int k_tile = 0; k_tile < k_tile_max; ++k_tile) {
    for (int m = 0; m < size<0>(tApA); ++m)
      for (int k = 0; k < size<1>(tApA); ++k)
        tApA(m, k) = elem_less(tAcA(0, m, k, k_tile), shape(mA));
    for (int n = 0; n < size<0>(tBpB); ++n)
      for (int k = 0; k < size<1>(tBpB); ++k)
        tBpB(n, k) = elem_less(tBcB(0, n, k, k_tile), shape(mB));
    copy_if(copyA, tApA, tAgA(_, _, _, k_tile), tAsA);
    copy_if(copyB, tBpB, tBgB(_, _, _, k_tile), tBsB);
    cp_async_fence();
    cp_async_wait<0>();
    __syncthreads();
  }
}

int main() {
  int M = 100, N = 100, K = 20;
  float *A, *B;
  cudaMalloc(&A, M * K * sizeof(float));
  cudaMalloc(&B, N * K * sizeof(float));
  cudaMemset(A, 0, M * K * sizeof(float));
  cudaMemset(B, 0, N * K * sizeof(float));
  sgemm_nt_residue_zfill<<<dim3(1, 1), dim3(256)>>>(A, B, M, N, K);
  cudaDeviceSynchronize();
  return 0;
}
