#include "cloth/sim/collision/collision_mesh.h"
#include "cloth/sim/geometry.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <utility>

#include <glm/geometric.hpp>

namespace cloth::sim {
namespace {

using Edge = std::pair<NodeIndex, NodeIndex>;

Edge edgeKey(NodeIndex a, NodeIndex b) {
  return a < b ? Edge{a, b} : Edge{b, a};
}

bool finite(const Vec3& p) {
  return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
}

// Interior angle of the triangle at corner k.
Real angleAt(const Vec3& corner, const Vec3& a, const Vec3& b) {
  const Vec3 u = unitOr(a - corner, Vec3(0)), w = unitOr(b - corner, Vec3(0));
  return std::acos(std::clamp(glm::dot(u, w), Real(-1), Real(1)));
}

TriangleMesh withoutDegenerateTriangles(TriangleMesh mesh) {
  std::vector<Triangle> kept;
  kept.reserve(mesh.triangles.size());
  for (const Triangle& t : mesh.triangles) {
    const Vec3 n =
        triangleNormal(mesh.vertices[t.v[0]], mesh.vertices[t.v[1]], mesh.vertices[t.v[2]], Vec3(0));
    if (n != Vec3(0)) kept.push_back(t);
  }
  mesh.triangles = std::move(kept);
  return mesh;
}

// Whether a segment that entered the surface at `in` and left it at `out` (normals facing the
// segment's start and end) only cut across a convex edge, as a node sliding round a table's edge does
// within a step: in and out through faces at most 120 degrees apart. Through a slab or a thin
// part the two faces are opposite, and the node went through.
bool cutsCorner(const MeshPoint& in, const MeshPoint& out) {
  constexpr Real kLeastCornerCosine = -0.5;  // faces up to 120 degrees apart
  constexpr Real kDistinct = 1e-9;           // the same crossing seen on two triangles of one edge
  return out.distance > in.distance + kDistinct && glm::dot(in.normal, out.normal) > kLeastCornerCosine;
}

// The triangles a query looks at. Each thread has its own, so that any number of threads may query
// one mesh at once (the contact passes split the cloth's nodes over the workers).
std::vector<int>& candidateScratch() {
  thread_local std::vector<int> candidates;
  candidates.clear();
  return candidates;
}

// The union-find root of a triangle (path halving).
int rootOf(std::vector<int>& parent, int t) {
  while (parent[t] != t) t = parent[t] = parent[parent[t]];
  return t;
}

}  // namespace

std::vector<bool> closedParts(const TriangleMesh& mesh) {
  // Each directed edge once and its reverse once: every edge of a closed, consistently wound part.
  std::map<Edge, int> directed;  // (a, b) as wound: +1 per a -> b with a < b, +16 per b -> a
  std::map<Edge, int> first;     // a triangle on each edge, to join the triangles that share it
  std::vector<int> parent(mesh.triangles.size());
  for (std::size_t t = 0; t < parent.size(); ++t) parent[t] = static_cast<int>(t);
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      const NodeIndex a = mesh.triangles[t].v[k], b = mesh.triangles[t].v[(k + 1) % 3];
      const Edge e = edgeKey(a, b);
      directed[e] += a < b ? 1 : 16;
      const auto [it, added] = first.try_emplace(e, static_cast<int>(t));
      if (!added) parent[rootOf(parent, static_cast<int>(t))] = rootOf(parent, it->second);
    }
  std::vector<bool> open(mesh.triangles.size(), false);  // per root: some edge of the part is not closed
  for (const auto& [e, uses] : directed)
    if (uses != 17) open[rootOf(parent, first[e])] = true;
  std::vector<bool> closed(mesh.triangles.size());
  for (std::size_t t = 0; t < closed.size(); ++t) closed[t] = !open[rootOf(parent, static_cast<int>(t))];
  return closed;
}

std::string meshProblem(const TriangleMesh& mesh) {
  if (mesh.triangles.empty()) return "it has no triangles";
  if (mesh.triangles.size() > kMaxMeshTriangles)
    return "it has " + std::to_string(mesh.triangles.size()) + " triangles, more than the " +
           std::to_string(kMaxMeshTriangles) + " a collider may have (simplify it first)";
  for (const Vec3& p : mesh.vertices)
    if (!finite(p)) return "a vertex coordinate is not a finite number";
  for (const Triangle& t : mesh.triangles)
    for (int k = 0; k < 3; ++k)
      if (t.v[k] < 0 || static_cast<std::size_t>(t.v[k]) >= mesh.vertices.size())
        return "a triangle refers to a vertex that does not exist";
  return {};
}

TriangleMesh welded(const TriangleMesh& mesh) {
  TriangleMesh out;
  std::map<std::array<Real, 3>, NodeIndex> index;
  std::vector<NodeIndex> remap(mesh.vertices.size());
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    const Vec3& p = mesh.vertices[i];
    const auto [it, added] = index.try_emplace({p.x, p.y, p.z}, static_cast<NodeIndex>(out.vertices.size()));
    if (added) out.vertices.push_back(p);
    remap[i] = it->second;
  }
  out.triangles.reserve(mesh.triangles.size());
  for (const Triangle& t : mesh.triangles) {
    const Triangle w{{remap[t.v[0]], remap[t.v[1]], remap[t.v[2]]}};
    if (w.v[0] != w.v[1] && w.v[1] != w.v[2] && w.v[2] != w.v[0]) out.triangles.push_back(w);
  }
  return out;
}

CollisionMesh::CollisionMesh(TriangleMesh mesh, UpAxis fileUp)
    : mesh_(withoutDegenerateTriangles(std::move(mesh))), fileUp_(fileUp) {
  const auto& x = mesh_.vertices;
  bounds_ = boundsOf(x);
  tree_.build(x, mesh_.triangles);
  closed_ = closedParts(mesh_);
  closedTriangles_ = static_cast<std::size_t>(std::count(closed_.begin(), closed_.end(), true));
  faceNormal_.resize(mesh_.triangles.size());
  vertexNormal_.assign(x.size(), Vec3(0));
  std::map<Edge, Vec3> edgeSum;
  std::map<Edge, int> edgeUses;
  for (std::size_t t = 0; t < mesh_.triangles.size(); ++t) {
    const auto& v = mesh_.triangles[t].v;
    faceNormal_[t] = triangleNormal(x[v[0]], x[v[1]], x[v[2]], Vec3(0, 1, 0));
    for (int k = 0; k < 3; ++k) {
      vertexNormal_[v[k]] += angleAt(x[v[k]], x[v[(k + 1) % 3]], x[v[(k + 2) % 3]]) * faceNormal_[t];
      edgeSum[edgeKey(v[k], v[(k + 1) % 3])] += faceNormal_[t];
      ++edgeUses[edgeKey(v[k], v[(k + 1) % 3])];
    }
  }
  for (Vec3& n : vertexNormal_) n = unitOr(n, Vec3(0, 1, 0));
  edgeNormal_.resize(3 * mesh_.triangles.size());
  boundaryEdge_.assign(3 * mesh_.triangles.size(), false);
  boundaryVertex_.assign(x.size(), false);
  for (std::size_t t = 0; t < mesh_.triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      const auto& v = mesh_.triangles[t].v;
      const Edge e = edgeKey(v[k], v[(k + 1) % 3]);
      edgeNormal_[3 * t + k] = unitOr(edgeSum[e], faceNormal_[t]);
      if (edgeUses[e] == 1)
        boundaryEdge_[3 * t + k] = boundaryVertex_[v[k]] = boundaryVertex_[v[(k + 1) % 3]] = true;
    }
}

// The pseudo-normal of the feature the closest point lies on: a vertex (two weights zero), an edge
// (one weight zero) or the face.
Vec3 CollisionMesh::pseudoNormal(int triangle, const Vec3& bary, bool& onBoundary) const {
  constexpr Real kOn = 1e-9;
  const auto& v = mesh_.triangles[triangle].v;
  const bool zero[3] = {bary.x <= kOn, bary.y <= kOn, bary.z <= kOn};
  if (!closed_[triangle]) {  // a two-sided surface: no inside, the side is the query point's
    onBoundary = true;
    return faceNormal_[triangle];
  }
  for (int k = 0; k < 3; ++k)
    if (zero[(k + 1) % 3] && zero[(k + 2) % 3]) {  // at vertex k
      onBoundary = boundaryVertex_[v[k]];
      return vertexNormal_[v[k]];
    }
  for (int k = 0; k < 3; ++k)
    if (zero[(k + 2) % 3]) {  // on the edge from v[k] to v[k + 1]
      onBoundary = boundaryEdge_[3 * triangle + k];
      return edgeNormal_[3 * triangle + k];
    }
  onBoundary = false;
  return faceNormal_[triangle];
}

std::optional<MeshPoint> CollisionMesh::closest(const Vec3& p, Real maxDistance) const {
  std::vector<int>& candidates = candidateScratch();
  tree_.overlapping(Aabb{p, p}.inflated(maxDistance), candidates);
  std::optional<MeshPoint> best;
  Real bestDistance2 = maxDistance * maxDistance;
  for (int t : candidates)
    if (auto q = closerOnTriangle(t, p, bestDistance2)) best = q;
  return best;
}

std::optional<MeshPoint> CollisionMesh::nearest(const Vec3& p, Real maxDistance) const {
  std::optional<MeshPoint> best;
  Real best2 = maxDistance * maxDistance;
  tree_.nearestFirst(p, best2, [&](int t, Real& closest2) {
    if (auto q = closerOnTriangle(t, p, closest2)) best = q;
  });
  return best;
}

std::optional<MeshPoint> CollisionMesh::closerOnTriangle(int t, const Vec3& p, Real& best2) const {
  const auto& v = mesh_.triangles[t].v;
  Vec3 bary;
  const Vec3 q =
      closestPointOnTriangle(p, mesh_.vertices[v[0]], mesh_.vertices[v[1]], mesh_.vertices[v[2]], bary);
  const Real d2 = glm::dot(p - q, p - q);
  if (d2 > best2) return std::nullopt;
  best2 = d2;
  bool rim = false;
  const Vec3 n = pseudoNormal(t, bary, rim);
  return MeshPoint{q, n, std::sqrt(d2), t, rim};
}

std::optional<MeshPoint> CollisionMesh::firstCrossing(const Vec3& a, const Vec3& b) const {
  if (a == b) return std::nullopt;
  const auto hit = tree_.raycast(Ray{a, b - a}, mesh_.vertices, mesh_.triangles, 1.0);
  if (!hit) return std::nullopt;
  const Vec3 n = faceNormal_[hit->triangle];
  return MeshPoint{hit->point, glm::dot(a - hit->point, n) >= 0 ? n : -n, hit->t, hit->triangle};
}

std::optional<MeshPoint> CollisionMesh::contact(const Vec3& a, const Vec3& b, Real reach,
                                                bool& crossed) const {
  Aabb box{a, a};
  box.grow(b);
  std::vector<int>& candidates = candidateScratch();
  tree_.overlapping(box.inflated(reach), candidates);
  std::optional<MeshPoint> first, last, nearest;
  Real nearest2 = reach * reach;
  const Ray ray{a, b - a};
  for (int t : candidates) {
    const auto& v = mesh_.triangles[t].v;
    const Vec3 &p0 = mesh_.vertices[v[0]], &p1 = mesh_.vertices[v[1]], &p2 = mesh_.vertices[v[2]];
    Real s;
    Vec3 bary;
    if (a != b && intersects(ray, p0, p1, p2, 1, s, bary)) {
      const Vec3 n = faceNormal_[t], hit = ray.at(s);
      if (!first || s < first->distance) first = MeshPoint{hit, glm::dot(a - hit, n) >= 0 ? n : -n, s, t};
      if (!last || s > last->distance) last = MeshPoint{hit, glm::dot(b - hit, n) >= 0 ? n : -n, s, t};
    }
    if (first) continue;  // a crossing wins over any closest point
    if (auto q = closerOnTriangle(t, b, nearest2)) nearest = q;
  }
  if (first && cutsCorner(*first, *last)) {  // round an edge within the step: what it ends near counts
    std::optional<MeshPoint> end;
    Real end2 = reach * reach;
    for (int t : candidates)
      if (auto q = closerOnTriangle(t, b, end2)) end = q;
    const bool outside = !end || end->onBoundary || glm::dot(b - end->point, end->normal) >= 0;
    if (outside) {
      first.reset();
      nearest = end;
    }
  }
  crossed = first.has_value();
  return first ? first : nearest;
}

Real CollisionMesh::signedDistance(const Vec3& p, Real maxDistance) const {
  const auto c = closest(p, maxDistance);
  if (!c) return std::numeric_limits<Real>::infinity();
  return !c->onBoundary && glm::dot(p - c->point, c->normal) < 0 ? -c->distance : c->distance;
}

// Jacobson et al. 2013 eq. 4 with each triangle's solid angle by Van Oosterom and Strackee (1983):
// tan(Omega / 2) = a . (b x c) / (|a||b||c| + (a . b)|c| + (b . c)|a| + (c . a)|b|), a, b, c the
// corners seen from p.
Real CollisionMesh::windingNumber(const Vec3& p) const {
  Real solidAngle = 0;
  for (std::size_t i = 0; i < mesh_.triangles.size(); ++i) {
    if (!closed_[i]) continue;  // open parts have no inside
    const Triangle& t = mesh_.triangles[i];
    const Vec3 a = mesh_.vertices[t.v[0]] - p, b = mesh_.vertices[t.v[1]] - p, c = mesh_.vertices[t.v[2]] - p;
    const Real la = glm::length(a), lb = glm::length(b), lc = glm::length(c);
    const Real below = la * lb * lc + glm::dot(a, b) * lc + glm::dot(b, c) * la + glm::dot(c, a) * lb;
    solidAngle += 2 * std::atan2(glm::dot(a, glm::cross(b, c)), below);
  }
  return solidAngle / (4 * std::numbers::pi);
}

std::string CollisionMesh::kindText() const {
  const std::size_t all = mesh_.triangles.size();
  const std::string n = std::to_string(all) + " triangles";
  if (closedTriangles_ == all) return n + ", a closed solid (inside and outside)";
  if (closedTriangles_ == 0)
    return n +
           ", an open or non-manifold surface, taken as two-sided (the cloth keeps the contact "
           "thickness off either side)";
  return n + ": " + std::to_string(closedTriangles_) +
         " in closed parts (solid), the rest open or non-manifold (two-sided)";
}

}  // namespace cloth::sim
