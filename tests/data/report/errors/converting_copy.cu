// expect: the source holds 32-bit elements and the destination 16-bit ones
#include <cute/tensor.hpp>
using namespace cute;

__global__ void converting_copy(half_t* C, int M) {
  Tensor gC = make_tensor(make_gmem_ptr(C), make_shape(M), make_stride(Int<1>{}));
  Tensor rC = make_tensor<float>(make_shape(Int<4>{}));
  copy(rC, local_tile(gC, make_shape(Int<4>{}), make_coord(threadIdx.x)));
}

int main() {
  half_t* C;
  converting_copy<<<1, 32>>>(C, 128);
  return 0;
}
