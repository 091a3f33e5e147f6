#include "cloth/sim/forces.h"

#include <algorithm>

#include <glm/geometric.hpp>

#include "cloth/sim/grid_normals.h"
#include "cloth/sim/wind.h"

namespace cloth::sim {

Vec3 springForce(const Vec3& xa, const Vec3& xb, Real rest, Real k, Real compression) {
  const Vec3 d = xb - xa;
  if (rest == 0) return k * d;
  const Real len = glm::length(d);
  if (len <= 1e-12 * rest) return Vec3(0);
  const Real stiffness = springStiffness(len, rest, k, compression);
  return (stiffness * (len - rest) / len) * d;
}

void addSpringForces(const Cloth& cloth, const Stiffness& k, std::span<Vec3> f) {
  for (SpringFamily family : kSpringFamilies) {
    const Real kf = k.of(family);
    for (const Spring& s : cloth.springsOf(family)) {
      const Vec3 fa = springForce(cloth.x[s.a], cloth.x[s.b], s.rest, kf, k.compression);
      f[s.a] += fa;
      f[s.b] -= fa;
    }
  }
}

void addGravity(std::span<const Real> mass, const Vec3& g, std::span<Vec3> f) {
  for (std::size_t i = 0; i < f.size(); ++i) f[i] += mass[i] * g;
}

void addAirDamping(std::span<const Vec3> v, Real c, std::span<Vec3> f) {
  if (c == 0) return;
  for (std::size_t i = 0; i < f.size(); ++i) f[i] -= c * v[i];
}

void computeForces(const Cloth& cloth, const SimParams& params, Real t, ForceWork& work, std::span<Vec3> f) {
  std::fill(f.begin(), f.end(), Vec3(0));
  addSpringForces(cloth, stiffnessOf(params.material), f);
  addGravity(cloth.mass, params.gravity, f);
  addAirDamping(cloth.v, params.material.airDamping, f);
  work.normals.resize(cloth.nodeCount());
  gridNormals<Vec3>(cloth.nu, cloth.nv, cloth.x, work.normals);
  if (work.areaShare.size() != cloth.nodeCount()) work.areaShare = nodeAreaShares(cloth);
  addWindForces(params.wind, windVelocityAt(params.wind, t), cloth.v, work.normals, work.areaShare, f);
}

Stiffness stiffnessOf(const MaterialSettings& m) {
  return {m.kStructural, m.kShear, m.kBending, m.compression};
}

std::vector<Real> nodeStiffness(const Cloth& cloth, const Stiffness& k) {
  std::vector<Real> sum(cloth.nodeCount(), 0.0);
  for (SpringFamily f : kSpringFamilies)
    for (const Spring& s : cloth.springsOf(f)) sum[s.a] += k.of(f), sum[s.b] += k.of(f);
  return sum;
}

}  // namespace cloth::sim
