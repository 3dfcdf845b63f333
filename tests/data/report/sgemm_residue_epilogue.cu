// The predicated epilogue of CuTe's sgemm tutorial for the residue CTA: a
// 16x16-thread UniversalFMA TiledMMA's 128x128 accumulator tile written to C
// (column-major, M=100, N=60) with copy_if, each element guarded by
// elem_less of its coordinate (an identity tensor partitioned like C) against
// mC's shape. Masked elements issue no store.
#include <cute/tensor.hpp>
using namespace cute;

__global__ void sgemm_residue_epilogue(float* C, int M, int N) {
  auto cta_tiler = make_shape(Int<128>{}, Int<128>{}, Int<8>{});
  Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(M, N), make_stride(Int<1>{}, M));
  auto cta_coord = make_coord(blockIdx.x, blockIdx.y, _);
  Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1, _1, X>{});  // (BLK_M,BLK_N)
  Tensor cC = make_identity_tensor(shape(mC));
  Tensor gcC = local_tile(cC, cta_tiler, cta_coord, Step<_1, _1, X>{});

  TiledMMA mma = make_tiled_mma(UniversalFMA<float, float, float>{}, Layout<Shape<_16, _16, _1>>{});
  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCgC = thr_mma.partition_C(gC);   // (MMA,MMA_M,MMA_N)
  Tensor tCcC = thr_mma.partition_C(gcC);  // (MMA,MMA_M,MMA_N)
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);
  clear(tCrC);

  Tensor tCpC = make_tensor<bool>(shape(tCcC));
  for (int i = 0; i < size(tCpC); ++i) tCpC(i) = elem_less(tCcC(i), shape(mC));
  copy_if(tCpC, tCrC, tCgC);
}

int main() {
  int M = 100, N = 60;
  float* C;
  cudaMalloc(&C, M * N * sizeof(float));
  sgemm_residue_epilogue<<<dim3(1, 1), dim3(256)>>>(C, M, N);
  cudaDeviceSynchronize();
  return 0;
}
