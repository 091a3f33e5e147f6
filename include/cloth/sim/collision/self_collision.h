#pragma once
// Cloth self-collision (Huang §5: cloth must not embed itself), its first half: the proximity
// (repulsion) pass of Bridson, Fedkiw and Anderson 2002 §6.1 and §7.1, point-triangle and edge-edge,
// which keeps layers a thickness apart. What passed through in the step is the second half's
// (self_impacts.h).

#include <cstdint>
#include <span>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/collision/pairs.h"
#include "cloth/sim/parallel.h"

namespace cloth::sim {

struct SelfCollisionScratch {
  std::vector<PairOf> pairs;                ///< the pairs in proximity at the pass's start
  std::vector<std::vector<PairOf>> blocks;  ///< those each block of candidates held
  std::vector<std::uint8_t> pushed;         ///< per pair: pushed in some sweep
};

/// The gap (m) the cloth keeps from itself: the contact thickness, but no more than a third of the
/// key spacing. Thicker than that, a node is pushed off the triangles next to its own wherever the
/// cloth is pressed together in its plane, which the cloth's own compression does everywhere: a
/// 100^2 curtain of 1 cm spacing hung at peak strain 0.28 with 5 mm, 0.111 with 3.3 mm (the same as
/// without self-collision).
Real selfContactThickness(Real thickness, Real keySpacing);

/// Every node closer than `thickness` (m) to a triangle it is not a corner of, and every pair of edges
/// sharing no node as close, on the sides they were on at xStart, are pushed apart to `thickness`,
/// their approach velocity is cancelled and their sliding along each other slowed by Coulomb
/// friction (the least `friction` of the pair's nodes, one per node or empty for none, times the
/// approach stopped; Bridson et al. 2002 §7.2): layers at rest on each other stay, where without it
/// the top cloth of a stack on a ball slid off it (CollisionSettings::selfFriction). A side resting on a
/// collider is held there by the collider's own friction, and the other side takes the whole slowing. Pinned
/// nodes do not move; dragged ones do. A pair through each other (on the other side than at xStart), or whose
/// plane turned over in the step, is left: resolveSelfImpacts puts it back along its path. A node resting on
/// a collider (its `contactNormal`, one per node or empty, is not zero) is not pushed into it: the other side
/// of the contact takes the whole push. The pairs are taken from `candidates`, which must hold every pair
/// that can be in proximity where the cloth is on entry (findSelfPairs with a reach of at least the thickness
/// lists them: the step's one broad phase, self_pairs.h), tested in parallel over `workers`, then pushed in
/// their order (Gauss-Seidel, two sweeps), each tested again where the pushes before it left it: the same
/// cloth on any thread count. A pair that only the pushes bring within the thickness is the continuous
/// pass's. Returns the number of pairs pushed.
int resolveSelfCollisions(Cloth& cloth, std::span<const Vec3> xStart, std::span<const PairOf> candidates,
                          Real thickness, std::span<const Real> friction, std::span<const Vec3> contactNormal,
                          SelfCollisionScratch& scratch, Workers* workers = nullptr);

}  // namespace cloth::sim
