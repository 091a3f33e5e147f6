#include "cloth/sim/collision/self_collision.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/point_move.h"

namespace cloth::sim {
namespace {

bool hasCorner(const Triangle& t, NodeIndex n) {
  return t.v[0] == n || t.v[1] == n || t.v[2] == n;
}

// Where the nodes are, as a box grown by the thickness.
Aabb boxAround(const Cloth& c, std::initializer_list<NodeIndex> nodes, Real margin) {
  Aabb b;
  for (NodeIndex n : nodes) b.grow(c.x[n]);
  return b.inflated(margin);
}

// Whether a cloth point can be moved along `dir`: one of its movable (not pinned) nodes is not resting
// on a collider that the move would push it into.
template <std::size_t N>
bool canPush(const Cloth& c, std::span<const Vec3> contactNormal, const std::array<NodeIndex, N>& nodes,
             const std::array<Real, N>& w, const Vec3& dir) {
  for (std::size_t k = 0; k < N; ++k)
    if (w[k] > 0 && c.collides(nodes[k]) &&
        (contactNormal.empty() || glm::dot(contactNormal[nodes[k]], dir) >= 0))
      return true;
  return false;
}

// Two cloth points, a (weights wa over nodes na) and b, pushed apart along the unit n (pointing from b
// to a) until a is `depth` further from b, and their approach along n stopped: each takes half, or all
// of it where the other cannot move (pinned, or resting on a collider the push would go into).
template <std::size_t N, std::size_t M>
bool pushApart(Cloth& c, std::span<const Vec3> contactNormal, const std::array<NodeIndex, N>& na,
               const std::array<Real, N>& wa, const std::array<NodeIndex, M>& nb,
               const std::array<Real, M>& wb, const Vec3& n, Real depth) {
  const bool aMoves = canPush(c, contactNormal, na, wa, n), bMoves = canPush(c, contactNormal, nb, wb, -n);
  if (!aMoves && !bMoves) return false;
  const Real shareA = aMoves && bMoves ? 0.5 : aMoves ? 1.0 : 0.0;
  const Real approach = std::max<Real>(0, -glm::dot(pointVelocity(c, na, wa) - pointVelocity(c, nb, wb), n));
  if (aMoves) movePoint(c, na, wa, shareA * depth * n, shareA * approach * n);
  if (bMoves) movePoint(c, nb, wb, -(1 - shareA) * depth * n, -(1 - shareA) * approach * n);
  return true;
}

// Node p against triangle t (Bridson et al. 2002 §6.1, point-triangle): the side p was on at the
// step's start decides where it belongs. A node already through the triangle is left to the
// continuous pass (self_impacts.h), which moves it back along its path rather than across.
bool pointTriangle(Cloth& c, std::span<const Vec3> xStart, std::span<const Vec3> contactNormal, NodeIndex p,
                   const Triangle& t, Real thickness) {
  const Vec3 &a = c.x[t.v[0]], &b = c.x[t.v[1]], &d = c.x[t.v[2]];
  const Vec3 cr = glm::cross(b - a, d - a);
  const Vec3 crStart = glm::cross(xStart[t.v[1]] - xStart[t.v[0]], xStart[t.v[2]] - xStart[t.v[0]]);
  const Real crLen = glm::length(cr);
  if (crLen == 0 || glm::dot(cr, crStart) <= 0) return false;  // degenerate, or turned over: no side
  const Real side = glm::dot(xStart[p] - xStart[t.v[0]], crStart) >= 0 ? 1 : -1;
  const Vec3 n = side * cr / crLen;  // towards the side p came from
  Vec3 bary;
  const Vec3 q = closestPointOnTriangle(c.x[p], a, b, d, bary);
  const Real gap = glm::dot(c.x[p] - q, n);
  if (gap >= thickness) return false;
  if (gap < 0) return false;                                          // through: not a proximity
  if (glm::length((c.x[p] - q) - gap * n) > thickness) return false;  // beside the triangle
  return pushApart<1, 3>(c, contactNormal, {p}, {1}, {t.v[0], t.v[1], t.v[2]}, {bary.x, bary.y, bary.z}, n,
                         thickness - gap);
}

// Cloth edge e against cloth edge f (Bridson et al. 2002 §6.1, edge-edge), as pointTriangle: the side
// of f that e's closest point was on at the step's start decides.
bool edgeEdge(Cloth& c, std::span<const Vec3> xStart, std::span<const Vec3> contactNormal,
              const std::array<NodeIndex, 2>& e, const std::array<NodeIndex, 2>& f, Real thickness) {
  const auto [u, w] = closestSegmentParameters(c.x[e[0]], c.x[e[1]], c.x[f[0]], c.x[f[1]]);
  if (!(u > 0 && u < 1 && w > 0 && w < 1)) return false;  // ends are the point-triangle tests' job
  const Vec3 cr = glm::cross(c.x[e[1]] - c.x[e[0]], c.x[f[1]] - c.x[f[0]]);
  const Vec3 crStart = glm::cross(xStart[e[1]] - xStart[e[0]], xStart[f[1]] - xStart[f[0]]);
  const Real crLen = glm::length(cr);
  if (crLen == 0 || glm::dot(cr, crStart) <= 0) return false;  // parallel, or turned over
  auto at = [](std::span<const Vec3> x, const std::array<NodeIndex, 2>& s, Real k) {
    return x[s[0]] + k * (x[s[1]] - x[s[0]]);
  };
  const Real side = glm::dot(at(xStart, e, u) - at(xStart, f, w), crStart) >= 0 ? 1 : -1;
  const Vec3 n = side * cr / crLen;  // from f towards the side e came from
  const Real gap = glm::dot(at(c.x, e, u) - at(c.x, f, w), n);
  if (gap >= thickness || gap < 0) return false;
  return pushApart<2, 2>(c, contactNormal, e, {1 - u, u}, f, {1 - w, w}, n, thickness - gap);
}

bool sharesNode(const std::array<NodeIndex, 2>& e, const std::array<NodeIndex, 2>& f) {
  return e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1];
}

// The triangles round nodes a push moved follow them in the tree (AabbTree::updateTriangleBox), so
// that the queries after it find them where they are.
void followPush(AabbTree& tree, const Cloth& cloth, const ClothEdges& edges,
                std::initializer_list<NodeIndex> moved) {
  for (NodeIndex n : moved)
    for (int t : edges.trianglesAt(n)) tree.updateTriangleBox(cloth.x, t);
}

int pointTriangleContacts(Cloth& cloth, std::span<const Vec3> xStart, std::span<const Vec3> contactNormal,
                          AabbTree& tree, const ClothEdges& edges, Real thickness,
                          SelfCollisionScratch& scratch) {
  int contacts = 0;
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i) {
    const auto p = static_cast<NodeIndex>(i);
    scratch.candidates.clear();
    tree.overlapping(boxAround(cloth, {p}, thickness), scratch.candidates, edges.trianglesAt(p));
    for (int t : scratch.candidates) {
      const Triangle& tri = cloth.triangles[t];
      if (hasCorner(tri, p) || !pointTriangle(cloth, xStart, contactNormal, p, tri, thickness)) continue;
      ++contacts;
      followPush(tree, cloth, edges, {p, tri.v[0], tri.v[1], tri.v[2]});
    }
  }
  return contacts;
}

int edgeEdgeContacts(Cloth& cloth, std::span<const Vec3> xStart, std::span<const Vec3> contactNormal,
                     AabbTree& tree, const ClothEdges& edges, Real thickness, SelfCollisionScratch& scratch) {
  scratch.edgeStamp.resize(edges.nodes.size(), 0);
  int contacts = 0;
  for (std::size_t i = 0; i < edges.nodes.size(); ++i) {
    const std::array<NodeIndex, 2>& e = edges.nodes[i];
    scratch.candidates.clear();
    tree.overlapping(boxAround(cloth, {e[0], e[1]}, thickness), scratch.candidates, edges.triangles[i]);
    if (++scratch.stamp == 0) {  // wrapped around: forget every old visit
      std::fill(scratch.edgeStamp.begin(), scratch.edgeStamp.end(), 0u);
      scratch.stamp = 1;
    }
    for (int t : scratch.candidates)
      for (int j : edges.ofTriangle[t]) {
        if (j <= static_cast<int>(i) || scratch.edgeStamp[j] == scratch.stamp) continue;  // each pair once
        scratch.edgeStamp[j] = scratch.stamp;
        const std::array<NodeIndex, 2>& f = edges.nodes[j];
        if (sharesNode(e, f) || !edgeEdge(cloth, xStart, contactNormal, e, f, thickness)) continue;
        ++contacts;
        followPush(tree, cloth, edges, {e[0], e[1], f[0], f[1]});
      }
  }
  return contacts;
}

}  // namespace

Real selfContactThickness(Real thickness, Real keySpacing) {
  return keySpacing > 0 ? std::min(thickness, keySpacing / 3) : thickness;
}

int resolveSelfCollisions(Cloth& cloth, std::span<const Vec3> xStart, AabbTree& tree, const ClothEdges& edges,
                          Real thickness, std::span<const Vec3> contactNormal,
                          SelfCollisionScratch& scratch) {
  return pointTriangleContacts(cloth, xStart, contactNormal, tree, edges, thickness, scratch) +
         edgeEdgeContacts(cloth, xStart, contactNormal, tree, edges, thickness, scratch);
}

}  // namespace cloth::sim
