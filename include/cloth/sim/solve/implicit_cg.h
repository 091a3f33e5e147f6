#pragma once
// Implicit Euler after Baraff & Witkin 1998, with the exact spring Jacobian, solved matrix-free by
// Jacobi-preconditioned conjugate gradients. The expensive reference Kang et al. avoid.
//
// Solves (M + h c I - h^2 J) dv = h (F + h J v), J = dF/dx. Each spring contributes the 3x3 block
// K = k [n n^T + max(0, 1 - L/l) (I - n n^T)]; the transverse term is clamped at zero under
// compression so that the system stays positive definite.

#include <span>
#include <vector>

#include <glm/mat3x3.hpp>

#include "cloth/sim/cloth.h"
#include "cloth/sim/parallel.h"
#include "cloth/sim/solve/multigrid.h"
#include "cloth/sim/solve/resting_contacts.h"
#include "cloth/sim/spring_incidence.h"

namespace cloth::sim {

struct ImplicitCgWork {
  std::vector<glm::dmat3> blocks;  ///< per-spring stiffness block K (N/m)
  std::vector<Vec3> rhs, dv, r, z, p, q;
  std::vector<Vec3> precondition;  ///< inverse diagonal of the system, per node and axis (1/kg)
  std::vector<Vec3> springTerm;    ///< per spring: its term of a product with the system
  SpringIncidence incidence;       ///< the springs at each node, to sum those terms in parallel
  void resize(const Cloth& cloth);
};

struct CgReport {
  int iterations = 0;
  Real relativeResidual = 0;
};

/// BDF2's extra right-hand-side terms (bdf2.h): per node x - x- and v - v-, the state a step before.
struct Bdf2Lags {
  std::span<const Vec3> x, v;
};

/// The stiffness block of one spring (see file comment).
glm::dmat3 springStiffnessBlock(const Vec3& xa, const Vec3& xb, Real rest, Real k);

/// dv of one implicit Euler step; result in work.dv.
/// With a multigrid hierarchy of the isotropic system (approx_implicit.h) as `preconditioner`, each
/// iteration applies one of its V-cycles instead of the inverse diagonal.
/// With `resting` (one per node), the nodes resting on colliders are constrained in the solve and get
/// their friction (resting_contacts.h), which updates their stuck flags.
/// With `lags`, the system is BDF2's (bdf2.h) for h = 2/3 of its step.
CgReport implicitVelocityChange(const Cloth& cloth, const Stiffness& k, Real h, Real airDamping,
                                std::span<const Vec3> force, int maxIterations, Real tolerance,
                                ImplicitCgWork& work, Multigrid* preconditioner = nullptr,
                                Workers* workers = nullptr, std::span<RestingContact> resting = {},
                                const Bdf2Lags* lags = nullptr);

/// Full step: dv as above, v += dv, x += h v.
CgReport stepImplicitCG(Cloth& cloth, const Stiffness& k, Real h, Real airDamping,
                        std::span<const Vec3> force, int maxIterations, Real tolerance, ImplicitCgWork& work,
                        Multigrid* preconditioner = nullptr);

}  // namespace cloth::sim
