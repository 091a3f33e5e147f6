#include "cloth/sim/approx_implicit.h"

#include <cmath>

namespace cloth::sim {
namespace {

// Solves the rest of the step once F~ is in w.forceTilde.
void solveVelocityChange(const Cloth& cloth, const Stiffness& k, Real h, Real airDamping, int iterations,
                         ApproxImplicitWork& w) {
  implicitDiagonal(cloth, k, h, airDamping, w);
  firstGuess(cloth, h, w);
  for (int it = 0; it < iterations; ++it) jacobiIteration(cloth, k, h, w);
}

}  // namespace

void ApproxImplicitWork::prepare(const Cloth& cloth) {
  stencil.prepare(cloth);
  const std::size_t n = cloth.nodeCount();
  forceTilde.resize(n);
  dv.resize(n);
  neighbourSum.resize(n);
  diagonal.resize(n);
  solveScale.resize(n);
}

void ApproxImplicitWork::loadState(const Cloth& cloth) {
  prepare(cloth);
  stencil.x.load(cloth.x);
  stencil.v.load(cloth.v);
}

void viscousForce(const Cloth& cloth, const Stiffness& k, Real h, std::span<const Vec3> force, ApproxImplicitWork& w) {
  w.prepare(cloth);
  w.stencil.v.load(cloth.v);
  w.forceTilde.load(force);
  stencilViscosity(w.stencil.stencil, k, w.stencil.v, h, w.stencil.perSpring, w.forceTilde);
}

void implicitDiagonal(const Cloth& cloth, const Stiffness& k, Real h, Real airDamping, ApproxImplicitWork& w) {
  StencilWork& s = w.stencil;
  const bool same = s.summedFor.structural == k.structural && s.summedFor.shear == k.shear &&
                    s.summedFor.bending == k.bending && s.stiffnessSum.size() == cloth.nodeCount();
  if (!same) {  // the sums change only with stiffness or topology
    stencilStiffnessSum(s.stencil, k, s.stiffnessSum);
    s.summedFor = k;
  }
  const Real h2 = h * h, hc = h * airDamping;
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i) {
    w.diagonal[i] = cloth.mass[i] + hc + h2 * s.stiffnessSum[i];
    w.solveScale[i] = cloth.kind[i] == NodeKind::Free ? 1 / w.diagonal[i] : 0;  // kinematic: dv = 0
  }
}

void firstGuess(const Cloth& cloth, Real h, ApproxImplicitWork& w) {
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i) {
    const Real s = h * w.solveScale[i];
    w.dv.x[i] = s * w.forceTilde.x[i];
    w.dv.y[i] = s * w.forceTilde.y[i];
    w.dv.z[i] = s * w.forceTilde.z[i];
  }
}

void jacobiIteration(const Cloth& cloth, const Stiffness& k, Real h, ApproxImplicitWork& w) {
  stencilNeighbourSum(w.stencil.stencil, k, w.dv, w.neighbourSum);
  const Real h2 = h * h;
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i) {
    const Real s = w.solveScale[i];  // Kang eq. 10
    w.dv.x[i] = s * (h * w.forceTilde.x[i] + h2 * w.neighbourSum.x[i]);
    w.dv.y[i] = s * (h * w.forceTilde.y[i] + h2 * w.neighbourSum.y[i]);
    w.dv.z[i] = s * (h * w.forceTilde.z[i] + h2 * w.neighbourSum.z[i]);
  }
}

Real implicitResidual(const Cloth& cloth, const Stiffness& k, Real h, ApproxImplicitWork& w) {
  NodeArrays sum;
  sum.resize(cloth.nodeCount());
  stencilNeighbourSum(w.stencil.stencil, k, w.dv, sum);
  Real r2 = 0;
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i) {
    if (cloth.kind[i] != NodeKind::Free) continue;
    const Vec3 r = h * Vec3(w.forceTilde.x[i], w.forceTilde.y[i], w.forceTilde.z[i]) -
                   (w.diagonal[i] * Vec3(w.dv.x[i], w.dv.y[i], w.dv.z[i]) - h * h * Vec3(sum.x[i], sum.y[i], sum.z[i]));
    r2 += r.x * r.x + r.y * r.y + r.z * r.z;
  }
  return std::sqrt(r2);
}

void approxImplicitVelocityChange(const Cloth& cloth, const Stiffness& k, Real h, Real airDamping, int iterations,
                                  std::span<const Vec3> force, ApproxImplicitWork& w) {
  viscousForce(cloth, k, h, force, w);
  solveVelocityChange(cloth, k, h, airDamping, iterations, w);
}

void advancePositions(Cloth& cloth, Real h) {
  for (std::size_t i = 0; i < cloth.x.size(); ++i) cloth.x[i] += h * cloth.v[i];
}

void stepApproxImplicit(Cloth& cloth, const Stiffness& k, Real h, Real airDamping, int iterations,
                        std::span<const Vec3> externalForce, ApproxImplicitWork& w) {
  w.loadState(cloth);
  w.forceTilde.load(externalForce);
  stepApproxImplicitLoaded(cloth, k, h, airDamping, iterations, w);
}

void stepApproxImplicitLoaded(Cloth& cloth, const Stiffness& k, Real h, Real airDamping, int iterations,
                              ApproxImplicitWork& w) {
  stencilSpringForces(w.stencil.stencil, k, w.stencil.x, &w.stencil.v, h, w.stencil.perGroup, w.forceTilde);
  solveVelocityChange(cloth, k, h, airDamping, iterations, w);
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i) cloth.v[i] += Vec3(w.dv.x[i], w.dv.y[i], w.dv.z[i]);
  advancePositions(cloth, h);
}

}  // namespace cloth::sim
