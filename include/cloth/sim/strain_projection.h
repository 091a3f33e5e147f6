#pragma once
// A global strain limit: fast projection (Goldenthal, Harmon, Fattal, Bercovier and Grinspun 2007,
// "Efficient simulation of inextensible cloth") of the springs Provot's passes leave over
// (1 + tau) L.
//
// Provot's passes are Gauss-Seidel: a column of springs carrying a hanging cloth sheds its excess one
// spring per pass, so a 100^2 curtain still peaks at strain 0.111 after 24 passes. Fast projection moves
// every node at once: with the structural springs at or near their limit as equality constraints
// C_s(x) = |x_b - x_a| - (1 + tau) L_s = 0 (those just under it keep their length), each projection
// solves (J W J^T) lambda = C for the smallest mass-weighted move Δx = -W J^T lambda that meets their
// linearisation, then checks the springs again. The solve is preconditioned along the chains of
// constrained springs (constraint_chains.h).

#include <cstdint>
#include <span>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/constraint_chains.h"
#include "cloth/sim/parallel.h"

namespace cloth::sim {

/// Limits of one projection.
struct StrainProjectionSettings {
  Real tau = 0.1;          ///< strain limit (dimensionless)
  Real tolerance = 1e-4;   ///< stop once no spring is longer than (1 + tolerance)(1 + tau) L
  Real nearLimit = 5e-3;   ///< springs within this share of their limit join the constraints
  Real mostExcess = 0.1;   ///< no projection where a spring is further over its limit than this share
  int maxIterations = 30;  ///< projections (each a linear solve) at most
  Real maxMove = 0.01;     ///< m: no node moves further in one projection (the rest is scaled down)
};

/// Outcome of projectStrain.
struct StrainProjectionReport {
  int iterations = 0;       ///< projections made (0: Provot's passes had left every spring within)
  int constraints = 0;      ///< springs constrained in the last projection
  int solveIterations = 0;  ///< conjugate-gradient iterations over all projections
  Real worstExcess = 0;     ///< largest |x_b - x_a| / ((1 + tau) L) - 1 left at the end
};

/// Scratch of projectStrain, reused between steps.
struct StrainProjectionWork {
  std::vector<std::uint32_t> active;  ///< constrained springs (indices into the list)
  std::vector<Vec3> direction;        ///< their unit directions a -> b
  std::vector<Real> c, lambda, r, z, p, ap;
  ConstraintChains chains;    ///< the solve's preconditioner
  std::vector<Vec3> nodeSum;  ///< W J^T of a constraint vector, per node
  std::vector<Vec3> before;   ///< positions before the projections, to undo them if they made it worse
};

/// Largest |x_b - x_a| / ((1 + tau) L) - 1 over the list's springs (negative if all are shorter).
Real worstStretchExcess(std::span<const Vec3> x, std::span<const Spring> springs, Real tau,
                        Workers* workers = nullptr);

/// Moves the free nodes (kind Free; the others have infinite mass) so that no spring of `springs` is
/// longer than (1 + tau) L, within the tolerance, or until maxIterations projections ran. Every free
/// node weighs the same (the cloth's nodes share one mass). A node resting on a collider moves only
/// along or off it (`contactNormal`, as limitStretch).
StrainProjectionReport projectStrain(std::span<Vec3> x, std::span<const Spring> springs,
                                     std::span<const NodeKind> kind, const StrainProjectionSettings& settings,
                                     StrainProjectionWork& work, std::span<const Vec3> contactNormal = {});

}  // namespace cloth::sim
