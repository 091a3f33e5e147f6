#pragma once
// A static triangle mesh the cloth collides with: the mesh, its own AABB tree (Huang §5), and the
// queries contacts need: the closest point within a distance, the first crossing of a segment
// (a node's motion in one step, so fast nodes cannot tunnel), and the signed distance by
// angle-weighted pseudo-normals (Baerentzen and Aanaes 2005), which is exact for a closed manifold.

#include <optional>
#include <string>
#include <vector>

#include <glm/matrix.hpp>

#include "cloth/sim/cloth.h"
#include "cloth/sim/collision/aabb.h"
#include "cloth/sim/collision/aabb_tree.h"

namespace cloth::sim {

struct TriangleMesh {
  std::vector<Vec3> vertices;
  std::vector<Triangle> triangles;  ///< counter-clockwise seen from outside
};

/// More triangles than this are refused: a collider that size would cost more than the cloth.
inline constexpr std::size_t kMaxMeshTriangles = 1'000'000;

/// Why the mesh cannot be a collider, or an empty string: no triangles, an index out of range, a
/// coordinate that is not finite, or more than kMaxMeshTriangles triangles. Any other triangle mesh
/// is an obstacle: open, non-manifold and self-intersecting ones too (closedParts).
std::string meshProblem(const TriangleMesh& mesh);

/// Per triangle: whether it belongs to a closed part of the mesh, a set of triangles joined through
/// shared edges where every edge is used exactly twice, once in each direction (a closed, consistently
/// wound two-manifold). Those have an inside. The rest (open rims, edges shared by three triangles or
/// more, flipped triangles) are two-sided surfaces: game and scan meshes are rarely closed.
std::vector<bool> closedParts(const TriangleMesh& mesh);

/// The mesh with vertices at the same position merged into one (files often repeat a vertex per
/// face for its normals or texture coordinates), so that neighbouring triangles share their edges.
TriangleMesh welded(const TriangleMesh& mesh);

/// Where a mesh vertex v lies in the world: origin + scale turn v (m), v first stood upright (zUp).
struct MeshPlacement {
  Vec3 origin{0};
  Real scale = 1;
  bool zUp = false;  ///< the mesh's +z is the scene's up (+y): turned -90 degrees about x
  Mat3 turn{1};      ///< then turned by this (a collider path's rotation)
  /// A direction of the mesh (a normal) in the scene.
  Vec3 rotate(const Vec3& d) const { return turn * (zUp ? Vec3(d.x, d.z, -d.y) : d); }
  Vec3 unrotate(const Vec3& d) const {
    const Vec3 e = glm::transpose(turn) * d;
    return zUp ? Vec3(e.x, -e.z, e.y) : e;
  }
  Vec3 apply(const Vec3& v) const { return origin + scale * rotate(v); }
  Vec3 unapply(const Vec3& p) const { return unrotate((p - origin) / scale); }
};

/// Which axis of a mesh file points up: Y (OBJ, glTF, FBX by default) or Z (STL, PLY, CAD exports).
enum class UpAxis { Y, Z };

/// A point on the mesh (mesh coordinates).
struct MeshPoint {
  Vec3 point{0};
  Vec3 normal{0, 1, 0};  ///< unit: the triangle's normal (crossings) or the pseudo-normal (closest)
  Real distance = 0;     ///< from the query point; for crossings the segment parameter in [0, 1]
  int triangle = -1;
  bool onBoundary = false;  ///< closest: on an edge with one triangle (or its end), or on a part that is
                            ///< not closed (closedParts): there is no inside, the side is unknown
};

class CollisionMesh {
 public:
  /// Builds the tree and the pseudo-normals. The mesh must pass meshProblem(); degenerate
  /// (zero-area) triangles are dropped.
  explicit CollisionMesh(TriangleMesh mesh, UpAxis fileUp = UpAxis::Y);

  const TriangleMesh& mesh() const { return mesh_; }
  const Aabb& bounds() const { return bounds_; }
  /// The up axis the file declares or its format implies (collider_up=auto follows it).
  UpAxis fileUp() const { return fileUp_; }
  /// How the mesh is taken, for the message on loading: how many triangles, and whether it is a closed
  /// solid, a two-sided surface or both (closedParts).
  std::string kindText() const;
  /// Whether triangle t belongs to a closed part (closedParts).
  bool closedAt(int t) const { return closed_[static_cast<std::size_t>(t)]; }
  /// Vertex normals (angle-weighted, unit), for drawing.
  const std::vector<Vec3>& vertexNormals() const { return vertexNormal_; }

  /// The closest point of the mesh to p no farther than maxDistance, with the pseudo-normal of the
  /// face, edge or vertex it lies on.
  std::optional<MeshPoint> closest(const Vec3& p, Real maxDistance) const;
  /// The same point, searched nearer triangles first (AabbTree::nearestFirst): a fraction of the
  /// triangles tested on a detailed mesh. Where two triangles are exactly as close it may keep the
  /// other one (the same point, its last digits from the other triangle); the simulation keeps
  /// closest(), whose order its results follow.
  std::optional<MeshPoint> nearest(const Vec3& p, Real maxDistance) const;
  /// The triangles whose boxes overlap `box` (mesh coordinates), through the mesh's tree.
  void trianglesNear(const Aabb& box, std::vector<int>& out) const { tree_.overlapping(box, out); }
  /// The first triangle the segment a -> b crosses.
  std::optional<MeshPoint> firstCrossing(const Vec3& a, const Vec3& b) const;
  /// What a node that moved from a to b meets, from one walk of the tree: the first crossing if
  /// the segment crosses the surface (`crossed` set), else the closest point to b within `reach`. A
  /// segment that enters and leaves through faces at most 120 degrees apart and ends outside only cut
  /// round a convex edge (a node led round a table's edge within a step): not a crossing.
  std::optional<MeshPoint> contact(const Vec3& a, const Vec3& b, Real reach, bool& crossed) const;
  /// Distance to the surface, negative inside (pseudo-normal sign; positive where the closest point
  /// is on the rim of an open mesh); +infinity beyond maxDistance.
  Real signedDistance(const Vec3& p, Real maxDistance) const;
  /// The generalized winding number at p (Jacobson, Kavan and Sorkine-Hornung 2013, eq. 4): the solid
  /// angles of the triangles seen from p over 4 pi. 1 inside a closed, outward mesh, 0 outside, 2
  /// where two closed parts overlap (a leg run into a body), fractional by an open mesh's rim.
  /// Where parts overlap, the pseudo-normal side of signedDistance may be wrong; this is not. O(n).
  /// Only closed parts count (closedParts): an open surface has no inside.
  Real windingNumber(const Vec3& p) const;

 private:
  /// The pseudo-normal at barycentric point `bary` of the triangle, and whether that point lies on
  /// the mesh's boundary.
  Vec3 pseudoNormal(int triangle, const Vec3& bary, bool& onBoundary) const;
  /// The point of `triangle` closest to p, if its squared distance is at most `best2` (then lowered).
  std::optional<MeshPoint> closerOnTriangle(int triangle, const Vec3& p, Real& best2) const;

  TriangleMesh mesh_;
  UpAxis fileUp_ = UpAxis::Y;
  AabbTree tree_;
  Aabb bounds_;
  std::vector<Vec3> faceNormal_;    ///< per triangle, unit
  std::vector<Vec3> vertexNormal_;  ///< per vertex, angle-weighted, unit
  std::vector<Vec3> edgeNormal_;    ///< per triangle edge (3 t + k: edge from v[k] to v[k+1]), unit
  std::vector<bool> boundaryEdge_;  ///< per triangle edge: used by this triangle only
  std::vector<bool> boundaryVertex_;
  std::vector<bool> closed_;  ///< per triangle: in a closed part (closedParts)
  std::size_t closedTriangles_ = 0;
};

}  // namespace cloth::sim
