// blocked_product: the 2x4 tile `inner`, repeated as `outer` orders the tiles.
#include <cute/tensor.hpp>
using namespace cute;
int main() {
  auto inner = make_layout(Shape<_2, _4>{}, Stride<_4, _1>{});
  auto outer = make_layout(Shape<_2, _2>{}, Stride<_2, _1>{});
  auto result = blocked_product(inner, outer);
  print(result); printf("\n");
  print_layout(result);
  for (int i = 0; i < 4; ++i) printf("result(%d) = %d\n", i, int(result(i)));
}
