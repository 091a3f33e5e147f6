#pragma once
// Bounding volume hierarchy of axis-aligned boxes over the cloth's triangles (Huang §5).
// Built once for the topology, refit bottom-up every step; serves the cloth-collider broad phase,
// self-collision and mouse picking.

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "cloth/sim/cloth.h"
#include "cloth/sim/collision/aabb.h"
#include "cloth/sim/collision/float_boxes.h"
#include "cloth/sim/collision/normal_cone.h"
#include "cloth/sim/parallel.h"

namespace cloth::sim {

/// Closest ray hit on a triangle.
struct RayHit {
  int triangle = -1;
  Real t = 0;           ///< ray parameter of the hit
  Vec3 barycentric{0};  ///< weights of the triangle's vertices v[0], v[1], v[2]
  Vec3 point{0};
};

class AabbTree {
 public:
  /// Builds the hierarchy for `triangles` at positions x (median split along the widest axis).
  void build(std::span<const Vec3> x, std::span<const Triangle> triangles);

  /// Recomputes every box from positions x (of the triangles given to build), each triangle's box
  /// inflated by `margin` (m). The queries below read the triangles' boxes kept here: computed in
  /// each leaf a query reached, they were a third of a dragged drape's step.
  /// The leaves are split over `workers`: the same boxes on any thread count.
  void refit(std::span<const Vec3> x, Real margin = 0, Workers* workers = nullptr);

  /// After nodes moved since the last refit: the box of `triangle` (an index into the triangles given
  /// to build) follows positions x, so that the queries below see it where it is; the boxes of the
  /// leaf and the nodes above it stay as refit left them.
  void updateTriangleBox(std::span<const Vec3> x, int triangle);

  /// Refit for a motion: every triangle's box holds it at both x0 and x1 (the start and end of a
  /// step, moving in straight lines), inflated by `margin` (m). `triangles` are those given to build.
  void refitSwept(std::span<const Vec3> x0, std::span<const Vec3> x1, std::span<const Triangle> triangles,
                  Real margin, Workers* workers = nullptr);

  /// Marks the flat patches for the motion from x0 to x1 (x0 = x1 for one instant), after a refit:
  /// nodes whose triangles are connected and whose normals, all along the motion, lie within
  /// `maxHalfAngle` (radians, below pi / 2) of one axis (normal_cone.h). Such a patch does not touch
  /// itself, so the queries below leave it out for a query that starts on it. A refit clears the marks.
  void refitCones(std::span<const Vec3> x0, std::span<const Vec3> x1, std::span<const Triangle> triangles,
                  Real maxHalfAngle, Workers* workers = nullptr);

  /// Appends to `out` the index of every triangle whose box at the last refit, inflated by its
  /// margin, overlaps `box`, but those of a flat patch (refitCones) holding all the `own` triangles
  /// (the query's own: those round the node or edge it asks for; -1 stands for none), or holding
  /// some of them and flat together with them all, and the triangles of a flat leaf, flat together
  /// with the own ones, that share a corner with one: with the own triangles, each is one connected
  /// patch within refitCones' cone (a crease at the node leaves them in).
  void overlapping(const Aabb& box, std::vector<int>& out, std::span<const int> own = {}) const;

  /// After refitSwept(): appends to `out` every triangle whose swept box overlaps `box`, but those
  /// overlapping leaves out for the `own` triangles.
  void overlappingSwept(const Aabb& box, std::vector<int>& out, std::span<const int> own = {}) const;

  /// Calls visit(i, j) once for every pair of distinct triangles whose boxes (at the last refit)
  /// overlap, but pairs within one flat patch (refitCones): one walk of the tree against itself, not
  /// a query per triangle.
  void selfOverlaps(const std::function<void(int, int)>& visit) const;

  /// A piece of selfOverlaps' walk: the pairs within tree node a (a == b), or across nodes a and b.
  struct OverlapPiece {
    std::int32_t a = 0, b = 0;
  };
  /// selfOverlaps cut into pieces for the threads (about `atLeast`, fewer where the tree is shallow):
  /// selfOverlapsOf each piece, in order, visits the same pairs in the same order as selfOverlaps.
  void selfOverlapPieces(std::size_t atLeast, std::vector<OverlapPiece>& out) const;
  void selfOverlapsOf(const OverlapPiece& piece, const std::function<void(int, int)>& visit) const;

  /// How many nodes the last refitCones found flat (for tests and benchmarks).
  int flatNodeCount() const;

  /// A nearest-point search: calls closer(triangle, best2) for the triangles whose boxes (at the last
  /// refit) lie within sqrt(best2) of p, nearer subtrees first. closer lowers best2 (a squared
  /// distance, m^2) to what it found, and the boxes farther than the best so far are left out: the
  /// triangles a box query of radius sqrt(best2) would list, but most of them never visited.
  template <class Closer>
  void nearestFirst(const Vec3& p, Real& best2, Closer closer) const;

  /// Closest intersection of the ray with the triangles, if any, with t in [0, tMax].
  std::optional<RayHit> raycast(const Ray& ray, std::span<const Vec3> x, std::span<const Triangle> triangles,
                                Real tMax = std::numeric_limits<Real>::infinity()) const;

  bool empty() const { return nodes_.empty(); }
  const Aabb& rootBox() const { return nodes_.front().box; }

 private:
  struct Node {
    Aabb box;
    std::int32_t left = -1;  ///< child indices, -1 for a leaf
    std::int32_t right = -1;
    std::int32_t first = 0;  ///< the node's triangles: a range in order_
    std::int32_t count = 0;
  };
  void selfOverlapsIn(std::size_t node, const std::function<void(int, int)>& visit) const;
  void crossOverlaps(std::size_t a, std::size_t b, const std::function<void(int, int)>& visit) const;
  template <class Enter, class Leaf>
  void visitLeaves(Enter enter, Leaf leaf) const;
  std::size_t indexOf(const Node& n) const { return static_cast<std::size_t>(&n - nodes_.data()); }
  /// A query's own triangles and, once first asked for, the cone of their normals over the motion.
  struct OwnPatch {
    std::span<const int> own;
    bool known = false;
    NormalCone cone;
    std::array<NodeIndex, 24> corners{};  ///< the own triangles' corners (once `known`)
    std::size_t cornerCount = 0;
  };
  bool skipsFor(const Node& node, std::size_t index, OwnPatch& patch) const;
  const NormalCone& ownCone(OwnPatch& patch) const;
  bool leafSkipsNeighbours(std::size_t index, OwnPatch& patch) const;
  void collect(const std::vector<Aabb>& boxes, const FloatBoxes* rounded, const Aabb& box,
               std::vector<int>& out, std::span<const int> own) const;
  bool touches(const Triangle& t, const OwnPatch& patch) const;
  void findConnectedNodes(std::span<const Triangle> triangles);
  std::int32_t buildRange(std::span<const Vec3> centroids, int first, int count);

  std::vector<Node> nodes_;              ///< parents before children
  std::vector<int> order_;               ///< triangle indices, grouped by leaf
  std::vector<Real> buildArea_;          ///< per triangle: its area at build (rest)
  std::vector<int> positionOf_;          ///< triangle index -> its place in order_
  std::vector<std::uint8_t> connected_;  ///< per node: its triangles form one patch (by shared corners)
  std::vector<std::uint8_t> flat_;       ///< per node: a flat patch (refitCones)
  std::vector<NormalCone> cones_;        ///< refitCones': per node
  /// refitCones': per triangle (an index into the triangles given to build), what bounds its normal
  /// along the motion (sweptNormalBounds), and whether it was pressed to under half its area.
  std::vector<std::array<Vec3, 3>> normalBounds_;
  std::vector<std::uint8_t> pressed_;
  Real flatHalfAngle_ = 0;              ///< refitCones' maxHalfAngle
  std::vector<std::size_t> leafNodes_;  ///< indices of the leaves in nodes_
  template <class Leaf>
  void refitLeavesThenUp(Workers* workers, Leaf leaf);
  Real margin_ = 0;                ///< of the last refit
  std::vector<Aabb> sweptBoxes_;   ///< refitSwept's triangle boxes, in order_'s order
  std::vector<Triangle> ordered_;  ///< the triangles given to build, in order_'s order
  std::vector<Aabb> boxes_;        ///< refit's triangle boxes, inflated by its margin, in order_'s order
  /// sweptBoxes_ rounded out to single precision: the leaves' first test in the self-pair search,
  /// four at a time
  FloatBoxes roundedSweptBoxes_;
};

template <class Closer>
void AabbTree::nearestFirst(const Vec3& p, Real& best2, Closer closer) const {
  if (nodes_.empty()) return;
  const auto distance2 = [&](const Aabb& b) {
    const Vec3 d = glm::max(glm::max(b.lo - p, p - b.hi), Vec3(0));
    return glm::dot(d, d);
  };
  struct Entry {
    std::int32_t node;
    Real distance2;
  };
  Entry stack[64];  // a balanced tree of 2^40 leaves at most: each level leaves one entry behind
  int top = 0;
  stack[top++] = {0, distance2(nodes_[0].box)};
  while (top > 0) {
    const Entry e = stack[--top];
    if (e.distance2 > best2) continue;
    const Node& node = nodes_[static_cast<std::size_t>(e.node)];
    if (node.left < 0) {
      for (int i = node.first; i < node.first + node.count; ++i)
        if (distance2(boxes_[static_cast<std::size_t>(i)]) <= best2)
          closer(order_[static_cast<std::size_t>(i)], best2);
      continue;
    }
    const Entry left{node.left, distance2(nodes_[static_cast<std::size_t>(node.left)].box)},
        right{node.right, distance2(nodes_[static_cast<std::size_t>(node.right)].box)};
    stack[top++] = left.distance2 <= right.distance2 ? right : left;  // the nearer one on top
    stack[top++] = left.distance2 <= right.distance2 ? left : right;
  }
}

}  // namespace cloth::sim
