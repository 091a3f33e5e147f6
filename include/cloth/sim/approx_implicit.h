#pragma once
// Kang et al. 2001 approximate implicit update (eq. 4-10), in O(n) with no linear solve.
//
// Steps 4-5 of the update are one Jacobi iteration, started from dv0 = h F~ / d, on the system
// (M + h^2 L) dv = h F~ with L the stiffness-weighted graph Laplacian of the springs (Desbrun's
// approximate Hessian). More iterations converge to the solution of that system.
//
// The kernels run on structure-of-arrays copies of the state over springs grouped by offset
// (SpringStencil), so that the compiler vectorizes them.

#include <span>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/spring_stencil.h"

namespace cloth::sim {

/// Scratch buffers of the update, reused between steps.
struct ApproxImplicitWork {
  StencilWork stencil;
  NodeArrays forceTilde;      ///< F~ = F + h H v (N)
  NodeArrays dv;              ///< current velocity change (m/s)
  NodeArrays neighbourSum;
  std::vector<Real> diagonal; ///< d_i = m_i + h c + h^2 sum_j k_ij (kg)
  std::vector<Real> solveScale; ///< 1 / d_i on free nodes, 0 on kinematic ones
  void prepare(const Cloth& cloth);
  /// prepare() and load the cloth's positions and velocities into stencil.x and stencil.v.
  void loadState(const Cloth& cloth);
};

/// Kang eq. 4 on top of a given total force: F~_i = F_i + h sum_j k_ij (v_j - v_i).
void viscousForce(const Cloth& cloth, const Stiffness& k, Real h, std::span<const Vec3> force, ApproxImplicitWork& w);

/// d_i = m_i + h c_air + h^2 sum_j k_ij. The h c_air term treats global air damping implicitly too.
void implicitDiagonal(const Cloth& cloth, const Stiffness& k, Real h, Real airDamping, ApproxImplicitWork& w);

/// First guess, Kang eq. 9: dv*_i = h F~_i / d_i (zero on kinematic nodes).
void firstGuess(const Cloth& cloth, Real h, ApproxImplicitWork& w);

/// One Jacobi iteration, Kang eq. 10 with per-spring stiffness:
/// dv_i <- (h F~_i + h^2 sum_j k_ij dv_j) / d_i. Kinematic nodes keep dv = 0.
void jacobiIteration(const Cloth& cloth, const Stiffness& k, Real h, ApproxImplicitWork& w);

/// Euclidean norm over free nodes of h F~ - (D dv - h^2 sum k dv_j), the residual of the linear system.
Real implicitResidual(const Cloth& cloth, const Stiffness& k, Real h, ApproxImplicitWork& w);

/// dv of one step from the total force F (springs included), with `iterations` >= 1 Jacobi
/// iterations (1 = Kang). Result in w.dv.
void approxImplicitVelocityChange(const Cloth& cloth, const Stiffness& k, Real h, Real airDamping, int iterations,
                                  std::span<const Vec3> force, ApproxImplicitWork& w);

/// Full step from the external forces only (gravity, damping, wind): the spring forces and Kang's
/// viscosity are computed here in one pass over the springs, then dv as above, v += dv and
/// x += h v (eq. 1). Kinematic nodes move with their velocity.
void stepApproxImplicit(Cloth& cloth, const Stiffness& k, Real h, Real airDamping, int iterations,
                        std::span<const Vec3> externalForce, ApproxImplicitWork& w);

/// The same step for a caller that has already run w.loadState(cloth) and put the external forces
/// into w.forceTilde (as SoA), saving the conversions.
void stepApproxImplicitLoaded(Cloth& cloth, const Stiffness& k, Real h, Real airDamping, int iterations,
                              ApproxImplicitWork& w);

/// x_i += h v_i for every node.
void advancePositions(Cloth& cloth, Real h);

}  // namespace cloth::sim
