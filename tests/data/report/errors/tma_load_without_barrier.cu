// expect: Don't try to execute a copy with SM90_TMA_LOAD before calling .with()
#include <cute/tensor.hpp>
using namespace cute;

template <class Tma>
__global__ void tma_load_without_barrier(CUTE_GRID_CONSTANT Tma const tma, int M, int K) {
  __shared__ alignas(128) float smem[32 * 32];
  Tensor sA = make_tensor(make_smem_ptr(smem), make_layout(make_shape(Int<32>{}, Int<32>{}), LayoutRight{}));
  Tensor mA = tma.get_tma_tensor(make_shape(M, K));
  Tensor gA = local_tile(mA, make_shape(Int<32>{}, Int<32>{}), make_coord(0, 0));
  auto [tAgA, tAsA] = tma_partition(tma, sA, gA);
  if (threadIdx.x == 0) copy(tma, tAgA, tAsA);
}

int main() {
  int M = 64, K = 64;
  float* A;
  cudaMalloc(&A, M * K * sizeof(float));
  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(M, K), make_stride(K, Int<1>{}));
  auto tma = make_tma_atom(SM90_TMA_LOAD{}, mA, make_layout(make_shape(Int<32>{}, Int<32>{}), LayoutRight{}),
                           make_shape(Int<32>{}, Int<32>{}));
  tma_load_without_barrier<<<1, 32>>>(tma, M, K);
  return 0;
}
