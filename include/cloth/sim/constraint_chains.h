#pragma once
// The preconditioner of the strain projection's conjugate gradients (strain_projection.h): its
// constrained springs split into chains, each solved exactly.
//
// A hanging cloth's load runs down its columns: the projection's system J W J^T couples each
// constrained spring to the next of its column (and row), and unpreconditioned conjugate gradients need
// about as many iterations as a column has springs. Consecutive springs of a chain share a free node and
// run nearly straight on through it; the part of J W J^T that couples a chain's springs to each other
// is tridiagonal, and solving it (Thomas's algorithm) for every chain is a block-Jacobi preconditioner
// (line relaxation, as for a grid's rows and columns) that costs one pass over the constraints. It
// is J_c W J_c^T for each chain c, so symmetric and positive (semi-)definite as the system is.

#include <cstdint>
#include <span>
#include <vector>

#include "cloth/sim/cloth.h"

namespace cloth::sim {

/// Chains of constraints and the factorised tridiagonal system of each.
struct ConstraintChains {
  std::vector<std::uint32_t> order;  ///< constraint indices, chain after chain, each in its chain's order
  std::vector<std::uint32_t> start;  ///< chain c is order[start[c] .. start[c + 1]) (one past the last too)
  std::vector<Real> coupling;  ///< per position of order: (J W J^T) with the previous of its chain (0 first)
  std::vector<Real> pivot;     ///< per position of order: Thomas's pivot
  // Scratch of buildChains.
  std::vector<std::int64_t> link;        ///< per constraint end (2 k + end): 2 j + end of j it joins, or -1
  std::vector<std::uint32_t> endsAt;     ///< constraint ends (2 k + end) grouped by node
  std::vector<std::uint32_t> nodeStart;  ///< node n's ends are endsAt[nodeStart[n] .. nodeStart[n + 1])
  std::vector<std::uint8_t> visited;     ///< per constraint
};

/// Splits the constraints (`active` springs, unit `direction`s a -> b) into chains: at each free node,
/// pairs of its springs whose directions are within 45 degrees of straight on join, straightest first;
/// a spring's two ends join at most one other spring each. A loop of springs is cut once. Then
/// factorises each chain's tridiagonal part of J W J^T (free nodes weigh 1, the others 0).
void buildChains(std::span<const Spring> springs, std::span<const NodeKind> kind,
                 std::span<const std::uint32_t> active, std::span<const Vec3> direction,
                 std::size_t nodeCount, ConstraintChains& chains);

/// z = M^-1 r, where M is the block-diagonal part of J W J^T along the chains of buildChains.
void solveChains(const ConstraintChains& chains, std::span<const Real> r, std::span<Real> z);

}  // namespace cloth::sim
