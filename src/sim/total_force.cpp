#include "cloth/sim/total_force.h"

#include <algorithm>

#include "cloth/sim/forces.h"
#include "cloth/sim/wind.h"

namespace cloth::sim {

void computeTotalForce(const Cloth& cloth, const SimParams& params, Real t, std::span<Vec3> normals,
                       std::span<Vec3> force) {
  std::fill(force.begin(), force.end(), Vec3(0));
  addSpringForces(cloth, stiffnessOf(params.material), force);
  addGravity(cloth.mass, params.gravity, force);
  addAirDamping(cloth.v, params.material.airDamping, force);
  const WindSettings& wind = params.wind;
  if (wind.model == WindModel::KangDragLift) computeNodeNormals(cloth.x, cloth.triangles, normals);
  addWindForces(wind, windVelocityAt(wind, t), cloth.v, normals, force);
}

Stiffness stiffnessOf(const MaterialSettings& m) { return {m.kStructural, m.kShear, m.kBending, m.compression}; }

}  // namespace cloth::sim
