#include "cloth/sim/solve/explicit_euler.h"

#include <cmath>
#include <limits>
#include <vector>

#include "cloth/sim/forces.h"

namespace cloth::sim {

void stepExplicit(Cloth& cloth, Real h, std::span<const Vec3> force) {
  for (std::size_t i = 0; i < cloth.v.size(); ++i)
    if (cloth.kind[i] == NodeKind::Free) cloth.v[i] += (h / cloth.mass[i]) * force[i];
  advancePositions(cloth, h);
}

Real explicitStableStep(const Cloth& cloth, const Stiffness& k) {
  const std::vector<Real> sum = nodeStiffness(cloth, k);
  Real step = std::numeric_limits<Real>::infinity();
  for (std::size_t i = 0; i < sum.size(); ++i)
    if (cloth.kind[i] == NodeKind::Free && sum[i] > 0)
      step = std::min(step, 2 * std::sqrt(cloth.mass[i] / sum[i]));
  return step;
}

}  // namespace cloth::sim
