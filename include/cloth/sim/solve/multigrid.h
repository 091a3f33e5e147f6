#pragma once
// Geometric multigrid for the implicit system of a structured nu x nv key grid: the converged
// solve of (M + h c + h^2 L) dv = h F~, the system Kang eq. 10 takes a single Jacobi step of.
//
// Coarse grids keep every other node along each axis (and the last one of an even count), full
// weighting restricts (P^T, up to a constant) and bilinear interpolation P prolongs; coarse
// operators are Galerkin products P^T A P. Symmetric Gauss-Seidel smooths (in blocks of rows that
// threads share: blockGaussSeidel), a dense Cholesky
// factorisation solves the coarsest grid. Fixed (Dirichlet) nodes, the kinematic key nodes, keep
// their value: identity rows, and no coarse correction reaches them. A V-cycle costs a few passes
// over the fine grid: O(n), at any r = h^2 sum(k) / m.

#include <span>
#include <vector>

#include "cloth/sim/solve/sparse_matrix.h"

namespace cloth::sim {

class Multigrid {
 public:
  /// Builds the hierarchy for the fine matrix A of an nu x nv grid (node (i, j) is row j * nu + i).
  /// `fixed` marks Dirichlet rows, which must be identity rows. A must be symmetric positive definite.
  void build(SparseMatrix fine, int nu, int nv, const std::vector<bool>& fixed);

  struct Report {
    int cycles = 0;
    Real relativeResidual = 0;  ///< |b - A x| / |b| after the last cycle
  };

  /// V-cycles on A x = b starting from x, until |b - A x| <= tolerance |b| or `maxCycles` have run.
  /// The test uses the residual each cycle computes after its first smoothing sweep (which it needs
  /// for the coarse grid anyway): a solve ends on such a sweep, with at least that accuracy.
  Report solve(std::span<const Vec3> b, std::span<Vec3> x, int maxCycles, Real tolerance,
               Workers* workers = nullptr);

  /// One V-cycle from z = 0 on A z = r: a symmetric preconditioner for conjugate gradients.
  void precondition(std::span<const Vec3> r, std::span<Vec3> z, Workers* workers = nullptr);

  int levelCount() const { return static_cast<int>(levels_.size()); }
  const SparseMatrix& matrix(int level) const { return levels_[level].a; }

 private:
  struct Level {
    SparseMatrix a;
    std::vector<Real> inverseDiagonal;
    SparseMatrix toFiner;    ///< prolongation from the next coarser level to this one (fine x coarse)
    SparseMatrix toCoarser;  ///< its transpose: restriction
    int nu = 0, nv = 0;
    std::vector<Vec3> x, b, r;
    std::vector<Vec3> before;  ///< x at the start of a smoothing sweep (blockGaussSeidel)
    GaussSeidelBlocks blocks;  ///< what a's sweeps read across their blocks
  };
  void smooth(Level& level, bool forward, Workers* workers);
  void vCycle(std::size_t level, Workers* workers);
  /// The second half of a V-cycle on a level whose residual is in r: coarse correction, smoothing.
  void correct(std::size_t level, Workers* workers);

  std::vector<Level> levels_;
  DenseCholesky coarsest_;
};

/// Bilinear interpolation from the coarse grid of an nu x nv grid (see Multigrid) onto it; rows of
/// fixed fine nodes are empty. Sets the coarse grid's size.
SparseMatrix bilinearProlongation(int nu, int nv, const std::vector<bool>& fixed, int& coarseNu,
                                  int& coarseNv);

}  // namespace cloth::sim
