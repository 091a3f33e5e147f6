#include "cloth/sim/collision/intersections.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/ccd.h"
#include "cloth/sim/collision/normal_cone.h"

namespace cloth::sim {
namespace {

bool sharesNode(const Triangle& t, const Triangle& u) {
  for (NodeIndex a : t.v)
    for (NodeIndex b : u.v)
      if (a == b) return true;
  return false;
}

void corners(const Cloth& c, const Triangle& t, Vec3 (&p)[3]) {
  for (int k = 0; k < 3; ++k) p[k] = c.x[t.v[k]];
}

// The number of items of [0, n) count(first, last) finds in its block, the blocks (of a few mesh
// queries' worth) split over the workers: the same count on any split (parallelSum).
template <class Count>
int countOver(Workers* workers, std::size_t n, Count count) {
  return static_cast<int>(parallelSum(workers, n, kMeshQueryGrain, [&](std::size_t first, std::size_t last) {
    return Real(count(first, last));
  }));
}

Aabb segmentBounds(const Segment& s) {
  Aabb b;
  b.grow(s.a);
  b.grow(s.b);
  return b;
}

void boxEdges(const Collider& c, std::vector<Segment>& out) {
  auto corner = [&](int i) {
    const Vec3 sign((i & 1) ? 1 : -1, (i & 2) ? 1 : -1, (i & 4) ? 1 : -1);
    return c.center + c.turn * (sign * c.halfExtents);
  };
  for (int i = 0; i < 8; ++i)
    for (int axis = 0; axis < 3; ++axis)
      if (!(i & (1 << axis))) out.push_back({corner(i), corner(i | (1 << axis))});
}

// Per triangle edge (3 t + k, from v[k] to v[k + 1]): whether it is the first on its edge, so that
// each edge is counted once.
std::vector<std::uint8_t> edgeOwners(const TriangleMesh& m) {
  std::set<std::pair<NodeIndex, NodeIndex>> seen;
  std::vector<std::uint8_t> owns(3 * m.triangles.size(), 0);
  for (std::size_t t = 0; t < m.triangles.size(); ++t)
    for (int k = 0; k < 3; ++k)
      owns[3 * t + k] = seen.insert(std::minmax(m.triangles[t].v[k], m.triangles[t].v[(k + 1) % 3])).second;
  return owns;
}

// A mesh's edges, each once, in its own coordinates.
std::vector<Segment> meshEdges(const TriangleMesh& m) {
  std::vector<std::pair<NodeIndex, NodeIndex>> edges;
  edges.reserve(3 * m.triangles.size());
  for (const Triangle& t : m.triangles)
    for (int k = 0; k < 3; ++k) edges.push_back(std::minmax(t.v[k], t.v[(k + 1) % 3]));
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  std::vector<Segment> out;
  for (const auto& [a, b] : edges) out.push_back({m.vertices[a], m.vertices[b]});
  return out;
}

constexpr Real kReach = 0.05;  // m: deeper than any contact could leave a node

// Nodes (free or dragged) more than kPenetrationTolerance inside an analytic collider.
int nodesInside(const Cloth& cloth, const Collider& collider, Workers* workers) {
  const Aabb near = colliderBounds(collider, kPenetrationTolerance);
  return countOver(workers, cloth.nodeCount(), [&](std::size_t first, std::size_t last) {
    int count = 0;
    for (std::size_t i = first; i < last; ++i)
      count += cloth.kind[i] != NodeKind::Pinned && near.contains(cloth.x[i]) &&
               closestSurface(collider, cloth.x[i], kReach).distance < -kPenetrationTolerance;
    return count;
  });
}

// Whether a mesh kept its size and which way is up: where it stands and how it is turned may change (a
// path), since a node's side is noted in the mesh's own coordinates.
bool sameShape(const MeshPlacement& a, const MeshPlacement& b) {
  return a.scale == b.scale && a.zUp == b.zUp;
}

int edgesThroughCloth(const Cloth& cloth, std::span<const Segment> edges, const AabbTree& tree) {
  std::vector<int> candidates;
  const Aabb clothBox = tree.empty() ? Aabb{} : tree.rootBox();
  int pierced = 0;
  for (const Segment& e : edges) {
    if (!segmentBounds(e).overlaps(clothBox)) continue;
    candidates.clear();
    tree.overlapping(segmentBounds(e), candidates);
    for (int t : candidates) {
      Vec3 p[3];
      corners(cloth, cloth.triangles[t], p);
      if (crosses(e, p[0], p[1], p[2])) ++pierced;
    }
  }
  return pierced;
}

// A capsule (a rod) through the cloth between its nodes: the cloth triangles its axis crosses, or one
// of whose edges passes through its solid (nearer its axis than its radius, less the tolerance). Not
// those with a pinned corner: the pins hold a flag's hoist on its pole's axis.
int rodThroughCloth(const Cloth& cloth, const Collider& rod, const AabbTree& tree) {
  const Segment axis{rod.axisStart(), rod.axisEnd()};
  std::vector<int> candidates;
  tree.overlapping(colliderBounds(rod, 0), candidates);
  int count = 0;
  for (int t : candidates) {
    const Triangle& tri = cloth.triangles[t];
    if (std::any_of(tri.v.begin(), tri.v.end(),
                    [&](NodeIndex n) { return cloth.kind[n] == NodeKind::Pinned; }))
      continue;
    Vec3 p[3];
    corners(cloth, tri, p);
    bool through = crosses(axis, p[0], p[1], p[2]);
    for (int k = 0; k < 3 && !through; ++k)
      through = segmentDistance(p[k], p[(k + 1) % 3], axis.a, axis.b) < rod.radius - kPenetrationTolerance;
    count += through ? 1 : 0;
  }
  return count;
}

}  // namespace

bool crosses(const Segment& s, const Vec3& p0, const Vec3& p1, const Vec3& p2) {
  Real t = 0;
  Vec3 bary;
  return intersects(Ray{s.a, s.b - s.a}, p0, p1, p2, 1, t, bary);
}

bool trianglesIntersect(const Vec3 (&t)[3], const Vec3 (&u)[3]) {
  for (int k = 0; k < 3; ++k) {
    if (crosses({t[k], t[(k + 1) % 3]}, u[0], u[1], u[2])) return true;
    if (crosses({u[k], u[(k + 1) % 3]}, t[0], t[1], t[2])) return true;
  }
  return false;
}

void listSelfIntersections(const Cloth& cloth, const AabbTree& tree, std::vector<std::pair<int, int>>& out,
                           Workers* workers) {
  // Many pieces a thread: a crumpled corner holds most of the pairs, and a thread's share of the
  // pieces is one contiguous run.
  constexpr std::size_t kPiecesPerThread = 64;
  std::vector<AabbTree::OverlapPiece> pieces;
  tree.selfOverlapPieces(kPiecesPerThread * static_cast<std::size_t>(workers ? workers->threads() : 1),
                         pieces);
  std::vector<std::vector<std::pair<int, int>>> found(pieces.size());
  parallelFor(workers, pieces.size(), 1, [&](std::size_t first, std::size_t last) {
    for (std::size_t k = first; k < last; ++k)
      tree.selfOverlapsOf(pieces[k], [&](int i, int j) {
        const Triangle &t = cloth.triangles[i], &u = cloth.triangles[j];
        if (sharesNode(t, u)) return;
        Vec3 p[3], q[3];
        corners(cloth, t, p);
        corners(cloth, u, q);
        if (trianglesIntersect(p, q)) found[k].push_back({i, j});
      });
  });
  out.clear();
  for (const auto& f : found) out.insert(out.end(), f.begin(), f.end());
}

int countSelfIntersections(const Cloth& cloth, const AabbTree& tree, Workers* workers) {
  std::vector<std::pair<int, int>> pairs;
  listSelfIntersections(cloth, tree, pairs, workers);
  return static_cast<int>(pairs.size());
}

void colliderEdges(const Collider& collider, std::vector<Segment>& out) {
  if (collider.shape == ColliderShape::Box) boxEdges(collider, out);
  if (collider.shape == ColliderShape::Mesh && collider.mesh)
    for (const Segment& e : meshEdges(collider.mesh->mesh()))
      out.push_back({collider.placement.apply(e.a), collider.placement.apply(e.b)});
}

int ContactAudit::colliderPenetrations(const Cloth& cloth, std::span<const Collider> colliders,
                                       Workers* workers) {
  int count = 0;
  for (const Collider& c : colliders) {
    if (c.shape == ColliderShape::Mesh && c.mesh) {
      count += nodesInsideMesh(cloth, c, workers) + meshEdgesThroughCloth(cloth, c, workers);
      continue;
    }
    edges_.clear();
    colliderEdges(c, edges_);
    count += nodesInside(cloth, c, workers) + edgesThroughCloth(cloth, edges_, tree_);
    if (c.shape == ColliderShape::Capsule) count += rodThroughCloth(cloth, c, tree_);
  }
  return count;
}

// A mesh's edges through the cloth's triangles, each cloth triangle against the mesh triangles near it
// through the mesh's own tree (in the mesh's coordinates: the placement keeps crossings). Walking the
// mesh's edges through the cloth's tree instead took 50 ms a step on a 113,000-edge mesh.
int ContactAudit::meshEdgesThroughCloth(const Cloth& cloth, const Collider& collider, Workers* workers) {
  const CollisionMesh& mesh = *collider.mesh;
  auto [owners, added] = edgeOwners_.try_emplace(collider.mesh);
  if (added) owners->second = edgeOwners(mesh.mesh());
  const std::vector<std::uint8_t>& owns = owners->second;
  const TriangleMesh& m = mesh.mesh();
  return countOver(workers, cloth.triangles.size(), [&](std::size_t first, std::size_t last) {
    std::vector<int> near;  // mesh triangles near a cloth triangle
    int pierced = 0;
    for (std::size_t i = first; i < last; ++i) {
      const Triangle& t = cloth.triangles[i];
      Vec3 q[3];
      Aabb box;
      for (int k = 0; k < 3; ++k) box.grow(q[k] = collider.placement.unapply(cloth.x[t.v[k]]));
      if (!box.overlaps(mesh.bounds())) continue;
      near.clear();
      mesh.trianglesNear(box, near);
      for (int f : near)
        for (int k = 0; k < 3; ++k) {
          if (!owns[3 * static_cast<std::size_t>(f) + k]) continue;
          const Triangle& tri = m.triangles[f];
          pierced += crosses({m.vertices[tri.v[k]], m.vertices[tri.v[(k + 1) % 3]]}, q[0], q[1], q[2]);
        }
    }
    return pierced;
  });
}

// Nodes more than kPenetrationTolerance inside a mesh, by its winding number within kReach of its
// surface. The pseudo-normal side of the closest point is exact for one closed surface only; where a
// mesh's parts run into each other it is wrong both ways (the Spider: a node 1 cm beside a leg
// "inside", points 1.5 cm deep in its body "outside").
int ContactAudit::nodesInsideMesh(const Cloth& cloth, const Collider& collider, Workers* workers) {
  constexpr Real kInside = 0.5;  // winding number: 1 inside, 0 outside (either sign: orientation)
  MeshSides& sides = sides_[collider.mesh];
  if (sides.nodes.size() != cloth.nodeCount() || !sameShape(sides.placement, collider.placement)) {
    sides.nodes.assign(cloth.nodeCount(), NodeSide{});
    sides.placement = collider.placement;
  }
  const Aabb near = colliderBounds(collider, kPenetrationTolerance);
  const CollisionMesh& mesh = *collider.mesh;
  // Each node reads and writes its own side alone.
  const auto inside = [&](std::size_t i) {
    const Vec3& x = cloth.x[i];
    if (cloth.kind[i] == NodeKind::Pinned || !near.contains(x)) return false;
    const Vec3 local = collider.placement.unapply(x);  // a moving mesh: where it is as the mesh sees it
    NodeSide& side = sides.nodes[i];
    if (side.known && glm::length(local - side.at) * collider.placement.scale >= side.clear) {
      if (mesh.firstCrossing(side.at, local))  // it may have crossed: did it?
        side.known = false;
      else
        side = {local, 0, true, side.inside};
    }
    if (side.known && !side.inside) return false;  // outside, and no surface crossed since
    const Real clear = std::abs(closestSurface(collider, x, kReach).distance);
    if (!(clear > kPenetrationTolerance && clear < kReach)) return false;  // on the surface, or far from it
    if (!side.known) {
      const Real w = mesh.windingNumber(local);
      side.inside = std::abs(w) >= kInside;
    }
    side = {local, clear, true, side.inside};
    return side.inside;
  };
  return countOver(workers, cloth.nodeCount(), [&](std::size_t first, std::size_t last) {
    int count = 0;
    for (std::size_t i = first; i < last; ++i) count += inside(i);
    return count;
  });
}

ContactFailures ContactAudit::measure(const Cloth& cloth, std::span<const Collider> colliders,
                                      Workers* workers) {
  if (builtFor_ != cloth.triangles.size()) {
    tree_.build(cloth.x, cloth.triangles);
    builtFor_ = cloth.triangles.size();
  }
  tree_.refit(cloth.x, 0, workers);
  // A flat patch does not pass through itself (normal_cone.h): the count leaves those pairs out.
  tree_.refitCones(cloth.x, cloth.x, cloth.triangles, kFlatPatchHalfAngle, workers);
  return {countSelfIntersections(cloth, tree_, workers), colliderPenetrations(cloth, colliders, workers)};
}

}  // namespace cloth::sim
