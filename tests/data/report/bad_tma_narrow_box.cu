// Bad: a TMA box of a row-major half tensor whose rows are 8 halves (16 bytes) long, 512 bytes apart: each row takes a 32-byte sector of which it holds half (warp 0's elected thread issues it; smem and the write-back are clean).
#include <cute/tensor.hpp>
using namespace cute;

template <class Tma>
__global__ void bad_tma_narrow_box(CUTE_GRID_CONSTANT Tma const tma, half_t* Out, int M, int K) {
  auto tile = make_shape(Int<64>{}, Int<8>{});
  __shared__ alignas(128) half_t smem[64 * 8];
  __shared__ uint64_t tma_barrier;
  Tensor sA = make_tensor(make_smem_ptr(smem), make_layout(tile, LayoutRight{}));
  Tensor mA = tma.get_tma_tensor(make_shape(M, K));
  Tensor gA = local_tile(mA, tile, make_coord(blockIdx.x, 0));  // (64,8)
  auto [tAgA, tAsA] = tma_partition(tma, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sA), group_modes<0, 2>(gA));

  if (threadIdx.x == 0) initialize_barrier(tma_barrier, 1);
  __syncthreads();
  // One thread issues the copy: warp 0's elected lane, as CuTe's SM90 tutorial does.
  if (cutlass::canonical_warp_idx_sync() == 0 && cute::elect_one_sync()) {
    set_barrier_transaction_bytes(tma_barrier, 64 * 8 * int(sizeof(half_t)));
    copy(tma.with(tma_barrier), tAgA, tAsA);
  }
  wait_barrier(tma_barrier, 0);

  Tensor mO = make_tensor(make_gmem_ptr(Out), make_shape(M, Int<8>{}), make_stride(Int<8>{}, Int<1>{}));
  Tensor gO = local_tile(mO, tile, make_coord(blockIdx.x, 0));
  TiledCopy s2g = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{},
                                  Layout<Shape<_64, _1>, Stride<_1, _0>>{},
                                  Layout<Shape<_1, _8>>{});
  ThrCopy s2g_thr = s2g.get_slice(threadIdx.x);
  copy(s2g, s2g_thr.partition_S(sA), s2g_thr.partition_D(gO));
}

int main() {
  int M = 64, K = 256;
  half_t *A, *Out;
  cudaMalloc(&A, M * K * sizeof(half_t));
  cudaMalloc(&Out, M * 8 * sizeof(half_t));
  cudaMemset(A, 0, M * K * sizeof(half_t));
  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(M, K), make_stride(K, Int<1>{}));
  auto tma = make_tma_atom(SM90_TMA_LOAD{}, mA, make_layout(make_shape(Int<64>{}, Int<8>{}), LayoutRight{}),
                           make_shape(Int<64>{}, Int<8>{}));
  bad_tma_narrow_box<<<dim3(1), dim3(64)>>>(tma, Out, M, K);
  cudaDeviceSynchronize();
  return 0;
}
