#include "layoutx/tiler.hpp"

namespace layoutx {

IntTuple Tiler::profile() const {
  if (kind != Kind::Tuple) return static_int(0);
  std::vector<IntTuple> out;
  for (const auto& m : modes) out.push_back(m.profile());
  return IntTuple(std::move(out));
}

}  // namespace layoutx
