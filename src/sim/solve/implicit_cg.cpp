#include "cloth/sim/solve/implicit_cg.h"

#include "cloth/sim/forces.h"

#include <cmath>

#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

namespace cloth::sim {
namespace {

Real innerProduct(std::span<const Vec3> a, std::span<const Vec3> b) {
  Real s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += glm::dot(a[i], b[i]);
  return s;
}

// Stiffness of every spring at the current positions, in spring order, with its family's k.
void assembleBlocks(const Cloth& cloth, const Stiffness& k, std::vector<glm::dmat3>& blocks) {
  for (SpringFamily fam : kSpringFamilies) {
    const SpringRange& r = cloth.range(fam);
    const Real kf = k.of(fam);
    for (std::size_t s = r.begin; s < r.end; ++s) {
      const Spring& sp = cloth.springs[s];
      const Real length = glm::length(cloth.x[sp.b] - cloth.x[sp.a]);
      blocks[s] = springStiffnessBlock(cloth.x[sp.a], cloth.x[sp.b], sp.rest,
                                       springStiffness(length, sp.rest, kf, k.compression));
    }
  }
}

// y = (M + h c I + h^2 K_sum) x, with kinematic rows and columns filtered out (Baraff-Witkin's S).
void applySystem(const Cloth& cloth, const std::vector<glm::dmat3>& blocks, Real h, Real c,
                 std::span<const Vec3> x, std::span<Vec3> y) {
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = (cloth.mass[i] + h * c) * x[i];
  const Real h2 = h * h;
  for (std::size_t s = 0; s < cloth.springs.size(); ++s) {
    const Spring& sp = cloth.springs[s];
    const Vec3 t = h2 * (blocks[s] * (x[sp.a] - x[sp.b]));
    y[sp.a] += t;
    y[sp.b] -= t;
  }
  for (std::size_t i = 0; i < y.size(); ++i)
    if (cloth.kind[i] != NodeKind::Free) y[i] = Vec3(0);
}

void buildRightHandSide(const Cloth& cloth, const std::vector<glm::dmat3>& blocks, Real h,
                        std::span<const Vec3> force, std::span<Vec3> rhs) {
  for (std::size_t i = 0; i < rhs.size(); ++i) rhs[i] = h * force[i];
  const Real h2 = h * h;
  for (std::size_t s = 0; s < cloth.springs.size(); ++s) {  // h^2 J v
    const Spring& sp = cloth.springs[s];
    const Vec3 t = h2 * (blocks[s] * (cloth.v[sp.b] - cloth.v[sp.a]));
    rhs[sp.a] += t;
    rhs[sp.b] -= t;
  }
  for (std::size_t i = 0; i < rhs.size(); ++i)
    if (cloth.kind[i] != NodeKind::Free) rhs[i] = Vec3(0);
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

void ImplicitCgWork::resize(std::size_t nodes, std::size_t springs) {
  blocks.resize(springs);
  for (auto* v : {&rhs, &dv, &r, &z, &p, &q, &precondition}) v->resize(nodes);
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

// z = the preconditioner applied to r: the inverse diagonal, or a multigrid V-cycle.
void applyPreconditioner(const ImplicitCgWork& w, Multigrid* multigrid, std::span<const Vec3> r,
                         std::span<Vec3> z) {
  if (multigrid) return multigrid->precondition(r, z);
  for (std::size_t i = 0; i < z.size(); ++i) z[i] = w.precondition[i] * r[i];
}

CgReport implicitVelocityChange(const Cloth& cloth, const Stiffness& k, Real h, Real airDamping,
                                std::span<const Vec3> force, int maxIterations, Real tolerance,
                                ImplicitCgWork& w, Multigrid* multigrid) {
  w.resize(cloth.nodeCount(), cloth.springs.size());
  assembleBlocks(cloth, k, w.blocks);
  buildRightHandSide(cloth, w.blocks, h, force, w.rhs);
  if (!multigrid) buildPreconditioner(cloth, w.blocks, h, airDamping, w.precondition);

  // Preconditioned conjugate gradients from dv = 0.
  std::fill(w.dv.begin(), w.dv.end(), Vec3(0));
  w.r = w.rhs;
  applyPreconditioner(w, multigrid, w.r, w.z);
  w.p = w.z;
  Real rz = innerProduct(w.r, w.z);
  const Real bNorm = std::sqrt(innerProduct(w.rhs, w.rhs));
  CgReport report;
  if (bNorm == 0) return report;
  for (report.iterations = 0; report.iterations < maxIterations; ++report.iterations) {
    report.relativeResidual = std::sqrt(innerProduct(w.r, w.r)) / bNorm;
    if (report.relativeResidual <= tolerance) break;
    applySystem(cloth, w.blocks, h, airDamping, w.p, w.q);
    const Real pq = innerProduct(w.p, w.q);
    if (!(pq > 0)) break;
    const Real alpha = rz / pq;
    for (std::size_t i = 0; i < w.dv.size(); ++i) {
      w.dv[i] += alpha * w.p[i];
      w.r[i] -= alpha * w.q[i];
    }
    applyPreconditioner(w, multigrid, w.r, w.z);
    const Real rzNext = innerProduct(w.r, w.z);
    const Real beta = rzNext / rz;
    rz = rzNext;
    for (std::size_t i = 0; i < w.p.size(); ++i) w.p[i] = w.z[i] + beta * w.p[i];
  }
  report.relativeResidual = std::sqrt(innerProduct(w.r, w.r)) / bNorm;
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
