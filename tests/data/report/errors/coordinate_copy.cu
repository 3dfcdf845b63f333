// expect: the source is a coordinate tensor
#include <cute/tensor.hpp>
using namespace cute;

__global__ void coordinate_copy(float* Out) {
  __shared__ float smem[128];
  Tensor sA = make_tensor(make_smem_ptr(smem), make_layout(Int<128>{}));
  Tensor cA = make_identity_tensor(make_shape(Int<128>{}));
  copy(cA, sA);
}

int main() {
  float* Out;
  coordinate_copy<<<1, 32>>>(Out);
  return 0;
}
