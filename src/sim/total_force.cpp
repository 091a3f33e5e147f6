#include "cloth/sim/total_force.h"

#include <algorithm>

#include "cloth/sim/wind.h"

namespace cloth::sim {

void externalForces(const Cloth& cloth, const SimParams& params, Real t, StencilWork& work, NodeArrays& out) {
  const Vec3 g = params.gravity;
  const Real c = params.material.airDamping;
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i) {
    const Real m = cloth.mass[i];
    out.x[i] = m * g.x - c * work.v.x[i];
    out.y[i] = m * g.y - c * work.v.y[i];
    out.z[i] = m * g.z - c * work.v.z[i];
  }
  const WindSettings& wind = params.wind;
  if (wind.model == WindModel::KangDragLift) computeNodeNormals(cloth, work.x, work.normals);
  addWindForces(wind, windVelocityAt(wind, t), work.v, work.normals, out);
}

void computeTotalForce(const Cloth& cloth, const SimParams& params, Real t, std::span<Vec3> force,
                       StencilWork& work) {
  work.prepare(cloth);
  work.x.load(cloth.x);
  work.v.load(cloth.v);
  externalForces(cloth, params, t, work, work.out);
  stencilSpringForces(work.stencil, stiffnessOf(params.material), work.x, nullptr, 0, work.perGroup, work.out);
  work.out.store(force);
}

Stiffness stiffnessOf(const MaterialSettings& m) { return {m.kStructural, m.kShear, m.kBending, m.compression}; }

}  // namespace cloth::sim
