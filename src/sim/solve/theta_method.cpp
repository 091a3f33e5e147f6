#include "cloth/sim/solve/theta_method.h"

namespace cloth::sim {

void applyThetaStep(Cloth& cloth, std::span<const Vec3> dvAtThetaH, Real h, Real theta) {
  for (std::size_t i = 0; i < cloth.x.size(); ++i) {
    cloth.x[i] += h * (cloth.v[i] + dvAtThetaH[i]);
    cloth.v[i] += dvAtThetaH[i] / theta;
  }
}

}  // namespace cloth::sim
