// expect: SM80_CP_ASYNC_CACHEALWAYS<uint128_t> copies global to shared memory, not shared to global
#include <cute/tensor.hpp>
using namespace cute;
__global__ void cp_async_to_global(float const* A) {
  __shared__ float smem[128];
  Tensor gA = make_tensor(make_gmem_ptr(A), make_layout(Int<128>{}));
  Tensor sA = make_tensor(make_smem_ptr(smem), make_layout(Int<128>{}));
  copy(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, float>{}, Layout<Shape<_32,_1>>{}, Layout<Shape<_4,_1>>{}), sA, gA);
}
int main() { float* A; cp_async_to_global<<<1, 32>>>(A); }
