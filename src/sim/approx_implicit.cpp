#include "cloth/sim/approx_implicit.h"

#include <cmath>
#include <utility>

#include <glm/geometric.hpp>

namespace cloth::sim {

void addKangViscosity(const SpringGraph& g, std::span<const Vec3> v, Real h, std::span<Vec3> force,
                      std::span<Vec3> sum) {
  neighbourSum(g, v, sum);
  for (std::size_t i = 0; i < g.nodeCount(); ++i)
    force[i] += h * (sum[i] - g.degree[i] * v[i]);  // Kang eq. 4
}

void implicitDiagonal(std::span<const Real> mass, const SpringGraph& g, Real h, Real c, std::span<Real> d) {
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = mass[i] + h * c + h * h * g.degree[i];
}

void kangFirstGuess(std::span<const NodeKind> kind, std::span<const Vec3> forceTilde, std::span<const Real> d,
                    Real h, std::span<Vec3> dvStar) {
  for (std::size_t i = 0; i < d.size(); ++i)
    dvStar[i] = kind[i] == NodeKind::Free ? h * forceTilde[i] / d[i] : Vec3(0);  // Kang eq. 9
}

void kangUpdate(const SpringGraph& g, std::span<const NodeKind> kind, std::span<const Vec3> forceTilde,
                std::span<const Real> d, Real h, std::span<const Vec3> dvStar, std::span<Vec3> dv,
                std::span<Vec3> sum) {
  neighbourSum(g, dvStar, sum);
  for (std::size_t i = 0; i < d.size(); ++i)
    dv[i] = kind[i] == NodeKind::Free ? (h * forceTilde[i] + h * h * sum[i]) / d[i] : Vec3(0);  // Kang eq. 10
}

Real implicitResidual(const SpringGraph& g, std::span<const NodeKind> kind, std::span<const Vec3> forceTilde,
                      std::span<const Real> d, Real h, std::span<const Vec3> dv, std::span<Vec3> sum) {
  neighbourSum(g, dv, sum);
  Real r2 = 0;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (kind[i] != NodeKind::Free) continue;
    const Vec3 r = h * forceTilde[i] - (d[i] * dv[i] - h * h * sum[i]);
    r2 += glm::dot(r, r);
  }
  return std::sqrt(r2);
}

void ApproxImplicitWork::resize(std::size_t nodes) {
  forceTilde.resize(nodes);
  diagonal.resize(nodes);
  guess.resize(nodes);
  dv.resize(nodes);
  sum.resize(nodes);
}

void approxImplicitVelocityChange(const Cloth& cloth, const SpringGraph& g, Real h, Real airDamping,
                                  int iterations, std::span<const Vec3> force, ApproxImplicitWork& w) {
  w.resize(cloth.nodeCount());
  std::copy(force.begin(), force.end(), w.forceTilde.begin());
  addKangViscosity(g, cloth.v, h, w.forceTilde, w.sum);
  implicitDiagonal(cloth.mass, g, h, airDamping, w.diagonal);
  kangFirstGuess(cloth.kind, w.forceTilde, w.diagonal, h, w.dv);
  for (int it = 0; it < iterations; ++it) {
    std::swap(w.guess, w.dv);
    kangUpdate(g, cloth.kind, w.forceTilde, w.diagonal, h, w.guess, w.dv, w.sum);
  }
}

}  // namespace cloth::sim
