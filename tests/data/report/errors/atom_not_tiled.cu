// expect: the report follows copies through a TiledCopy
#include <cute/tensor.hpp>
using namespace cute;

__global__ void atom_not_tiled(float const* A) {
  __shared__ float smem[128];
  Tensor gA = make_tensor(make_gmem_ptr(A), make_layout(Int<128>{}));
  Tensor sA = make_tensor(make_smem_ptr(smem), make_layout(Int<128>{}));
  copy(Copy_Atom<UniversalCopy<float>, float>{}, gA, sA);
}

int main() {
  float* A;
  atom_not_tiled<<<1, 32>>>(A);
  return 0;
}
