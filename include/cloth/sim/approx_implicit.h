#pragma once
// Kang et al. 2001 approximate implicit update (eq. 4-10), in O(n) with no linear solve.
//
// Steps 4-5 of the update are one Jacobi iteration, started from dv0 = h F~ / d, on the system
// (M + h^2 L) dv = h F~ with L the stiffness-weighted graph Laplacian of the springs (Desbrun's
// approximate Hessian). More iterations converge to the solution of that system.

#include <span>
#include <vector>

#include "cloth/sim/cloth.h"

namespace cloth::sim {

/// Scratch buffers of the update, reused between steps.
struct ApproxImplicitWork {
  std::vector<Vec3> forceTilde;  ///< F~ = F + h H v (N)
  std::vector<Real> diagonal;    ///< d_i = m_i + h c + h^2 sum_j k_ij (kg)
  std::vector<Vec3> dv;          ///< current velocity change (m/s)
  std::vector<Vec3> neighbourSum;
  void resize(std::size_t nodes);
};

/// Kang eq. 4: F~_i = F_i + h sum_j k_ij (v_j - v_i). Writes `forceTilde`.
void viscousForce(const Cloth& cloth, const Stiffness& k, Real h, std::span<const Vec3> force,
                  std::span<Vec3> forceTilde);

/// d_i = m_i + h c_air + h^2 sum_j k_ij. The h c_air term treats global air damping implicitly too.
void implicitDiagonal(const Cloth& cloth, const Stiffness& k, Real h, Real airDamping, std::span<Real> diagonal);

/// First guess, Kang eq. 9: dv*_i = h F~_i / d_i (zero on kinematic nodes).
void firstGuess(const Cloth& cloth, Real h, std::span<const Vec3> forceTilde, std::span<const Real> diagonal,
                std::span<Vec3> dv);

/// One Jacobi iteration, Kang eq. 10 with per-spring stiffness:
/// dv_i <- (h F~_i + h^2 sum_j k_ij dv_j) / d_i. Kinematic nodes keep dv = 0.
void jacobiIteration(const Cloth& cloth, const Stiffness& k, Real h, std::span<const Vec3> forceTilde,
                     std::span<const Real> diagonal, std::span<Vec3> dv, std::span<Vec3> neighbourSum);

/// Euclidean norm over free nodes of h F~ - (D dv - h^2 sum k dv_j), the residual of the linear system.
Real implicitResidual(const Cloth& cloth, const Stiffness& k, Real h, std::span<const Vec3> forceTilde,
                      std::span<const Real> diagonal, std::span<const Vec3> dv);

/// Computes dv with `iterations` >= 1 Jacobi iterations (1 = Kang). Result in work.dv.
void approxImplicitVelocityChange(const Cloth& cloth, const Stiffness& k, Real h, Real airDamping,
                                  int iterations, std::span<const Vec3> force, ApproxImplicitWork& work);

/// Full step: dv as above, then v += dv and x += h v (eq. 1). Kinematic nodes move with their velocity.
void stepApproxImplicit(Cloth& cloth, const Stiffness& k, Real h, Real airDamping, int iterations,
                        std::span<const Vec3> force, ApproxImplicitWork& work);

/// x_i += h v_i for every node.
void advancePositions(Cloth& cloth, Real h);

}  // namespace cloth::sim
