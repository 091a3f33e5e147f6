#include "cloth/sim/solve/approx_implicit.h"

#include <cmath>
#include <utility>

#include <glm/geometric.hpp>

#include "cloth/sim/forces.h"

namespace cloth::sim {

namespace {

// Runs body(i) for every node, split over the workers.
template <class Body>
void forEachNode(Workers* workers, std::size_t count, Body body) {
  parallelFor(workers, count, kNodeGrain, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) body(i);
  });
}

}  // namespace

void addKangViscosity(const SpringGraph& g, std::span<const Vec3> v, Real h, std::span<Vec3> force,
                      std::span<Vec3> sum, Workers* workers) {
  neighbourSum(g, v, sum, workers);
  forEachNode(workers, g.nodeCount(),
              [&](std::size_t i) { force[i] += h * (sum[i] - g.degree[i] * v[i]); });  // Kang eq. 4
}

void implicitDiagonal(std::span<const Real> mass, const SpringGraph& g, Real h, Real c, std::span<Real> d) {
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = mass[i] + h * c + h * h * g.degree[i];
}

void kangFirstGuess(std::span<const NodeKind> kind, std::span<const Vec3> forceTilde, std::span<const Real> d,
                    Real h, std::span<Vec3> dvStar, Workers* workers) {
  forEachNode(workers, d.size(), [&](std::size_t i) {
    dvStar[i] = kind[i] == NodeKind::Free ? h * forceTilde[i] / d[i] : Vec3(0);  // Kang eq. 9
  });
}

void kangUpdate(const SpringGraph& g, std::span<const NodeKind> kind, std::span<const Vec3> forceTilde,
                std::span<const Real> d, Real h, std::span<const Vec3> dvStar, std::span<Vec3> dv,
                std::span<Vec3> sum, Workers* workers) {
  neighbourSum(g, dvStar, sum, workers);
  forEachNode(workers, d.size(), [&](std::size_t i) {
    dv[i] = kind[i] == NodeKind::Free ? (h * forceTilde[i] + h * h * sum[i]) / d[i] : Vec3(0);  // Kang eq. 10
  });
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
                                  int iterations, std::span<const Vec3> force, ApproxImplicitWork& w,
                                  Workers* workers) {
  w.resize(cloth.nodeCount());
  std::copy(force.begin(), force.end(), w.forceTilde.begin());
  addKangViscosity(g, cloth.v, h, w.forceTilde, w.sum, workers);
  implicitDiagonal(cloth.mass, g, h, airDamping, w.diagonal);
  kangFirstGuess(cloth.kind, w.forceTilde, w.diagonal, h, w.dv, workers);
  for (int it = 0; it < iterations; ++it) {
    std::swap(w.guess, w.dv);
    kangUpdate(g, cloth.kind, w.forceTilde, w.diagonal, h, w.guess, w.dv, w.sum, workers);
  }
}

StiffnessRatio stiffnessRatio(const Cloth& cloth, const Stiffness& k, Real h) {
  const std::vector<Real> sum = nodeStiffness(cloth, k);
  StiffnessRatio r;
  int free = 0;
  for (std::size_t i = 0; i < sum.size(); ++i) {
    if (cloth.kind[i] != NodeKind::Free || !(cloth.mass[i] > 0)) continue;
    const Real ri = h * h * sum[i] / cloth.mass[i];
    r.mean += ri;
    r.largest = std::max(r.largest, ri);
    ++free;
  }
  if (free > 0) r.mean /= free;
  return r;
}

Real jacobiResponse(Real r, int iterations) {
  return 1 - std::pow(r / (1 + r), std::max(iterations, 0) + 1);
}

SparseMatrix implicitMatrix(const Cloth& cloth, const SpringGraph& g, Real h, Real c) {
  SparseMatrix a;
  a.rows = a.cols = static_cast<int>(cloth.nodeCount());
  a.start.assign(1, 0);
  std::vector<Real> d(cloth.nodeCount());
  implicitDiagonal(cloth.mass, g, h, c, d);
  for (int i = 0; i < a.rows; ++i) {
    bool diagonalDone = false;
    auto addDiagonal = [&] {
      a.column.push_back(i);
      a.value.push_back(cloth.isFree(i) ? d[i] : 1.0);
      diagonalDone = true;
    };
    if (cloth.isFree(i))
      for (std::uint32_t e = g.start[i]; e < g.start[i + 1]; ++e) {  // neighbours in ascending order
        const NodeIndex j = g.neighbour[e];
        if (!cloth.isFree(j)) continue;
        if (j > i && !diagonalDone) addDiagonal();
        a.column.push_back(j);
        a.value.push_back(-h * h * g.weight[e]);
      }
    if (!diagonalDone) addDiagonal();
    a.start.push_back(static_cast<std::uint32_t>(a.column.size()));
  }
  return a;
}

bool ConvergedVelocityChange::upToDate(const Cloth& cloth, const SpringGraph& g, Real h, Real c) const {
  return h == h_ && c == c_ && graph_ == &g && g.weight == weight_ && cloth.mass == mass_ &&
         cloth.kind == kind_;
}

Multigrid& ConvergedVelocityChange::prepare(const Cloth& cloth, const SpringGraph& g, Real h, Real c) {
  if (upToDate(cloth, g, h, c)) return multigrid_;
  std::vector<bool> fixed(cloth.nodeCount());
  for (std::size_t i = 0; i < fixed.size(); ++i) fixed[i] = !cloth.isFree(static_cast<NodeIndex>(i));
  // Several sheets are coarsened as one taller grid: a coarse correction then spans a seam between
  // sheets, which makes it less apt there but leaves the converged answer as it is.
  multigrid_.build(implicitMatrix(cloth, g, h, c), cloth.nu, cloth.nv * cloth.sheets, fixed);
  ++builds_;
  h_ = h, c_ = c, graph_ = &g, weight_ = g.weight, mass_ = cloth.mass, kind_ = cloth.kind;
  return multigrid_;
}

Multigrid::Report ConvergedVelocityChange::solve(const Cloth& cloth, const SpringGraph& g, Real h,
                                                 Real airDamping, int maxCycles, Real tolerance,
                                                 std::span<const Vec3> force, ApproxImplicitWork& w,
                                                 Workers* workers) {
  const std::size_t n = cloth.nodeCount();
  w.resize(n);
  if (previous_.size() != n) previous_.assign(n, Vec3(0));
  const Real hPrevious = h_;
  prepare(cloth, g, h, airDamping);
  std::copy(force.begin(), force.end(), w.forceTilde.begin());
  addKangViscosity(g, cloth.v, h, w.forceTilde, w.sum, workers);
  rhs_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    rhs_[i] = cloth.kind[i] == NodeKind::Free ? h * w.forceTilde[i] : Vec3(0);
    w.dv[i] =
        cloth.kind[i] == NodeKind::Free ? previous_[i] * (hPrevious > 0 ? h / hPrevious : 0.0) : Vec3(0);
  }
  const Multigrid::Report report = multigrid_.solve(rhs_, w.dv, maxCycles, tolerance, workers);
  previous_ = w.dv;
  return report;
}

}  // namespace cloth::sim
