#include "cloth/sim/solve/multigrid.h"

#include <cmath>

#include <glm/geometric.hpp>

namespace cloth::sim {
namespace {

constexpr int kCoarsestNodes = 64;   // solved directly
constexpr int kSmoothingSweeps = 1;  // Gauss-Seidel sweeps before and after the coarse correction
// Coarse rows a thread takes in the restriction: each sums about nine fine rows (a 33^2 level from a
// 64^2 cloth splits, its fine rows read where the smoothing wrote them).
constexpr std::size_t kRestrictionGrain = 256;

// Fine indices kept along an axis of n nodes: every other one, and the last.
std::vector<int> coarseIndices(int n) {
  std::vector<int> kept;
  if (n < 3) {
    for (int i = 0; i < n; ++i) kept.push_back(i);
    return kept;
  }
  for (int i = 0; i < n; i += 2) kept.push_back(i);
  if (kept.back() != n - 1) kept.push_back(n - 1);
  return kept;
}

// Linear interpolation weights of fine index i between the kept indices around it.
struct Weight {
  int coarse;
  Real w;
};

std::vector<std::vector<Weight>> axisWeights(int n, const std::vector<int>& kept) {
  std::vector<std::vector<Weight>> weights(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < kept.size(); ++k) {
    weights[kept[k]] = {{static_cast<int>(k), 1.0}};
    if (k + 1 == kept.size()) break;
    const int a = kept[k], b = kept[k + 1];
    for (int i = a + 1; i < b; ++i) {
      const Real t = Real(i - a) / Real(b - a);
      weights[i] = {{static_cast<int>(k), 1 - t}, {static_cast<int>(k + 1), t}};
    }
  }
  return weights;
}

// A coarse node whose every fine node is fixed gets no entries from P^T A P (P's column for it is
// empty): it becomes an identity row, fixed too. Returns which rows are fixed.
std::vector<bool> fixEmptyRows(SparseMatrix& a) {
  std::vector<bool> fixed(static_cast<std::size_t>(a.rows), false);
  SparseMatrix out;
  out.rows = a.rows;
  out.cols = a.cols;
  out.start.assign(1, 0);
  for (int i = 0; i < a.rows; ++i) {
    fixed[i] = a.start[i] == a.start[i + 1];
    if (fixed[i]) {
      out.column.push_back(i);
      out.value.push_back(1.0);
    }
    out.column.insert(out.column.end(), a.column.begin() + a.start[i], a.column.begin() + a.start[i + 1]);
    out.value.insert(out.value.end(), a.value.begin() + a.start[i], a.value.begin() + a.start[i + 1]);
    out.start.push_back(static_cast<std::uint32_t>(out.column.size()));
  }
  a = std::move(out);
  return fixed;
}

}  // namespace

SparseMatrix bilinearProlongation(int nu, int nv, const std::vector<bool>& fixed, int& coarseNu,
                                  int& coarseNv) {
  const std::vector<int> keptU = coarseIndices(nu), keptV = coarseIndices(nv);
  coarseNu = static_cast<int>(keptU.size());
  coarseNv = static_cast<int>(keptV.size());
  const auto wu = axisWeights(nu, keptU), wv = axisWeights(nv, keptV);
  SparseMatrix p;
  p.rows = nu * nv;
  p.cols = coarseNu * coarseNv;
  p.start.assign(1, 0);
  for (int j = 0; j < nv; ++j)
    for (int i = 0; i < nu; ++i) {
      if (!fixed[j * nu + i])
        for (const Weight& b : wv[j])  // coarse row b, then coarse column a: ascending columns
          for (const Weight& a : wu[i]) {
            p.column.push_back(b.coarse * coarseNu + a.coarse);
            p.value.push_back(a.w * b.w);
          }
      p.start.push_back(static_cast<std::uint32_t>(p.column.size()));
    }
  return p;
}

void Multigrid::build(SparseMatrix fine, int nu, int nv, const std::vector<bool>& fixed) {
  levels_.clear();
  std::vector<bool> levelFixed = fixed;
  Level level;
  level.a = std::move(fine);
  level.nu = nu;
  level.nv = nv;
  for (;;) {
    const int n = level.a.rows;
    level.x.resize(n), level.b.resize(n), level.r.resize(n);
    level.inverseDiagonal = inverseDiagonal(level.a);
    level.blocks = gaussSeidelBlocks(level.a);
    int cnu = 0, cnv = 0;
    const bool coarsens = level.nu * level.nv == n && n > kCoarsestNodes && (level.nu >= 3 || level.nv >= 3);
    if (!coarsens) break;
    level.toFiner = bilinearProlongation(level.nu, level.nv, levelFixed, cnu, cnv);
    level.toCoarser = transpose(level.toFiner);
    Level coarse;
    coarse.a = galerkin(level.a, level.toFiner);
    coarse.nu = cnu;
    coarse.nv = cnv;
    levelFixed = fixEmptyRows(coarse.a);
    levels_.push_back(std::move(level));
    level = std::move(coarse);
  }
  coarsest_.factor(level.a);
  levels_.push_back(std::move(level));
}

void Multigrid::smooth(Level& level, bool forward, Workers* workers) {
  for (int s = 0; s < kSmoothingSweeps; ++s)
    blockGaussSeidel(level.a, level.blocks, level.inverseDiagonal, level.b, level.x, forward, level.before,
                     workers);
}

void Multigrid::vCycle(std::size_t l, Workers* workers) {
  Level& level = levels_[l];
  if (l + 1 == levels_.size()) {
    coarsest_.solve(level.b, level.x);
    return;
  }
  smooth(level, true, workers);
  residual(level.a, level.b, level.x, level.r, workers);
  correct(l, workers);
}

// Every pass over a level's nodes runs on the workers, split as the smoothing and the residual split
// them: a pass on one thread between them sends the other thread's half of each vector from core to
// core and back (`clothbench --only threads`: an update of a 64^2 cloth's 12,288 values, 3.5 us on one
// thread and 2.0 on two, took 7.1 us on two with a serial pass after it against 4.2 on one).
void Multigrid::correct(std::size_t l, Workers* workers) {
  Level& level = levels_[l];
  Level& coarse = levels_[l + 1];
  multiply(level.toCoarser, level.r, coarse.b, workers, kRestrictionGrain);  // restriction
  std::fill(coarse.x.begin(), coarse.x.end(), Vec3(0));
  vCycle(l + 1, workers);
  addProduct(level.toFiner, coarse.x, level.x, workers);  // prolongation of the coarse correction
  smooth(level, false, workers);
}

void Multigrid::precondition(std::span<const Vec3> r, std::span<Vec3> z, Workers* workers) {
  Level& fine = levels_.front();
  parallelFor(workers, r.size(), kNodeGrain, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) {
      fine.b[i] = r[i];
      fine.x[i] = Vec3(0);
    }
  });
  vCycle(0, workers);
  parallelFor(workers, z.size(), kNodeGrain, [&](std::size_t first, std::size_t last) {
    std::copy(fine.x.begin() + static_cast<std::ptrdiff_t>(first),
              fine.x.begin() + static_cast<std::ptrdiff_t>(last),
              z.begin() + static_cast<std::ptrdiff_t>(first));
  });
}

Multigrid::Report Multigrid::solve(std::span<const Vec3> b, std::span<Vec3> x, int maxCycles, Real tolerance,
                                   Workers* workers) {
  Level& fine = levels_.front();
  std::copy(b.begin(), b.end(), fine.b.begin());
  std::copy(x.begin(), x.end(), fine.x.begin());
  Real bNorm2 = 0;
  for (const Vec3& bi : b) bNorm2 += glm::dot(bi, bi);
  const Real bNorm = std::sqrt(bNorm2);
  Report report;
  if (levels_.size() == 1) {  // a grid small enough to solve directly
    coarsest_.solve(fine.b, fine.x);
    report.cycles = 1;
  } else if (bNorm > 0) {
    for (;;) {  // V-cycles, each stopping after its first smoothing sweep if that is good enough
      smooth(fine, true, workers);
      report.relativeResidual = residual(fine.a, fine.b, fine.x, fine.r, workers) / bNorm;
      if (report.relativeResidual <= tolerance || report.cycles == maxCycles) break;
      correct(0, workers);
      ++report.cycles;
    }
  }
  std::copy(fine.x.begin(), fine.x.end(), x.begin());
  return report;
}

}  // namespace cloth::sim
