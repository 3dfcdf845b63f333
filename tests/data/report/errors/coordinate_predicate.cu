// expect: the report follows a register array of bool
#include <cute/tensor.hpp>
using namespace cute;

// copy_if's predicate must be a register array the program fills: an
// identity tensor's coordinates are no predicate the report reads.
__global__ void k(float const* A, float* Out, int M) {
  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(M));
  Tensor mO = make_tensor(make_gmem_ptr(Out), make_shape(M));
  Tensor cA = make_identity_tensor(make_shape(M));
  Tensor tA = local_partition(mA, Layout<_32>{}, threadIdx.x);
  Tensor tO = local_partition(mO, Layout<_32>{}, threadIdx.x);
  Tensor tC = local_partition(cA, Layout<_32>{}, threadIdx.x);
  copy_if(tC, tA, tO);
}

int main() {
  float *A, *Out;
  k<<<1, 32>>>(A, Out, 64);
  return 0;
}
