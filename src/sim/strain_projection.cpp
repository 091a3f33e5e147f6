#include "cloth/sim/strain_projection.h"

#include "cloth/sim/provot.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace cloth::sim {
namespace {

constexpr Real kSolveTolerance =
    0.1;  // relative residual of each linear solve: the next projection corrects the rest
constexpr int kMostSolveIterations = 500;
constexpr Real kDiverged = 1;  // a spring twice its limit: the projections stop

// Inverse mass of a node relative to a free node's (W): kinematic nodes do not move.
Real weight(std::span<const NodeKind> kind, NodeIndex n) {
  return kind[n] == NodeKind::Free ? 1 : 0;
}

Real stretchExcess(std::span<const Vec3> x, const Spring& s, Real tau) {
  return glm::length(x[s.b] - x[s.a]) / ((1 + tau) * s.rest) - 1;
}

// The springs at or over (1 - nearLimit) of their limit with a node that may move become constraints
// (Goldenthal et al. 2007, fast projection, with the limit as the length): C_s = |x_b - x_a| -
// (1 + tau) L_s where positive, 0 (keep the length) for those just under it. Also their directions,
// and returns the largest excess over the limit among all springs.
Real gatherConstraints(std::span<const Vec3> x, std::span<const Spring> springs,
                       std::span<const NodeKind> kind, const StrainProjectionSettings& s,
                       StrainProjectionWork& w) {
  w.active.clear(), w.direction.clear(), w.c.clear();
  Real worst = -1;
  for (std::size_t i = 0; i < springs.size(); ++i) {
    const Spring& spring = springs[i];
    if (weight(kind, spring.a) + weight(kind, spring.b) == 0) continue;
    const Vec3 d = x[spring.b] - x[spring.a];
    const Real limit = (1 + s.tau) * spring.rest, len = glm::length(d);
    worst = std::max(worst, len / limit - 1);
    if (len < (1 - s.nearLimit) * limit || len == 0) continue;
    w.active.push_back(static_cast<std::uint32_t>(i));
    w.direction.push_back(d / len);
    w.c.push_back(std::max<Real>(len - limit, 0));  // those under their limit keep their length
  }
  return worst;
}

// nodeSum = W J^T lambda: each constraint's multiplier along its spring, on both ends.
void applyTranspose(std::span<const Spring> springs, std::span<const NodeKind> kind, StrainProjectionWork& w,
                    std::span<const Real> lambda) {
  for (std::uint32_t i : w.active) w.nodeSum[springs[i].a] = w.nodeSum[springs[i].b] = Vec3(0);
  for (std::size_t k = 0; k < w.active.size(); ++k) {
    const Spring& s = springs[w.active[k]];
    w.nodeSum[s.a] -= weight(kind, s.a) * lambda[k] * w.direction[k];
    w.nodeSum[s.b] += weight(kind, s.b) * lambda[k] * w.direction[k];
  }
}

// out = (J W J^T) lambda: how each constraint's length changes under the move W J^T lambda.
void applySystem(std::span<const Spring> springs, std::span<const NodeKind> kind, StrainProjectionWork& w,
                 std::span<const Real> lambda, std::span<Real> out) {
  applyTranspose(springs, kind, w, lambda);
  for (std::size_t k = 0; k < w.active.size(); ++k) {
    const Spring& s = springs[w.active[k]];
    out[k] = glm::dot(w.direction[k], w.nodeSum[s.b] - w.nodeSum[s.a]);
  }
}

Real dot(std::span<const Real> a, std::span<const Real> b) {
  Real sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

// (J W J^T) lambda = C by conjugate gradients from lambda = 0 (Goldenthal et al. 2007, fast projection),
// preconditioned by the chains' exact solves (constraint_chains.h); returns the iterations made.
// J W J^T is symmetric and positive semi-definite.
int solveMultipliers(std::span<const Spring> springs, std::span<const NodeKind> kind, int maxIterations,
                     StrainProjectionWork& w) {
  const std::size_t n = w.active.size();
  buildChains(springs, kind, w.active, w.direction, kind.size(), w.chains);
  w.lambda.assign(n, 0), w.r = w.c, w.z.resize(n), w.ap.resize(n);
  solveChains(w.chains, w.r, w.z);
  w.p = w.z;
  const Real goal = kSolveTolerance * kSolveTolerance * dot(w.c, w.c);
  Real rz = dot(w.r, w.z);
  int iterations = 0;
  while (iterations < maxIterations && dot(w.r, w.r) > goal) {
    ++iterations;
    applySystem(springs, kind, w, w.p, w.ap);
    const Real pap = dot(w.p, w.ap);
    if (!(pap > 0) || !(rz > 0)) break;  // a direction the constraints cannot move along
    const Real alpha = rz / pap;
    for (std::size_t i = 0; i < n; ++i) w.lambda[i] += alpha * w.p[i], w.r[i] -= alpha * w.ap[i];
    solveChains(w.chains, w.r, w.z);
    const Real rzNext = dot(w.r, w.z);
    for (std::size_t i = 0; i < n; ++i) w.p[i] = w.z[i] + (rzNext / rz) * w.p[i];
    rz = rzNext;
  }
  return iterations;
}

// x += Δx = -W J^T lambda (Goldenthal et al. 2007), each node only along or off the collider it rests
// on; leaves x as it was if the solve gave anything not finite. Scaled down so that no node moves
// further than maxMove: the linearisation holds for small moves only, and the foot of a long column
// may need to rise several key spacings, which would stretch the springs across it that are not
// constrained; the projections after this one bring it the rest of the way.
void applyProjection(std::span<Vec3> x, std::span<const Spring> springs, std::span<const NodeKind> kind,
                     Real maxMove, StrainProjectionWork& w, std::span<const Vec3> contactNormal) {
  if (!std::all_of(w.lambda.begin(), w.lambda.end(), [](Real l) { return std::isfinite(l); })) return;
  applyTranspose(springs, kind, w, w.lambda);
  Real longest2 = 0;
  for (std::uint32_t i : w.active)
    for (NodeIndex n : {springs[i].a, springs[i].b})
      longest2 = std::max(longest2, glm::dot(w.nodeSum[n], w.nodeSum[n]));
  const Real scale = longest2 > maxMove * maxMove ? maxMove / std::sqrt(longest2) : 1;
  for (std::uint32_t i : w.active)
    for (NodeIndex n : {springs[i].a, springs[i].b}) {
      if (w.nodeSum[n] == Vec3(0)) continue;  // moved already, or not free
      moveOutsideColliders(x, n, -scale * w.nodeSum[n], contactNormal);
      w.nodeSum[n] = Vec3(0);
    }
}

}  // namespace

Real worstStretchExcess(std::span<const Vec3> x, std::span<const Spring> springs, Real tau,
                        Workers* workers) {
  return parallelMax(workers, springs.size(), Real(-1), [&](std::size_t first, std::size_t last) {
    Real worst = -1;
    for (std::size_t s = first; s < last; ++s) worst = std::max(worst, stretchExcess(x, springs[s], tau));
    return worst;
  });
}

StrainProjectionReport projectStrain(std::span<Vec3> x, std::span<const Spring> springs,
                                     std::span<const NodeKind> kind, const StrainProjectionSettings& settings,
                                     StrainProjectionWork& work, std::span<const Vec3> contactNormal) {
  StrainProjectionReport report;
  work.nodeSum.resize(x.size());
  const Real start = report.worstExcess = gatherConstraints(x, springs, kind, settings, work);
  // Far over the limit, something holds the cloth there (a collider's edge, a dragged node): the
  // projections would run to their limit each step and be undone.
  if (start <= settings.tolerance || start > settings.mostExcess) return report;
  work.before.assign(x.begin(), x.end());
  while (report.worstExcess > settings.tolerance && report.iterations < settings.maxIterations) {
    ++report.iterations;
    report.constraints = static_cast<int>(work.active.size());
    const int most = std::min(report.constraints, kMostSolveIterations);
    report.solveIterations += solveMultipliers(springs, kind, most, work);
    applyProjection(x, springs, kind, settings.maxMove, work, contactNormal);
    // A projection may stretch springs it did not constrain past their limit (the next one constrains
    // them), but the linearisation holds for small excesses only.
    report.worstExcess = gatherConstraints(x, springs, kind, settings, work);
    if (!(report.worstExcess < kDiverged)) break;
  }
  // Far from the limit (a cloth torn apart by a drag) the projections may end worse than they began:
  // then they are undone and Provot's result stands.
  if (!(report.worstExcess <= start)) {
    std::copy(work.before.begin(), work.before.end(), x.begin());
    report.worstExcess = start;
  }
  return report;
}

}  // namespace cloth::sim
