// Bad: 8 contiguous halves a thread copied with UniversalCopy<half_t>: eight 16-bit loads a thread, each warp load touching 16 sectors for 64 bytes (nvcc may merge the smem stores).
#include <cute/tensor.hpp>
using namespace cute;

__global__ void bad_narrow_half_copy(half_t const* A, half_t* Out, int M, int K) {
  auto tile = make_shape(Int<128>{}, Int<64>{});
  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(M, K), make_stride(Int<1>{}, M));
  Tensor mO = make_tensor(make_gmem_ptr(Out), make_shape(M, K), make_stride(Int<1>{}, M));
  Tensor gA = local_tile(mA, tile, make_coord(blockIdx.x, 0));  // (128,64)
  Tensor gO = local_tile(mO, tile, make_coord(blockIdx.x, 0));

  __shared__ alignas(128) half_t smem[128 * 64];
  Tensor sA = make_tensor(make_smem_ptr(smem), make_layout(tile));

  TiledCopy g2s = make_tiled_copy(Copy_Atom<UniversalCopy<half_t>, half_t>{},
                                  Layout<Shape<_16, _16>>{},
                                  Layout<Shape<_8, _1>>{});
  TiledCopy s2g = make_tiled_copy(Copy_Atom<UniversalCopy<half_t>, half_t>{},
                                  Layout<Shape<_32, _8>>{},
                                  Layout<Shape<_1, _1>>{});

  ThrCopy g2s_thr = g2s.get_slice(threadIdx.x);
  Tensor tAgA = g2s_thr.partition_S(gA);
  Tensor tAsA = g2s_thr.partition_D(sA);
  copy(g2s, tAgA, tAsA);
  __syncthreads();

  ThrCopy s2g_thr = s2g.get_slice(threadIdx.x);
  Tensor tOsA = s2g_thr.partition_S(sA);
  Tensor tOgO = s2g_thr.partition_D(gO);
  copy(s2g, tOsA, tOgO);
}

int main() {
  int M = 128, K = 64;
  half_t *A, *Out;
  cudaMalloc(&A, (M * K + 64) * sizeof(half_t));
  cudaMalloc(&Out, M * K * sizeof(half_t));
  cudaMemset(A, 0, (M * K + 64) * sizeof(half_t));
  bad_narrow_half_copy<<<dim3(1), dim3(256)>>>(A, Out, M, K);
  cudaDeviceSynchronize();
  return 0;
}
