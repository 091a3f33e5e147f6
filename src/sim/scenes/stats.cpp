#include "cloth/sim/scenes/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>

namespace cloth::sim {

Real kineticEnergy(const Cloth& cloth) {
  Real e = 0;
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i)
    e += 0.5 * cloth.mass[i] * glm::dot(cloth.v[i], cloth.v[i]);
  return e;
}

Real springEnergy(const Cloth& cloth, const Stiffness& k) {
  Real e = 0;
  for (SpringFamily fam : kSpringFamilies) {
    const Real kf = k.of(fam);
    for (const Spring& s : cloth.springsOf(fam)) {
      const Real stretch = glm::length(cloth.x[s.b] - cloth.x[s.a]) - s.rest;
      e += 0.5 * (stretch < 0 ? kf * k.compression : kf) * stretch * stretch;
    }
  }
  return e;
}

Real gravityEnergy(const Cloth& cloth, const Vec3& gravity) {
  Real e = 0;
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i) e -= cloth.mass[i] * glm::dot(gravity, cloth.x[i]);
  return e;
}

Real maxStrain(const Cloth& cloth, SpringFamily family) {
  Real worst = 0;
  for (const Spring& s : cloth.springsOf(family))
    if (s.rest > 0) worst = std::max(worst, glm::length(cloth.x[s.b] - cloth.x[s.a]) / s.rest - 1);
  return worst;
}

Real maxStrainAwayFromHandles(const Cloth& cloth, SpringFamily family) {
  Real worst = 0;
  for (const Spring& s : cloth.springsOf(family))
    if (s.rest > 0 && cloth.kind[s.a] != NodeKind::Driven && cloth.kind[s.b] != NodeKind::Driven)
      worst = std::max(worst, glm::length(cloth.x[s.b] - cloth.x[s.a]) / s.rest - 1);
  return worst;
}

Real maxCompression(const Cloth& cloth, SpringFamily family) {
  Real worst = 0;
  for (const Spring& s : cloth.springsOf(family))
    if (s.rest > 0) worst = std::max(worst, 1 - glm::length(cloth.x[s.b] - cloth.x[s.a]) / s.rest);
  return worst;
}

void springStrains(const Cloth& cloth, std::vector<Real>& strain) {
  strain.resize(cloth.springs.size());
  for (std::size_t i = 0; i < cloth.springs.size(); ++i) {
    const Spring& s = cloth.springs[i];
    strain[i] = s.rest > 0 ? glm::length(cloth.x[s.b] - cloth.x[s.a]) / s.rest - 1 : 0;
  }
}

std::optional<Real> minColliderClearance(const Cloth& cloth, std::span<const Collider> colliders) {
  if (colliders.empty()) return std::nullopt;
  // A mesh's closest point within 1 m searches most of the mesh, for every node (a tenth of a short
  // --stats run on the Wuson). Most runs end with the cloth near a collider: a short reach finds the
  // nearest node then, and any nearer one too; the long reach only when no node is within the short.
  Real clearance = std::numeric_limits<Real>::infinity();
  for (const Real reach : {0.05, 1.0}) {
    for (std::size_t i = 0; i < cloth.nodeCount(); ++i) {
      if (cloth.kind[i] != NodeKind::Free) continue;
      for (const Collider& c : colliders)
        clearance = std::min(clearance, closestSurface(c, cloth.x[i], reach).distance);
    }
    if (clearance <= reach) break;
  }
  return clearance;
}

bool isFinite(const Cloth& cloth) {
  auto finite = [](const Vec3& p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z); };
  return std::all_of(cloth.x.begin(), cloth.x.end(), finite) &&
         std::all_of(cloth.v.begin(), cloth.v.end(), finite);
}

}  // namespace cloth::sim
