#include "cloth/sim/forces.h"

#include <algorithm>

#include <glm/geometric.hpp>

#include "cloth/sim/grid_normals.h"
#include "cloth/sim/spring_incidence.h"
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

// The Hooke force on end a of every spring, into work.springTerm, split over the workers.
void springForceTerms(const Cloth& cloth, const Stiffness& k, ForceWork& work, Workers* workers) {
  work.springTerm.resize(cloth.springs.size());
  for (SpringFamily family : kSpringFamilies) {
    const SpringRange& r = cloth.range(family);
    const Real kf = k.of(family);
    parallelFor(workers, r.size(), kNodeGrain, [&](std::size_t first, std::size_t last) {
      for (std::size_t s = r.begin + first; s < r.begin + last; ++s) {
        const Spring& sp = cloth.springs[s];
        work.springTerm[s] = springForce(cloth.x[sp.a], cloth.x[sp.b], sp.rest, kf, k.compression);
      }
    });
  }
}

// The same sums as addSpringForces, addGravity, addAirDamping and addWindForces in that order, on
// any number of threads: every node's force is summed by one thread.
void computeForces(const Cloth& cloth, const SimParams& params, Real t, ForceWork& work, std::span<Vec3> f,
                   Workers* workers) {
  if (!work.incidence.fits(cloth)) work.incidence = springIncidence(cloth);
  springForceTerms(cloth, stiffnessOf(params.material), work, workers);
  work.normals.resize(cloth.nodeCount());
  sheetNormals<Vec3>(cloth.nu, cloth.nv, cloth.sheets, cloth.x, work.normals, Vec3(0), workers);
  if (work.areaShare.size() != cloth.nodeCount()) work.areaShare = nodeAreaShares(cloth);
  const Vec3 wind = windVelocityAt(params.wind, t);
  parallelFor(workers, f.size(), kNodeGrain, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i)
      f[i] = springTermSum(work.incidence, work.springTerm, i, Vec3(0));
    addExternalForces(cloth, params, wind, work, first, last, f);
  });
}

// Gravity, air damping and wind on nodes [first, last), added to f; work.normals and work.areaShare
// must be current.
void addExternalForces(const Cloth& cloth, const SimParams& params, const Vec3& wind, const ForceWork& work,
                       std::size_t first, std::size_t last, std::span<Vec3> f) {
  const std::size_t n = last - first;
  const auto part = [&](auto span) { return span.subspan(first, n); };
  addGravity(part(std::span<const Real>(cloth.mass)), params.gravity, part(f));
  addAirDamping(part(std::span<const Vec3>(cloth.v)), params.material.airDamping, part(f));
  addWindForces(params.wind, wind, part(std::span<const Vec3>(cloth.v)),
                part(std::span<const Vec3>(work.normals)), part(std::span<const Real>(work.areaShare)),
                part(f));
}

void computeExternalForces(const Cloth& cloth, const SimParams& params, Real t, ForceWork& work,
                           std::span<Vec3> f, Workers* workers) {
  work.normals.resize(cloth.nodeCount());
  sheetNormals<Vec3>(cloth.nu, cloth.nv, cloth.sheets, cloth.x, work.normals, Vec3(0), workers);
  if (work.areaShare.size() != cloth.nodeCount()) work.areaShare = nodeAreaShares(cloth);
  const Vec3 wind = windVelocityAt(params.wind, t);
  parallelFor(workers, f.size(), kNodeGrain, [&](std::size_t first, std::size_t last) {
    std::fill(f.begin() + first, f.begin() + last, Vec3(0));
    addExternalForces(cloth, params, wind, work, first, last, f);
  });
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
