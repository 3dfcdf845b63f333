// expect: CUDA launches at most 1024 a block
#include <cute/tensor.hpp>
using namespace cute;

__global__ void block_too_large(float const* A, float* B) {
  Tensor gA = make_tensor(make_gmem_ptr(A), make_layout(Int<4>{}));
  Tensor gB = make_tensor(make_gmem_ptr(B), make_layout(Int<4>{}));
  copy(gA, gB);
}

int main() {
  float *A, *B;
  block_too_large<<<1, dim3(1 << 20, 1 << 20, 1 << 20)>>>(A, B);
  return 0;
}
