// expect: the report follows copies through a TiledCopy
#include <cute/tensor.hpp>
using namespace cute;

__global__ void mma_atom_copy(float const* A) {
  __shared__ float smem[128];
  Tensor gA = make_tensor(make_gmem_ptr(A), make_layout(Int<128>{}));
  Tensor sA = make_tensor(make_smem_ptr(smem), make_layout(Int<128>{}));
  copy(make_layout(Int<4>{}), gA, sA);
}

int main() {
  float* A;
  mma_atom_copy<<<1, 32>>>(A);
  return 0;
}
