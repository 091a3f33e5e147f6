#pragma once
// Kang et al. 2001 approximate implicit update (eq. 4-10), in O(n) with no linear solve.
//
// Implicit Euler with Desbrun's approximate Hessian (spring_graph.h) asks for the velocity change
// dv of the linear system (M + h c + h^2 L) dv = h F~ (Kang eq. 3, 6), L the stiffness-weighted
// graph Laplacian of the springs. Kang's eq. 9 guesses every node's dv from its own row; eq. 10
// improves it once from the neighbours' guesses: one Jacobi iteration. More iterations converge to
// the system's solution (Desbrun's method without the precomputed inverse).
//
// Kang eq. 11-13 are not a step of the method: they apply eq. 10 to two mass points joined by one
// spring to show that it shortens the spring by the factor of eq. 13 and so never overshoots. The test
// "two-mass separation factor equals Kang eq. 13" checks this code against it.

#include <span>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/solve/multigrid.h"
#include "cloth/sim/solve/sparse_matrix.h"
#include "cloth/sim/solve/spring_graph.h"

namespace cloth::sim {

/// Kang eq. 4: F~_i = F_i + h sum_j k_ij (v_j - v_i), the viscosity force h H v of eq. 3. `sum` is
/// scratch.
void addKangViscosity(const SpringGraph& g, std::span<const Vec3> v, Real h, std::span<Vec3> force,
                      std::span<Vec3> sum, Workers* workers = nullptr);

/// d_i = m_i + h c + h^2 sum_j k_ij (kg): the system's diagonal, eq. 7's denominator with global air
/// damping c (N s/m) treated implicitly too.
void implicitDiagonal(std::span<const Real> mass, const SpringGraph& g, Real h, Real c, std::span<Real> d);

/// Kang eq. 9: dv*_i = h F~_i / d_i; zero on kinematic nodes, which move as prescribed.
void kangFirstGuess(std::span<const NodeKind> kind, std::span<const Vec3> forceTilde, std::span<const Real> d,
                    Real h, std::span<Vec3> dvStar, Workers* workers = nullptr);

/// Kang eq. 10 with per-spring stiffness: dv_i = (h F~_i + h^2 sum_j k_ij dv*_j) / d_i; zero on
/// kinematic nodes (whose dv* is zero too, so they pass nothing on). `sum` is scratch.
void kangUpdate(const SpringGraph& g, std::span<const NodeKind> kind, std::span<const Vec3> forceTilde,
                std::span<const Real> d, Real h, std::span<const Vec3> dvStar, std::span<Vec3> dv,
                std::span<Vec3> sum, Workers* workers = nullptr);

/// Norm over free nodes of h F~ - (d dv - h^2 sum_j k_ij dv_j): how far dv is from solving the system.
Real implicitResidual(const SpringGraph& g, std::span<const NodeKind> kind, std::span<const Vec3> forceTilde,
                      std::span<const Real> d, Real h, std::span<const Vec3> dv, std::span<Vec3> sum);

/// Scratch of the update, reused between steps.
struct ApproxImplicitWork {
  std::vector<Vec3> forceTilde;  ///< F~ (N)
  std::vector<Real> diagonal;    ///< d (kg)
  std::vector<Vec3> guess, dv;   ///< dv* and dv (m/s)
  std::vector<Vec3> sum;         ///< neighbour sums
  void resize(std::size_t nodes);
};

/// The velocity change of one step for the total force F: F~ by eq. 4, the guess of eq. 9, then
/// `iterations` >= 1 of eq. 10, each from the previous result (1 = Kang). Result in work.dv.
void approxImplicitVelocityChange(const Cloth& cloth, const SpringGraph& g, Real h, Real airDamping,
                                  int iterations, std::span<const Vec3> force, ApproxImplicitWork& work,
                                  Workers* workers = nullptr);

/// Kang's ratio r = h^2 sum_j k_ij / m_i of how stiff a node's springs are against its inertia at
/// step h: the cloth's mean over free nodes, and its largest.
struct StiffnessRatio {
  Real mean = 0;
  Real largest = 0;
};
StiffnessRatio stiffnessRatio(const Cloth& cloth, const Stiffness& k, Real h);

/// The fraction of the exact velocity change under a uniform force (gravity, a steady wind) that
/// the guess of eq. 9 and `iterations` Jacobi iterations of eq. 10 give at ratio r:
/// 1 - (r / (1 + r))^(iterations + 1), which is (1 + 2r) / (1 + r)^2 for Kang's single iteration.
Real jacobiResponse(Real r, int iterations);

/// The system matrix M + h c + h^2 L itself (diagonal d_i, off-diagonal -h^2 k_ij); rows and columns
/// of kinematic nodes are identity, since their dv is 0.
SparseMatrix implicitMatrix(const Cloth& cloth, const SpringGraph& g, Real h, Real c);

/// The converged solve of the same system by multigrid (multigrid.h). The hierarchy is kept between
/// steps and rebuilt when h, c, the stiffness, the masses or the kinematic nodes change; each solve
/// starts from the previous step's dv.
class ConvergedVelocityChange {
 public:
  /// dv for the total force F into work.dv: F~ by eq. 4, then V-cycles until the relative residual
  /// is below `tolerance` or `maxCycles` have run.
  Multigrid::Report solve(const Cloth& cloth, const SpringGraph& g, Real h, Real airDamping, int maxCycles,
                          Real tolerance, std::span<const Vec3> force, ApproxImplicitWork& work,
                          Workers* workers = nullptr);
  /// The hierarchy for this cloth, h and c, rebuilt first if anything it depends on changed.
  Multigrid& prepare(const Cloth& cloth, const SpringGraph& g, Real h, Real c);
  int levelCount() const { return multigrid_.levelCount(); }
  /// How many times the hierarchy was built.
  int builds() const { return builds_; }

 private:
  bool upToDate(const Cloth& cloth, const SpringGraph& g, Real h, Real c) const;

  Multigrid multigrid_;
  int builds_ = 0;
  // What the hierarchy was built for.
  Real h_ = -1, c_ = -1, hPrevious_ = -1;
  const SpringGraph* graph_ = nullptr;
  std::vector<Real> weight_, mass_;
  std::vector<NodeKind> kind_;
  std::vector<Vec3> rhs_, previous_;  ///< previous: last dv, the next solve's start
};

}  // namespace cloth::sim
