// expect: the report follows at most that many
#include <cute/tensor.hpp>
using namespace cute;
__global__ void huge(float const* A, float* B) {
  Tensor gA = make_tensor(make_gmem_ptr(A), make_layout(Int<1048576>{}));
  Tensor gB = make_tensor(make_gmem_ptr(B), make_layout(Int<1048576>{}));
  copy(gA, gB);
}
int main() {
  float *A, *B;
  huge<<<1, 1024>>>(A, B);
}
