#include "cloth/sim/approx_implicit.h"

#include <cmath>

#include <glm/geometric.hpp>

#include "cloth/sim/forces.h"

namespace cloth::sim {
namespace {

constexpr SpringFamily kFamilies[] = {SpringFamily::Structural, SpringFamily::Shear, SpringFamily::Bending};

// Calls visit(a, b, k) for every spring with nonzero stiffness.
template <class Visit>
void forEachSpring(const Cloth& cloth, const Stiffness& k, Visit&& visit) {
  for (SpringFamily fam : kFamilies) {
    const Real kf = k.of(fam);
    if (kf == 0) continue;
    for (const Spring& s : familySprings(cloth, fam)) visit(s.a, s.b, kf);
  }
}

}  // namespace

void ApproxImplicitWork::resize(std::size_t nodes) {
  forceTilde.resize(nodes);
  diagonal.resize(nodes);
  dv.resize(nodes);
  neighbourSum.resize(nodes);
}

void viscousForce(const Cloth& cloth, const Stiffness& k, Real h, std::span<const Vec3> force,
                  std::span<Vec3> forceTilde) {
  std::copy(force.begin(), force.end(), forceTilde.begin());
  const auto& v = cloth.v;
  forEachSpring(cloth, k, [&](NodeIndex a, NodeIndex b, Real kf) {
    const Vec3 visc = (h * kf) * (v[b] - v[a]);
    forceTilde[a] += visc;
    forceTilde[b] -= visc;
  });
}

void implicitDiagonal(const Cloth& cloth, const Stiffness& k, Real h, Real airDamping, std::span<Real> diagonal) {
  for (std::size_t i = 0; i < diagonal.size(); ++i) diagonal[i] = 0;
  forEachSpring(cloth, k, [&](NodeIndex a, NodeIndex b, Real kf) {
    diagonal[a] += kf;
    diagonal[b] += kf;
  });
  for (std::size_t i = 0; i < diagonal.size(); ++i)
    diagonal[i] = cloth.mass[i] + h * airDamping + h * h * diagonal[i];
}

void firstGuess(const Cloth& cloth, Real h, std::span<const Vec3> forceTilde, std::span<const Real> diagonal,
                std::span<Vec3> dv) {
  for (std::size_t i = 0; i < dv.size(); ++i)
    dv[i] = cloth.kind[i] == NodeKind::Free ? (h / diagonal[i]) * forceTilde[i] : Vec3(0);
}

void jacobiIteration(const Cloth& cloth, const Stiffness& k, Real h, std::span<const Vec3> forceTilde,
                     std::span<const Real> diagonal, std::span<Vec3> dv, std::span<Vec3> neighbourSum) {
  for (Vec3& s : neighbourSum) s = Vec3(0);
  forEachSpring(cloth, k, [&](NodeIndex a, NodeIndex b, Real kf) {
    neighbourSum[a] += kf * dv[b];
    neighbourSum[b] += kf * dv[a];
  });
  const Real h2 = h * h;
  for (std::size_t i = 0; i < dv.size(); ++i) {
    if (cloth.kind[i] != NodeKind::Free) continue;
    dv[i] = (h * forceTilde[i] + h2 * neighbourSum[i]) / diagonal[i];  // Kang eq. 10
  }
}

Real implicitResidual(const Cloth& cloth, const Stiffness& k, Real h, std::span<const Vec3> forceTilde,
                      std::span<const Real> diagonal, std::span<const Vec3> dv) {
  std::vector<Vec3> sum(dv.size(), Vec3(0));
  forEachSpring(cloth, k, [&](NodeIndex a, NodeIndex b, Real kf) {
    sum[a] += kf * dv[b];
    sum[b] += kf * dv[a];
  });
  Real r2 = 0;
  for (std::size_t i = 0; i < dv.size(); ++i) {
    if (cloth.kind[i] != NodeKind::Free) continue;
    const Vec3 r = h * forceTilde[i] - (diagonal[i] * dv[i] - h * h * sum[i]);
    r2 += glm::dot(r, r);
  }
  return std::sqrt(r2);
}

void approxImplicitVelocityChange(const Cloth& cloth, const Stiffness& k, Real h, Real airDamping,
                                  int iterations, std::span<const Vec3> force, ApproxImplicitWork& work) {
  work.resize(cloth.nodeCount());
  viscousForce(cloth, k, h, force, work.forceTilde);
  implicitDiagonal(cloth, k, h, airDamping, work.diagonal);
  firstGuess(cloth, h, work.forceTilde, work.diagonal, work.dv);
  for (int it = 0; it < iterations; ++it)
    jacobiIteration(cloth, k, h, work.forceTilde, work.diagonal, work.dv, work.neighbourSum);
}

void advancePositions(Cloth& cloth, Real h) {
  for (std::size_t i = 0; i < cloth.x.size(); ++i) cloth.x[i] += h * cloth.v[i];
}

void stepApproxImplicit(Cloth& cloth, const Stiffness& k, Real h, Real airDamping, int iterations,
                        std::span<const Vec3> force, ApproxImplicitWork& work) {
  approxImplicitVelocityChange(cloth, k, h, airDamping, iterations, force, work);
  for (std::size_t i = 0; i < cloth.v.size(); ++i) cloth.v[i] += work.dv[i];
  advancePositions(cloth, h);
}

}  // namespace cloth::sim
