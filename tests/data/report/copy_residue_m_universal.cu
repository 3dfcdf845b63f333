// The residue in M of a 128x8 tile of A (column-major, M=100), loaded to
// shared memory through 32-bit UniversalCopy by 32x8 threads, predicated as
// CuTe's sgemm_sm80 tutorial does: a (CPY_M,CPY_K) bool tensor of stride 0
// along k, filled from the tile's identity-tensor coordinates against the
// residue M - m0. The tile then goes back to a whole 128x8 output.
#include <cute/tensor.hpp>
using namespace cute;

__global__ void copy_residue_m(float const* A, float* Out, int M, int K) {
  auto tile = make_shape(Int<128>{}, Int<8>{});
  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(M, K), make_stride(Int<1>{}, M));
  Tensor mO = make_tensor(make_gmem_ptr(Out), make_layout(tile));
  Tensor gA = local_tile(mA, tile, make_coord(blockIdx.x, 0));  // (128,8)
  Tensor cA = make_identity_tensor(tile);                       // the tile's own coordinates
  int residue_m = M - int(blockIdx.x) * 128;

  __shared__ alignas(128) float smem[128 * 8];
  Tensor sA = make_tensor(make_smem_ptr(smem), make_layout(tile));

  TiledCopy g2s = make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{},
                                  Layout<Shape<_32, _8>>{},
                                  Layout<Shape<_1, _1>>{});
  ThrCopy g2s_thr = g2s.get_slice(threadIdx.x);
  Tensor tAgA = g2s_thr.partition_S(gA);  // (CPY,CPY_M,CPY_K)
  Tensor tAsA = g2s_thr.partition_D(sA);
  Tensor tAcA = g2s_thr.partition_S(cA);
  Tensor tApA = make_tensor<bool>(make_shape(size<1>(tAsA), size<2>(tAsA)), make_stride(Int<1>{}, Int<0>{}));
  for (int m = 0; m < size<0>(tApA); ++m) tApA(m, 0) = get<0>(tAcA(0, m, 0)) < residue_m;
  copy_if(g2s, tApA, tAgA, tAsA);
  __syncthreads();

  Tensor tOsA = g2s_thr.partition_S(sA);
  Tensor tOgO = g2s_thr.partition_D(mO);
  copy(g2s, tOsA, tOgO);
}

int main() {
  int M = 100, K = 8;
  float *A, *Out;
  cudaMalloc(&A, M * K * sizeof(float));
  cudaMalloc(&Out, 128 * 8 * sizeof(float));
  cudaMemset(A, 0, M * K * sizeof(float));
  copy_residue_m<<<dim3(1), dim3(256)>>>(A, Out, M, K);
  cudaDeviceSynchronize();
  return 0;
}
