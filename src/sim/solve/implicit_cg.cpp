#include "cloth/sim/solve/implicit_cg.h"

#include "cloth/sim/forces.h"
#include "cloth/sim/solve/resting_contacts.h"
#include "cloth/sim/spring_incidence.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

namespace cloth::sim {
namespace {

Real innerProduct(std::span<const Vec3> a, std::span<const Vec3> b, Workers* workers) {
  return parallelSum(workers, a.size(), [&](std::size_t first, std::size_t last) {
    Real s = 0;
    for (std::size_t i = first; i < last; ++i) s += glm::dot(a[i], b[i]);
    return s;
  });
}

// Runs body(i) for every node, or every spring, split over the workers.
template <class Body>
void forEach(Workers* workers, std::size_t count, Body body) {
  parallelFor(workers, count, kNodeGrain, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) body(i);
  });
}

// Stiffness of every spring at the current positions, in spring order, with its family's k.
void assembleBlocks(const Cloth& cloth, const Stiffness& k, std::vector<glm::dmat3>& blocks,
                    Workers* workers) {
  for (SpringFamily fam : kSpringFamilies) {
    const SpringRange& r = cloth.range(fam);
    const Real kf = k.of(fam);
    forEach(workers, r.size(), [&](std::size_t i) {
      const std::size_t s = r.begin + i;
      const Spring& sp = cloth.springs[s];
      const Real length = glm::length(cloth.x[sp.b] - cloth.x[sp.a]);
      blocks[s] = springStiffnessBlock(cloth.x[sp.a], cloth.x[sp.b], sp.rest,
                                       springStiffness(length, sp.rest, kf, k.compression));
    });
  }
}

// out = diagonal term, plus h^2 K_s (u[a] - u[b]) at end a of every spring s and minus it at end b,
// then zero on kinematic rows (Baraff-Witkin's filter S).
template <class Diagonal>
void addSpringProducts(const Cloth& cloth, ImplicitCgWork& w, Real h, std::span<const Vec3> u,
                       Diagonal diagonal, std::span<Vec3> out, Workers* workers) {
  const Real h2 = h * h;
  // A loop a family: each family's springs run in node order, so each thread reads the nodes it
  // writes in the node loops (split the same way); one loop over all springs gave a thread the
  // structural springs of the whole cloth and sent its cache lines of u from core to core (the 64^2
  // ball without self-collision, 2 threads, least of 6: 5.15 ms a step with one loop, 4.83 so).
  for (SpringFamily fam : kSpringFamilies) {
    const SpringRange& r = cloth.range(fam);
    forEach(workers, r.size(), [&](std::size_t i) {
      const std::size_t s = r.begin + i;
      const Spring& sp = cloth.springs[s];
      w.springTerm[s] = h2 * (w.blocks[s] * (u[sp.a] - u[sp.b]));
    });
  }
  forEach(workers, out.size(), [&](std::size_t i) {
    out[i] =
        cloth.kind[i] == NodeKind::Free ? springTermSum(w.incidence, w.springTerm, i, diagonal(i)) : Vec3(0);
  });
}

// y = (M + h c I + h^2 K_sum) x, with kinematic rows and columns filtered out (Baraff-Witkin's S).
void applySystem(const Cloth& cloth, ImplicitCgWork& w, Real h, Real c, std::span<const Vec3> x,
                 std::span<Vec3> y, Workers* workers) {
  addSpringProducts(
      cloth, w, h, x, [&](std::size_t i) { return (cloth.mass[i] + h * c) * x[i]; }, y, workers);
}

// h (F + h J v): h^2 J v adds h^2 K_s (v[b] - v[a]) at a, the spring products of -v.
void buildRightHandSide(const Cloth& cloth, ImplicitCgWork& w, Real h, std::span<const Vec3> force,
                        Workers* workers) {
  forEach(workers, cloth.nodeCount(), [&](std::size_t i) { w.q[i] = -cloth.v[i]; });
  addSpringProducts(
      cloth, w, h, w.q, [&](std::size_t i) { return h * force[i]; }, w.rhs, workers);
}

// BDF2's (bdf2.h), h = beta: h (F - K (h v + lag_x / 3)) + M lag_v / 3, the spring products of
// -(v + lag_x / (3 h)).
void buildBdf2RightHandSide(const Cloth& cloth, ImplicitCgWork& w, Real h, std::span<const Vec3> force,
                            const Bdf2Lags& lags, Workers* workers) {
  forEach(workers, cloth.nodeCount(), [&](std::size_t i) { w.q[i] = -(cloth.v[i] + lags.x[i] / (3 * h)); });
  addSpringProducts(
      cloth, w, h, w.q, [&](std::size_t i) { return h * force[i] + (cloth.mass[i] / 3) * lags.v[i]; }, w.rhs,
      workers);
}

void buildPreconditioner(const Cloth& cloth, const std::vector<glm::dmat3>& blocks, Real h, Real c,
                         std::span<Vec3> inv) {
  for (std::size_t i = 0; i < inv.size(); ++i) inv[i] = Vec3(cloth.mass[i] + h * c);
  for (std::size_t s = 0; s < cloth.springs.size(); ++s) {
    const Spring& sp = cloth.springs[s];
    const Vec3 d(blocks[s][0][0], blocks[s][1][1], blocks[s][2][2]);
    inv[sp.a] += h * h * d;
    inv[sp.b] += h * h * d;
  }
  for (Vec3& d : inv) d = 1.0 / d;
}

}  // namespace

void ImplicitCgWork::resize(const Cloth& cloth) {
  blocks.resize(cloth.springs.size());
  springTerm.resize(cloth.springs.size());
  for (auto* v : {&rhs, &dv, &r, &z, &p, &q, &precondition}) v->resize(cloth.nodeCount());
  if (!incidence.fits(cloth)) incidence = springIncidence(cloth);
}

glm::dmat3 springStiffnessBlock(const Vec3& xa, const Vec3& xb, Real rest, Real k) {
  const Vec3 d = xb - xa;
  const Real len = glm::length(d);
  if (len <= 1e-12 * std::max(rest, Real(1e-12))) return glm::dmat3(k);
  const Vec3 n = d / len;
  const glm::dmat3 nnT = glm::outerProduct(n, n);
  const Real transverse = std::max(Real(0), 1 - rest / len);
  return k * (nnT + transverse * (glm::dmat3(1.0) - nnT));
}

namespace {

// Baraff-Witkin's filter S on the rows of resting nodes (kinematic rows are zero already).
void filterRestingRows(std::span<const RestingContact> resting, std::span<Vec3> u, Workers* workers) {
  if (resting.empty()) return;
  forEach(workers, u.size(), [&](std::size_t i) {
    if (resting[i].resting()) u[i] = filterResting(resting[i], u[i]);
  });
}

// dv starts at what the resting nodes' constraints prescribe (Baraff-Witkin's z), and the residual
// at S (b - A z).
void startAtPrescribed(const Cloth& cloth, ImplicitCgWork& w, Real h, Real c,
                       std::span<const RestingContact> resting, Workers* workers) {
  forEach(workers, w.dv.size(), [&](std::size_t i) {
    w.dv[i] = cloth.kind[i] == NodeKind::Free && resting[i].resting()
                  ? prescribedChange(resting[i], cloth.v[i])
                  : Vec3(0);
  });
  applySystem(cloth, w, h, c, w.dv, w.q, workers);
  forEach(workers, w.r.size(), [&](std::size_t i) { w.r[i] = w.rhs[i] - w.q[i]; });
  filterRestingRows(resting, w.r, workers);
}

// The constraint impulses (h times the force on each node), the residual A dv - b, into w.q.
void constraintImpulses(const Cloth& cloth, ImplicitCgWork& w, Real h, Real c, Workers* workers) {
  applySystem(cloth, w, h, c, w.dv, w.q, workers);
  forEach(workers, w.q.size(), [&](std::size_t i) { w.q[i] -= w.rhs[i]; });
}

// z = the preconditioner applied to r: the inverse diagonal, or a multigrid V-cycle.
void applyPreconditioner(const ImplicitCgWork& w, Multigrid* multigrid, std::span<const Vec3> r,
                         std::span<Vec3> z, Workers* workers) {
  if (multigrid) return multigrid->precondition(r, z, workers);
  forEach(workers, z.size(), [&](std::size_t i) { z[i] = w.precondition[i] * r[i]; });
}

// Preconditioned conjugate gradients from dv = 0, or filtered from what the resting nodes' constraints
// prescribe (Baraff-Witkin's modified PCG).
CgReport runConjugateGradients(const Cloth& cloth, ImplicitCgWork& w, Real h, Real airDamping,
                               int maxIterations, Real tolerance, Multigrid* multigrid,
                               std::span<const RestingContact> resting, Workers* workers) {
  if (resting.empty()) {
    std::fill(w.dv.begin(), w.dv.end(), Vec3(0));
    w.r = w.rhs;
  } else {
    startAtPrescribed(cloth, w, h, airDamping, resting, workers);
  }
  applyPreconditioner(w, multigrid, w.r, w.z, workers);
  filterRestingRows(resting, w.z, workers);
  w.p = w.z;
  Real rz = innerProduct(w.r, w.z, workers);
  const Real bNorm = std::sqrt(innerProduct(w.rhs, w.rhs, workers));
  CgReport report;
  if (bNorm == 0) return report;
  for (report.iterations = 0; report.iterations < maxIterations; ++report.iterations) {
    report.relativeResidual = std::sqrt(innerProduct(w.r, w.r, workers)) / bNorm;
    if (report.relativeResidual <= tolerance) break;
    applySystem(cloth, w, h, airDamping, w.p, w.q, workers);
    filterRestingRows(resting, w.q, workers);
    const Real pq = innerProduct(w.p, w.q, workers);
    if (!(pq > 0)) break;
    const Real alpha = rz / pq;
    forEach(workers, w.dv.size(), [&](std::size_t i) {
      w.dv[i] += alpha * w.p[i];
      w.r[i] -= alpha * w.q[i];
    });
    applyPreconditioner(w, multigrid, w.r, w.z, workers);
    filterRestingRows(resting, w.z, workers);
    const Real rzNext = innerProduct(w.r, w.z, workers);
    const Real beta = rzNext / rz;
    rz = rzNext;
    forEach(workers, w.p.size(), [&](std::size_t i) { w.p[i] = w.z[i] + beta * w.p[i]; });
  }
  report.relativeResidual = std::sqrt(innerProduct(w.r, w.r, workers)) / bNorm;
  return report;
}

}  // namespace

CgReport implicitVelocityChange(const Cloth& cloth, const Stiffness& k, Real h, Real airDamping,
                                std::span<const Vec3> force, int maxIterations, Real tolerance,
                                ImplicitCgWork& w, Multigrid* multigrid, Workers* workers,
                                std::span<RestingContact> resting, const Bdf2Lags* lags) {
  w.resize(cloth);
  assembleBlocks(cloth, k, w.blocks, workers);
  if (lags)
    buildBdf2RightHandSide(cloth, w, h, force, *lags, workers);
  else
    buildRightHandSide(cloth, w, h, force, workers);
  if (!multigrid) buildPreconditioner(cloth, w.blocks, h, airDamping, w.precondition);
  const bool anyResting =
      std::any_of(resting.begin(), resting.end(), [](const RestingContact& c) { return c.resting(); });
  if (!anyResting)
    return runConjugateGradients(cloth, w, h, airDamping, maxIterations, tolerance, multigrid, {}, workers);
  // Stick or slip (resting_contacts.h): first every resting node slides along its collider; those the
  // friction cone can stop are held in a second solve.
  for (RestingContact& c : resting) c.stuck = false;
  CgReport report =
      runConjugateGradients(cloth, w, h, airDamping, maxIterations, tolerance, multigrid, resting, workers);
  constraintImpulses(cloth, w, h, airDamping, workers);
  if (decideStuck(cloth, w.q, w.dv, resting)) {
    const int sliding = report.iterations;
    report =
        runConjugateGradients(cloth, w, h, airDamping, maxIterations, tolerance, multigrid, resting, workers);
    report.iterations += sliding;
    constraintImpulses(cloth, w, h, airDamping, workers);
  }
  applySlidingFriction(cloth, w.q, w.dv, resting);
  return report;
}

CgReport stepImplicitCG(Cloth& cloth, const Stiffness& k, Real h, Real airDamping,
                        std::span<const Vec3> force, int maxIterations, Real tolerance, ImplicitCgWork& work,
                        Multigrid* multigrid) {
  const CgReport report =
      implicitVelocityChange(cloth, k, h, airDamping, force, maxIterations, tolerance, work, multigrid);
  for (std::size_t i = 0; i < cloth.v.size(); ++i) cloth.v[i] += work.dv[i];
  advancePositions(cloth, h);
  return report;
}

}  // namespace cloth::sim
