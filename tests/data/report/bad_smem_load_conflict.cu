// Bad: m-major smem (column stride 128 floats) read back by threads walking k: every lane of a load in the same bank.
#include <cute/tensor.hpp>
using namespace cute;

__global__ void bad_smem_load_conflict(float const* A, float* Out, int M, int K) {
  auto tile = make_shape(Int<128>{}, Int<32>{});
  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(M, K), make_stride(Int<1>{}, M));
  Tensor mO = make_tensor(make_gmem_ptr(Out), make_shape(M, K), make_stride(K, Int<1>{}));
  Tensor gA = local_tile(mA, tile, make_coord(blockIdx.x, 0));  // (128,32)
  Tensor gO = local_tile(mO, tile, make_coord(blockIdx.x, 0));

  __shared__ alignas(128) float smem[128 * 32];
  Tensor sA = make_tensor(make_smem_ptr(smem), make_layout(tile));

  TiledCopy g2s = make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{},
                                  Layout<Shape<_32, _8>>{},
                                  Layout<Shape<_1, _1>>{});
  TiledCopy s2g = make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{},
                                  Layout<Shape<_8, _32>, Stride<_32, _1>>{},
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
  int M = 128, K = 32;
  float *A, *Out;
  cudaMalloc(&A, (M * K + 64) * sizeof(float));
  cudaMalloc(&Out, M * K * sizeof(float));
  cudaMemset(A, 0, (M * K + 64) * sizeof(float));
  bad_smem_load_conflict<<<dim3(1), dim3(256)>>>(A, Out, M, K);
  cudaDeviceSynchronize();
  return 0;
}
