#include "cloth/sim/forces.h"

#include <cmath>

#include <glm/geometric.hpp>

namespace cloth::sim {

Vec3 springForce(const Vec3& xa, const Vec3& xb, Real rest, Real k, Real compression) {
  const Vec3 d = xb - xa;
  if (rest == 0) return k * d;
  const Real len = glm::length(d);
  if (len <= 1e-12 * rest) return Vec3(0);
  const Real stiffness = len < rest ? k * compression : k;
  return (stiffness * (len - rest) / len) * d;
}

std::span<const Spring> familySprings(const Cloth& cloth, SpringFamily family) {
  const SpringRange& r = cloth.range(family);
  return std::span<const Spring>(cloth.springs).subspan(r.begin, r.size());
}

void addSpringForces(const Cloth& cloth, const Stiffness& k, std::span<Vec3> f, StencilWork& work) {
  work.prepare(cloth);
  work.x.load(cloth.x);
  work.out.zero();
  stencilSpringForces(work.stencil, k, work.x, nullptr, 0, work.perGroup, work.out);
  work.out.addTo(f);
}

void addSpringForces(const Cloth& cloth, const Stiffness& k, std::span<Vec3> f) {
  StencilWork work;
  addSpringForces(cloth, k, f, work);
}

void addGravity(std::span<const Real> mass, const Vec3& g, std::span<Vec3> f) {
  for (std::size_t i = 0; i < f.size(); ++i) f[i] += mass[i] * g;
}

void addAirDamping(std::span<const Vec3> v, Real c, std::span<Vec3> f) {
  if (c == 0) return;
  for (std::size_t i = 0; i < f.size(); ++i) f[i] -= c * v[i];
}

}  // namespace cloth::sim
