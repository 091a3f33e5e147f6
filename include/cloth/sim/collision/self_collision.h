#pragma once
// Cloth self-collision (Huang §5: cloth must not embed itself) by the point-triangle and edge-edge
// tests of Bridson, Fedkiw and Anderson 2002 §6.1, swept over the step by the side each point was on
// when it began.

#include <cstdint>
#include <span>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/collision/aabb_tree.h"

namespace cloth::sim {

struct SelfCollisionScratch {
  std::vector<int> candidates;
  std::vector<std::uint32_t> edgeStamp;
  std::uint32_t stamp = 0;
};

/// Every node closer than `thickness` (m) to a triangle it is not a corner of, or carried through it
/// in this step, and every pair of edges sharing no node that came as close or passed through each
/// other, are pushed apart to `thickness`, towards the sides they were on at xStart, and their
/// approach velocity is cancelled. Pinned nodes do not move; dragged ones do. A pair further through
/// each other than the step could have carried them, or whose plane turned over in the step, is left:
/// it was not this step's doing. A node resting on a collider (its `contactNormal`, one per node or
/// empty, is not zero) is not pushed into it: the other side of the contact takes the whole push.
/// `tree` must be refit to `cloth.x`. Returns the number of contacts resolved.
int resolveSelfCollisions(Cloth& cloth, std::span<const Vec3> xStart, const AabbTree& tree,
                          const ClothEdges& edges, Real thickness, std::span<const Vec3> contactNormal,
                          SelfCollisionScratch& scratch);

}  // namespace cloth::sim
