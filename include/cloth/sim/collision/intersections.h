#pragma once
// Measurements of contact failures, for statistics and tests: cloth triangles that pass through each
// other, and cloth that passes through a collider. They count what a viewer would show as cloth
// poking through, so a test can demand zero.

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/collision/aabb_tree.h"
#include "cloth/sim/collision/collider.h"
#include "cloth/sim/parallel.h"

namespace cloth::sim {

/// A straight segment from a to b (m).
struct Segment {
  Vec3 a{0};
  Vec3 b{0};
};

/// How deep (m) a node must be inside a collider's surface to count as through it: below rounding,
/// well below any contact thickness.
inline constexpr Real kPenetrationTolerance = 1e-5;

/// Whether the segment crosses the triangle (p0, p1, p2), ends included.
bool crosses(const Segment& s, const Vec3& p0, const Vec3& p1, const Vec3& p2);

/// Whether two triangles intersect: an edge of one crosses the other (non-coplanar triangles).
bool trianglesIntersect(const Vec3 (&t)[3], const Vec3 (&u)[3]);

/// Pairs of the cloth's triangles that intersect and share no node. `tree` must have been refit at
/// cloth.x (any margin); after refitCones at cloth.x, pairs within a flat patch are left out (they
/// cannot intersect). One walk of the tree against itself (AabbTree::selfOverlaps), its pieces split
/// over `workers` (null: the caller's thread): the same count on any thread count.
int countSelfIntersections(const Cloth& cloth, const AabbTree& tree, Workers* workers = nullptr);

/// The same pairs (triangle indices), in the walk's order whatever the thread count.
void listSelfIntersections(const Cloth& cloth, const AabbTree& tree, std::vector<std::pair<int, int>>& out,
                           Workers* workers = nullptr);

/// The collider's edges in the world: a box's twelve, a mesh's (each once); none for smooth shapes.
void colliderEdges(const Collider& collider, std::vector<Segment>& out);

struct ContactFailures {
  int selfIntersections = 0;  ///< countSelfIntersections
  /// What is through the colliders: nodes (free or dragged) more than kPenetrationTolerance inside a
  /// collider (a mesh: by its winding number, within 5 cm of its surface), plus collider edges that
  /// pierce a cloth triangle, plus the cloth triangles a capsule passes through between their nodes (its
  /// axis through them, or an edge of theirs through its solid), but not those with a pinned corner: a
  /// flag's hoist is pinned on its pole's axis.
  int colliderPenetrations = 0;
};

/// Both counts for a cloth at any moment, with a tree of its own (built for the first cloth measured,
/// rebuilt when the triangle count changes).
class ContactAudit {
 public:
  /// The counts, their loops split over `workers` (a simulation's, between its steps; null: the caller's
  /// thread alone): the same counts on any thread count.
  ContactFailures measure(const Cloth& cloth, std::span<const Collider> colliders,
                          Workers* workers = nullptr);

 private:
  /// Which side of a mesh a node was found on, by winding number, where, and how far from the surface
  /// it was: moved less than that, or along a path that crosses no triangle, it cannot have changed
  /// side (the winding number changes only across the surface), and the winding number
  /// (O(triangles)) is not needed again.
  struct NodeSide {
    Vec3 at{0};      ///< in the mesh's coordinates
    Real clear = 0;  ///< m: how far from the surface it was at `at` (0: not measured there)
    bool known = false;
    bool inside = false;
  };
  struct MeshSides {
    MeshPlacement placement;
    std::vector<NodeSide> nodes;
  };

  int colliderPenetrations(const Cloth& cloth, std::span<const Collider> colliders, Workers* workers);
  int nodesInsideMesh(const Cloth& cloth, const Collider& collider, Workers* workers);
  int meshEdgesThroughCloth(const Cloth& cloth, const Collider& collider, Workers* workers);

  AabbTree tree_;
  std::size_t builtFor_ = static_cast<std::size_t>(-1);
  /// Per mesh, per triangle edge (3 t + k): whether the edge is counted with this triangle (each edge
  /// with the first triangle on it). Held: no reuse.
  std::map<std::shared_ptr<const CollisionMesh>, std::vector<std::uint8_t>> edgeOwners_;
  std::vector<Segment> edges_;  ///< an analytic collider's, in the world
  std::map<std::shared_ptr<const CollisionMesh>, MeshSides> sides_;
};

}  // namespace cloth::sim
