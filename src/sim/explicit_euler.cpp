#include "cloth/sim/explicit_euler.h"

namespace cloth::sim {

void stepExplicit(Cloth& cloth, Real h, std::span<const Vec3> force) {
  for (std::size_t i = 0; i < cloth.v.size(); ++i)
    if (cloth.kind[i] == NodeKind::Free) cloth.v[i] += (h / cloth.mass[i]) * force[i];
  advancePositions(cloth, h);
}

}  // namespace cloth::sim
