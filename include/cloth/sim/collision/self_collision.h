#pragma once
// Cloth self-collision by vertex-triangle proximity (Huang §5: cloth must not embed itself).

#include <span>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/collision/aabb_tree.h"

namespace cloth::sim {

struct SelfCollisionScratch {
  std::vector<int> candidates;
};

/// For every free node closer than `thickness` (m) to a triangle it is not a corner of, pushes the node
/// and the triangle apart along the triangle normal, towards the side the node was on at xStart, and
/// cancels their approaching normal velocity. `tree` must be refit to `cloth.x` with margin
/// >= thickness. Returns the number of contacts resolved.
int resolveSelfCollisions(Cloth& cloth, std::span<const Vec3> xStart, const AabbTree& tree, Real thickness,
                          SelfCollisionScratch& scratch);

}  // namespace cloth::sim
