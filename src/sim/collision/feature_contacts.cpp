#include "cloth/sim/collision/feature_contacts.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/ccd.h"
#include "cloth/sim/collision/intersections.h"
#include "cloth/sim/collision/point_move.h"
#include "cloth/sim/geometry.h"

namespace cloth::sim {
namespace {

using EdgeKey = std::pair<NodeIndex, NodeIndex>;

// How squarely a contact must face a feature: the cosine between its normal (the cloth triangle's, or
// across the two edges) and the feature's outward normal. A cloth triangle lying along a thin part has
// a normal across the vertex normals there (cosines 0.0-0.2 at a thin part of the Wuson): which side
// it belongs on is a toss-up, and pushes of 1-2 cm, many at once, carried the cloth through the part.
// The faces' own contacts (collider.h) and the other features' hold such cloth.
constexpr Real kLeastFacing = 0.3;

// How close (contact thicknesses) a cloth part passing a feature in the step must come to meet it.
constexpr Real kSweptTolerance = 0.01;

// A box's corners point out along their diagonal; an edge's normal bisects its two faces. In the box's
// own frame (centred, unturned): placementOf puts them where the box is.
void boxFeatures(const Collider& c, ColliderFeatures& f) {
  const Collider local = Collider::box(Vec3(0), c.halfExtents);
  for (int i = 0; i < 8; ++i) {
    const Vec3 sign((i & 1) ? 1 : -1, (i & 2) ? 1 : -1, (i & 4) ? 1 : -1);
    f.vertices.push_back(sign * c.halfExtents);
    f.vertexNormals.push_back(glm::normalize(sign));
  }
  colliderEdges(local, f.edges);
  for (const Segment& e : f.edges) f.edgeNormals.push_back(glm::normalize(0.5 * (e.a + e.b) / c.halfExtents));
}

// Per mesh edge: the triangles on it and, for each, the corner opposite the edge.
std::map<EdgeKey, std::vector<std::pair<int, NodeIndex>>> edgeFaces(const TriangleMesh& m) {
  std::map<EdgeKey, std::vector<std::pair<int, NodeIndex>>> faces;
  for (std::size_t t = 0; t < m.triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      const Triangle& tri = m.triangles[t];
      faces[std::minmax(tri.v[k], tri.v[(k + 1) % 3])].push_back({static_cast<int>(t), tri.v[(k + 2) % 3]});
    }
  return faces;
}

Vec3 faceNormal(const TriangleMesh& m, int t) {
  const Triangle& tri = m.triangles[t];
  const Vec3& a = m.vertices[tri.v[0]];
  return triangleNormal(a, m.vertices[tri.v[1]], m.vertices[tri.v[2]], Vec3(0));
}

Vec3 centroid(const TriangleMesh& m, int t) {
  const Triangle& tri = m.triangles[t];
  return (m.vertices[tri.v[0]] + m.vertices[tri.v[1]] + m.vertices[tri.v[2]]) / 3.0;
}

// Whether triangle t runs from a to b along its edge (a, b).
bool windsFrom(const Triangle& t, NodeIndex a, NodeIndex b) {
  for (int k = 0; k < 3; ++k)
    if (t.v[k] == a) return t.v[(k + 1) % 3] == b;
  return false;
}

// An edge is sharp where its two faces meet at a convex angle over kSharpAngle, or turn faster than
// `curvature` (mesh units: the angle over the distance between the faces' centroids), or on an open rim.
// On a two-sided part a fold either way is sharp (concave from one side is convex from the other), the
// faces' windings need not agree, and the normal is zero (two-sided).
std::optional<Vec3> sharpEdgeNormal(const TriangleMesh& m, const EdgeKey& e,
                                    const std::vector<std::pair<int, NodeIndex>>& faces, Real curvature,
                                    bool twoSided) {
  const Vec3 oneSided = twoSided ? Vec3(0) : faceNormal(m, faces[0].first);
  // An open rim, or an edge three faces or more meet at (a non-manifold junction): sharp either way.
  if (faces.size() != 2) return oneSided;
  const Triangle &t0 = m.triangles[faces[0].first], &t1 = m.triangles[faces[1].first];
  const bool agree = windsFrom(t0, e.first, e.second) != windsFrom(t1, e.first, e.second);
  const Vec3 n0 = faceNormal(m, faces[0].first), n1 = (agree ? 1.0 : -1.0) * faceNormal(m, faces[1].first);
  const bool convex = glm::dot(n0, m.vertices[faces[1].second] - m.vertices[e.first]) < 0;
  if (!convex && !twoSided) return std::nullopt;
  const Real angle = std::acos(std::clamp(glm::dot(n0, n1), -1.0, 1.0));
  const Real across = glm::length(centroid(m, faces[0].first) - centroid(m, faces[1].first));
  if (angle <= kSharpAngle && !(angle > curvature * across)) return std::nullopt;
  return twoSided ? Vec3(0) : unitOr(n0 + n1, n0);
}

// A convex vertex whose faces fall away from its normal, on average, steeper than `slope` (the tangent
// of the angle): a tip of a coarse mesh that stands out of its neighbours further than the cloth's
// thickness within a key spacing, though no edge at it is sharp (a coarse sphere's vertex, edges 13 cm
// and 18 degrees apart, faces 10-12 degrees off its normal, came through a 3.4 cm cloth triangle).
std::vector<bool> tips(const CollisionMesh& mesh, Real slope) {
  const TriangleMesh& m = mesh.mesh();
  const std::vector<Vec3>& normal = mesh.vertexNormals();
  std::vector<Real> turn(m.vertices.size(), 0);
  std::vector<int> faces(m.vertices.size(), 0);
  std::vector<bool> convex(m.vertices.size(), true);
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    const Vec3 n = faceNormal(m, static_cast<int>(t));
    const Triangle& tri = m.triangles[t];
    for (int k = 0; k < 3; ++k) {
      const NodeIndex v = tri.v[k];
      turn[v] += std::acos(std::clamp(glm::dot(n, normal[v]), -1.0, 1.0));
      ++faces[v];
      for (int j = 1; j < 3; ++j)
        if (glm::dot(m.vertices[tri.v[(k + j) % 3]] - m.vertices[v], normal[v]) >= 0) convex[v] = false;
    }
  }
  std::vector<bool> tip(m.vertices.size(), false);
  for (std::size_t v = 0; v < m.vertices.size(); ++v)
    tip[v] = convex[v] && faces[v] > 0 && std::tan(std::min(turn[v] / faces[v], 1.5)) > slope;  // < 90 deg
  return tip;
}

// On a part of the mesh that is not closed (closedParts: an open sheet, a non-manifold junction, a
// flipped triangle) there is no outward side, and what stands out depends on the side the cloth comes
// from: its edges folded either way are sharp, and every vertex is a feature (a vertex normal there
// may point either way). They are two-sided (normal zero) and keep the cloth on the side it came
// from. (Sydney's open head, taken one-sided, let a vertex whose normal pointed away from the cloth
// through a cloth triangle, and faerie's hands 7 edges at a vertex no tip test from either side found.)
void meshFeatures(const CollisionMesh& mesh, Real curvature, Real slope, ColliderFeatures& f) {
  const TriangleMesh& m = mesh.mesh();
  std::vector<bool> sharpVertex = tips(mesh, slope), twoSided(m.vertices.size(), false);
  for (std::size_t t = 0; t < m.triangles.size(); ++t)
    if (!mesh.closedAt(static_cast<int>(t)))
      for (NodeIndex v : m.triangles[t].v) twoSided[v] = sharpVertex[v] = true;
  for (const auto& [edge, faces] : edgeFaces(m)) {
    const bool open =
        std::any_of(faces.begin(), faces.end(), [&](const auto& face) { return !mesh.closedAt(face.first); });
    const auto normal = sharpEdgeNormal(m, edge, faces, curvature, open);
    if (!normal) continue;
    f.edges.push_back({m.vertices[edge.first], m.vertices[edge.second]});
    f.edgeNormals.push_back(*normal);
    sharpVertex[edge.first] = sharpVertex[edge.second] = true;
  }
  for (std::size_t v = 0; v < m.vertices.size(); ++v)
    if (sharpVertex[v]) {
      f.vertices.push_back(m.vertices[v]);
      f.vertexNormals.push_back(twoSided[v] ? Vec3(0) : mesh.vertexNormals()[v]);
    }
}

// Static friction at the position level on a cloth point pushed off a feature: its slide along n's
// plane since the step's start is taken back, up to `most` (m); its sliding velocity loses the same share.
template <std::size_t N>
void holdSlide(Cloth& c, const std::array<NodeIndex, N>& nodes, const std::array<Real, N>& w, const Vec3& n,
               Real most, std::span<const Vec3> xStart) {
  Vec3 moved(0);
  for (std::size_t k = 0; k < N; ++k) moved += w[k] * (c.x[nodes[k]] - xStart[nodes[k]]);
  const Vec3 slide = moved - glm::dot(moved, n) * n;
  const Real length = glm::length(slide);
  if (!(length > 0)) return;
  const Real lost = std::min(length, most) / length;
  const Vec3 v = pointVelocity(c, nodes, w);
  movePoint(c, nodes, w, -lost * slide, -lost * (v - glm::dot(v, n) * n));
}

// The cloth point sum_k w_k x_k moves out by `depth` along n (point_move.h), its approach velocity
// goes, and Coulomb friction slows its sliding by at most mu times the normal speed removed. With
// `slide` (the pass right after the step's integration), friction also acts on the step's motion at
// the position level, as on the colliders' faces (applyFriction, Macklin et al. 2014 eq. 24-25): the
// point's slide along the feature since the step's start is taken back up to mu times the push. With
// the velocity rule alone, a cloth held up by a person's head and shoulders (mostly features at a 30^2
// cloth's spacing) slid off them as fast at friction 2 as at 0.5.
template <std::size_t N>
void noteNormal(const Cloth& c, const std::array<NodeIndex, N>& nodes, const std::array<Real, N>& w,
                const Vec3& n, std::span<Vec3> contactNormal) {
  for (std::size_t k = 0; k < N; ++k) {
    if (!(w[k] > 0) || !c.collides(nodes[k])) continue;
    Vec3& held = contactNormal[nodes[k]];  // stretch limiting then moves the node only along or off it
    held = held == Vec3(0) ? n : unitOr(held + n, n);
  }
}

// A part within the resting band (depth <= 0) is only noted: no push, no contact counted.
template <std::size_t N>
bool pushOut(Cloth& c, const std::array<NodeIndex, N>& nodes, const std::array<Real, N>& w, const Vec3& n,
             Real depth, Real mu, bool slide, std::span<const Vec3> xStart, std::span<Vec3> contactNormal) {
  if (!(depth > 0)) {
    noteNormal(c, nodes, w, n, contactNormal);
    return false;
  }
  const Vec3 v = pointVelocity(c, nodes, w);
  const Real vn = glm::dot(v, n);
  Vec3 dv(0);
  if (vn < 0) {
    const Vec3 vt = v - vn * n;
    const Real vtLen = glm::length(vt), slowdown = mu * -vn;
    dv = -vn * n - (vtLen > slowdown ? vt * (slowdown / vtLen) : vt);
  }
  if (!movePoint(c, nodes, w, depth * n, dv)) return false;
  noteNormal(c, nodes, w, n, contactNormal);
  if (slide && mu > 0) holdSlide(c, nodes, w, n, mu * depth, xStart);
  return true;
}

struct Feature {
  Vec3 p{0};             ///< world position (vertex) or segment start
  Vec3 q{0};             ///< segment end (edges only)
  Vec3 normal{0, 1, 0};  ///< outward, unit; zero on a two-sided surface
  bool rod = false;      ///< a capsule's axis (ColliderFeatures::rod), met round it and round its ends

  bool twoSided() const { return normal == Vec3(0); }
};

// The contact normal of a cloth part against a one-sided feature: the part's normal n turned to the
// feature's outward side, or zero where n is nearly across it (kLeastFacing) or degenerate.
Vec3 facingOutward(const Vec3& n, const Feature& f) {
  const Real facing = glm::dot(n, f.normal);
  if (std::abs(facing) < kLeastFacing) return Vec3(0);
  return facing < 0 ? -n : n;
}

// The contact normal of a cloth part against a two-sided feature: the part's normal n now, turned to the
// side the part was on at the step's start (`startOffset`, from the feature to the part's point then,
// seen along the part's normal then, nStart). Zero where the part started on the feature or is degenerate.
Vec3 sideOfStart(const Vec3& n, const Vec3& nStart, const Vec3& startOffset) {
  const Real side = glm::dot(startOffset, nStart);
  if (n == Vec3(0) || side == 0) return Vec3(0);
  const Vec3 along = glm::dot(n, nStart) < 0 ? -n : n;
  return side > 0 ? along : -along;
}

// Whether a cloth point with a feature through it belongs back outside: it came through in this step
// (it was outside at the step's start). A cloth already on the other side of a thin part (both sides
// of a leg) is not pulled across. (Also pushing out cloth points found inside the solid was tried:
// it left more of the cloth through the table, 9 penetrations against 2 in the viewer's drag test.)
bool belongsOutside(const Vec3& onFeature, const Vec3& pointStart, const Vec3& n, Real thickness) {
  return glm::dot(pointStart - onFeature, n) >= -thickness;
}

// The first time in the step that the cloth part of `q` (moving; the feature's points stay put) met the
// feature, with the gap left at the step's end along the impact normal (negative: passed through).
// Tested along the straight paths from the step's start (Bridson et al. 2002 §6.2), so that cloth
// moving fast past a thin part (a Wuson's 1 cm snout, the cloth falling 6.6 cm a step over it, two key
// spacings) is caught though no node, edge or triangle is near the part at the step's end.
struct SweptHit {
  Impact impact;
  Real endGap = 0;
};

// Weights that move every node of a part by the whole of a push (movePoint moves node k by
// w_k / sum w^2): a swept contact moves the part back as one. Shared by the barycentric weights of
// the touching point, the push turned the part about that point, and where the part had passed a
// feature 1 cm wide, its other side stayed through (a triangle slid 35 cm past a post).
template <std::size_t N>
constexpr std::array<Real, N> kWhole = [] {
  std::array<Real, N> w{};
  w.fill(Real(1) / N);
  return w;
}();

template <typename Test>
std::optional<SweptHit> sweptHit(const MovingQuad& q, Real thickness, Test test) {
  const std::optional<Impact> hit = test(q, kSweptTolerance * thickness);
  if (!hit) return std::nullopt;
  return SweptHit{*hit, gapAtEnd(q, *hit)};
}

// A collider vertex met by a cloth triangle in the step and over the triangle at its end: the triangle
// goes back to the side it came from. (A triangle led round a corner, beside it at the end, passed
// the corner only on the straight path that cuts the corner: no contact of this kind.)
template <class Push>
std::optional<bool> sweptVertexTriangle(const Cloth& c, std::span<const Vec3> xStart, const Triangle& t,
                                        const Feature& f, const FeatureContactSettings& s, Push& push) {
  MovingQuad q{{f.p, xStart[t.v[0]], xStart[t.v[1]], xStart[t.v[2]]},
               {f.p, c.x[t.v[0]], c.x[t.v[1]], c.x[t.v[2]]}};
  const auto hit =
      sweptHit(q, s.thickness, [](const MovingQuad& m, Real t) { return vertexTriangleImpact(m, t); });
  if (!hit || hit->endGap >= s.thickness) return std::nullopt;
  Vec3 bary;
  const Vec3 onTriangle = closestPointOnTriangle(f.p, q.x1[1], q.x1[2], q.x1[3], bary);
  const Vec3 apart = f.p - onTriangle;
  if (glm::length(apart - glm::dot(apart, hit->impact.normal) * hit->impact.normal) > s.thickness)
    return std::nullopt;
  return push(std::array<NodeIndex, 3>{t.v[0], t.v[1], t.v[2]}, kWhole<3>, -hit->impact.normal,
              s.thickness - hit->endGap);
}

// Whether the feature edge ends the step through one of the cloth's triangles on edge `e`.
bool throughTrianglesOf(const Cloth& c, const ClothEdges& edges, int e, const Feature& f) {
  for (int t : edges.triangles[e]) {
    if (t < 0) continue;
    const Triangle& tri = c.triangles[t];
    if (crosses({f.p, f.q}, c.x[tri.v[0]], c.x[tri.v[1]], c.x[tri.v[2]])) return true;
  }
  return false;
}

// A collider edge met by a cloth edge in the step and through the cloth at its end: the cloth edge goes
// back to the side it came from. (A cloth edge led round a table's edge meets it on the straight path
// that cuts the corner, but ends clear of it: the stretch of a yank over a table grew to 8 when those
// were pushed back too.)
template <class Push>
std::optional<bool> sweptEdgeEdge(const Cloth& c, std::span<const Vec3> xStart, const ClothEdges& edges,
                                  int e, const Feature& f, const FeatureContactSettings& s, Push& push) {
  const std::array<NodeIndex, 2>& n = edges.nodes[e];
  MovingQuad q{{xStart[n[0]], xStart[n[1]], f.p, f.q}, {c.x[n[0]], c.x[n[1]], f.p, f.q}};
  const auto hit = sweptHit(q, s.thickness, [](const MovingQuad& m, Real t) { return edgeEdgeImpact(m, t); });
  if (!hit || hit->endGap >= s.thickness || !throughTrianglesOf(c, edges, e, f)) return std::nullopt;
  return push(n, kWhole<2>, hit->impact.normal, s.thickness - hit->endGap);
}

// A collider vertex against a cloth triangle (Bridson et al. 2002 §6.1, point-triangle). Where the
// vertex is through the cloth, only where the cloth belongs outside (belongsOutside): swept over the
// step, however far the cloth moved.
template <class Push>
bool vertexTriangle(const Cloth& c, std::span<const Vec3> xStart, const Triangle& t, const Feature& f,
                    const FeatureContactSettings& s, Push& push) {
  if (const auto swept = sweptVertexTriangle(c, xStart, t, f, s, push)) return *swept;
  const Vec3 &a = c.x[t.v[0]], &b = c.x[t.v[1]], &d = c.x[t.v[2]];
  Vec3 bary;
  const Vec3 q = closestPointOnTriangle(f.p, a, b, d, bary);
  const Vec3 qStart = bary.x * xStart[t.v[0]] + bary.y * xStart[t.v[1]] + bary.z * xStart[t.v[2]];
  const Vec3 nNow = triangleNormal(a, b, d, Vec3(0));
  const Vec3 n =
      f.twoSided()
          ? sideOfStart(nNow, triangleNormal(xStart[t.v[0]], xStart[t.v[1]], xStart[t.v[2]], Vec3(0)),
                        qStart - f.p)
          : facingOutward(nNow, f);
  if (n == Vec3(0)) return false;
  const Real gap = glm::dot(q - f.p, n);
  if (gap >= std::max(s.thickness, s.restingReach)) return false;
  if (glm::length((q - f.p) - gap * n) > s.thickness) return false;  // beside the triangle, not over it
  if (gap < 0 && !belongsOutside(f.p, qStart, n, s.thickness)) return false;
  return push(std::array<NodeIndex, 3>{t.v[0], t.v[1], t.v[2]}, std::array<Real, 3>{bary.x, bary.y, bary.z},
              n, s.thickness - gap);
}

// A cloth edge against a rod (a capsule's axis, the thickness its radius plus the gap): pushed out from
// the axis, or from its end where the edge passes over it (the flag's top edge whipped over its pole's
// top), along the way it is from the axis now; one lying on the axis, to the side it started on. Not
// back to the side it started on otherwise: with its contacts once a frame, the flag's free edge goes
// round its pole in a step, and pushed back to its start's side it went through (strain 0.59). An edge
// that went through the rod in the step is the swept test's (sweptEdgeEdge). Where the edge's closest
// point is one of its nodes, the nodes' own contacts keep it.
template <class Push>
bool rodEdge(const Cloth& c, std::span<const Vec3> xStart, const std::array<NodeIndex, 2>& e,
             const Feature& f, const FeatureContactSettings& s, Push& push) {
  const Vec3 &a = c.x[e[0]], &b = c.x[e[1]];
  const auto [u, w] = closestOnSegments(a, b, f.p, f.q);
  if (!(u > 0 && u < 1)) return false;
  const Vec3 onAxis = f.p + w * (f.q - f.p), away = (a + u * (b - a)) - onAxis;
  const Real gap = glm::length(away);
  if (gap >= std::max(s.thickness, s.restingReach)) return false;
  const Vec3 awayStart = (xStart[e[0]] + u * (xStart[e[1]] - xStart[e[0]])) - onAxis;
  const Vec3 n = gap > 1e-9 ? away / gap : unitOr(awayStart, Vec3(0));
  if (n == Vec3(0)) return false;
  return push(e, std::array<Real, 2>{1 - u, u}, n, s.thickness - gap);
}

// A collider edge against a cloth edge (Bridson et al. 2002 §6.1, edge-edge), on the outward side.
template <class Push>
bool edgeEdge(const Cloth& c, std::span<const Vec3> xStart, const ClothEdges& edges, int edge,
              const Feature& f, const FeatureContactSettings& s, Push& push) {
  if (const auto swept = sweptEdgeEdge(c, xStart, edges, edge, f, s, push)) return *swept;
  if (f.rod) return rodEdge(c, xStart, edges.nodes[edge], f, s, push);
  const std::array<NodeIndex, 2>& e = edges.nodes[edge];
  const Vec3 &a = c.x[e[0]], &b = c.x[e[1]];
  const auto [u, w] = closestSegmentParameters(a, b, f.p, f.q);
  if (!(u > 0 && u < 1 && w > 0 && w < 1)) return false;
  const Vec3 onFeature = f.p + w * (f.q - f.p);
  const Vec3 point = a + u * (b - a), pointStart = xStart[e[0]] + u * (xStart[e[1]] - xStart[e[0]]);
  const Vec3 nNow = unitOr(glm::cross(b - a, f.q - f.p), Vec3(0));  // zero: parallel edges
  const Vec3 n = f.twoSided()
                     ? sideOfStart(nNow, unitOr(glm::cross(xStart[e[1]] - xStart[e[0]], f.q - f.p), Vec3(0)),
                                   pointStart - onFeature)
                     : facingOutward(nNow, f);
  if (n == Vec3(0)) return false;
  const Real gap = glm::dot(point - onFeature, n);
  if (gap >= std::max(s.thickness, s.restingReach)) return false;
  if (gap < 0 && !belongsOutside(onFeature, pointStart, n, s.thickness)) return false;
  return push(e, std::array<Real, 2>{1 - u, u}, n, s.thickness - gap);
}

}  // namespace

Real featureThickness(const Collider& collider, const ColliderFeatures& features, Real thickness) {
  return features.rod ? collider.radius + thickness : thickness;
}

Real curvatureThrough(Real keySpacing, Real thickness) {
  return keySpacing > 0 ? 8 * thickness / (keySpacing * keySpacing) : std::numeric_limits<Real>::infinity();
}

Real slopeThrough(Real keySpacing, Real thickness) {
  return keySpacing > 0 ? thickness / keySpacing : std::numeric_limits<Real>::infinity();
}

ColliderFeatures sharpFeatures(const Collider& collider, Real curvature, Real slope) {
  ColliderFeatures f;
  if (collider.shape == ColliderShape::Box) boxFeatures(collider, f);
  if (collider.shape == ColliderShape::Capsule && collider.halfLength > 0) {  // in half lengths (placementOf)
    f.edges.push_back({Vec3(0, -1, 0), Vec3(0, 1, 0)});
    f.edgeNormals.push_back(Vec3(0));
    f.vertices = {Vec3(0, -1, 0), Vec3(0, 1, 0)};
    f.vertexNormals = {Vec3(0), Vec3(0)};
    f.rod = true;
  }
  if (collider.shape == ColliderShape::Mesh && collider.mesh)  // the mesh's own units: scaled by placement
    meshFeatures(*collider.mesh, curvature * collider.placement.scale, slope, f);
  f.indexTrees();
  return f;
}

void ColliderFeatures::indexTrees() {
  std::vector<Aabb> boxes(vertices.size());
  for (std::size_t i = 0; i < vertices.size(); ++i) boxes[i] = Aabb{vertices[i], vertices[i]};
  vertexTree.build(boxes);
  boxes.resize(edges.size());
  for (std::size_t i = 0; i < edges.size(); ++i) {
    boxes[i] = Aabb{edges[i].a, edges[i].a};
    boxes[i].grow(edges[i].b);
  }
  edgeTree.build(boxes);
}

namespace {

// Where a collider's features are: a mesh's placement; a box's centre and turn; a capsule's centre, its
// local y along its axis and a half length its unit (a flag's pole turns with the pins that carry it).
MeshPlacement placementOf(const Collider& collider) {
  if (collider.shape == ColliderShape::Mesh) return collider.placement;
  if (collider.shape == ColliderShape::Capsule) {
    const Vec3 axis = collider.normal;
    const Vec3 across =
        glm::normalize(glm::cross(axis, std::abs(axis.x) < 0.9 ? Vec3(1, 0, 0) : Vec3(0, 1, 0)));
    return MeshPlacement{.origin = collider.center,
                         .scale = collider.halfLength,
                         .turn = Mat3(across, axis, glm::cross(across, axis))};
  }
  return MeshPlacement{.origin = collider.center, .turn = collider.turn};
}

Feature vertexFeature(const ColliderFeatures& f, const MeshPlacement& place, int i) {
  return {place.apply(f.vertices[i]), Vec3(0), place.rotate(f.vertexNormals[i])};
}

Feature edgeFeature(const ColliderFeatures& f, const MeshPlacement& place, int i) {
  return {place.apply(f.edges[i].a), place.apply(f.edges[i].b), place.rotate(f.edgeNormals[i]), f.rod};
}

// Whether cloth edge e, or triangle t, has a node no contact moves (a pin): a rod leaves it alone
// (ColliderFeatures).
bool pinnedEnd(const Cloth& cloth, const ClothEdges& edges, int e) {
  return !cloth.collides(edges.nodes[e][0]) || !cloth.collides(edges.nodes[e][1]);
}
bool pinnedCorner(const Cloth& cloth, const Triangle& t) {
  return !cloth.collides(t.v[0]) || !cloth.collides(t.v[1]) || !cloth.collides(t.v[2]);
}

// Whether the feature edge meets a cloth edge's swept box (inflated by the reach): its box overlapping
// it is not enough, a slanted edge's box holds much that the edge does not come near.
bool meets(const Feature& edge, const Aabb& swept) {
  return intersects(Ray{edge.p, edge.q - edge.p}, swept, 1);
}

// The cloth part of the broad phase: the tree of its triangles where they are now, and how far they
// may have come from in the step.
struct PairSearch {
  const Cloth& cloth;
  std::span<const Vec3> xStart;
  const AabbTree& tree;
  Real reach = 0;   ///< m: the passes after the stretch limit move the cloth a little more
  Real margin = 0;  ///< m: reach plus the farthest any node came in the step
  Aabb clothBox;    ///< the whole cloth, inflated by the margin

  PairSearch(const Cloth& c, std::span<const Vec3> start, const AabbTree& t, Real thickness)
      : cloth(c), xStart(start), tree(t), reach(2 * thickness) {
    Real farthest = 0;
    for (std::size_t i = 0; i < cloth.nodeCount(); ++i)
      farthest = std::max(farthest, glm::length(cloth.x[i] - xStart[i]));
    margin = reach + farthest;
    clothBox = tree.rootBox().inflated(margin);
  }

  /// Where these nodes went in the step, inflated by the reach.
  Aabb swept(std::initializer_list<NodeIndex> nodes) const {
    Aabb b;
    for (NodeIndex n : nodes) b.grow(cloth.x[n]), b.grow(xStart[n]);
    return b.inflated(reach);
  }
};

void findVertexTrianglePairs(const PairSearch& search, const ColliderFeatures& features,
                             const MeshPlacement& place, int first, int last, FeatureScratch::Piece& piece) {
  for (int i = first; i < last; ++i) {
    const Vec3 p = vertexFeature(features, place, i).p;
    if (!search.clothBox.contains(p)) continue;
    piece.triangles.clear();
    search.tree.overlapping(Aabb{p, p}.inflated(search.margin), piece.triangles);
    for (int t : piece.triangles) {
      const Triangle& tri = search.cloth.triangles[t];
      if (features.rod && pinnedCorner(search.cloth, tri)) continue;
      if (search.swept({tri.v[0], tri.v[1], tri.v[2]}).contains(p))
        piece.found.vertexTriangle.push_back({i, t});
    }
  }
}

// Each cloth edge once per feature edge, though several of its triangles are near it.
void findEdgeEdgePairs(const PairSearch& search, const ColliderFeatures& features, const MeshPlacement& place,
                       const ClothEdges& edges, int first, int last, FeatureScratch::Piece& piece) {
  piece.edgeStamp.resize(edges.nodes.size(), 0);
  for (int i = first; i < last; ++i) {
    const Feature f = edgeFeature(features, place, i);
    Aabb box;
    box.grow(f.p);
    box.grow(f.q);
    if (!box.inflated(search.margin).overlaps(search.clothBox)) continue;
    piece.triangles.clear();
    search.tree.overlapping(box.inflated(search.margin), piece.triangles);
    if (++piece.stamp == 0) {  // wrapped around: forget every old visit
      std::fill(piece.edgeStamp.begin(), piece.edgeStamp.end(), 0u);
      piece.stamp = 1;
    }
    for (int t : piece.triangles)
      for (int e : edges.ofTriangle[t]) {
        if (piece.edgeStamp[e] == piece.stamp) continue;
        piece.edgeStamp[e] = piece.stamp;
        if (features.rod && pinnedEnd(search.cloth, edges, e)) continue;
        if (meets(f, search.swept({edges.nodes[e][0], edges.nodes[e][1]})))
          piece.found.edgeEdge.push_back({i, e});
      }
  }
}

// A box of the world carried into the collider's own frame: the box there round its turned corners
// (about its centre, its half sizes h taken along the collider's axes: |M| h, M the linear part),
// grown by what rounding may have moved them (a feature on its face is kept).
Aabb intoCollider(const MeshPlacement& place, const Aabb& box) {
  const Vec3 half = 0.5 * box.extent();
  Vec3 reach(0);
  for (int axis = 0; axis < 3; ++axis) {
    Vec3 along(0);
    along[axis] = half[axis] / place.scale;
    reach += glm::abs(place.unrotate(along));
  }
  const Vec3 centre = place.unapply(box.center());
  const Aabb local{centre - reach, centre + reach};
  const Vec3 size = glm::max(glm::abs(local.lo), glm::abs(local.hi));
  return local.inflated(1e-9 * (1 + std::max({size.x, size.y, size.z})));
}

// From the cloth's side: the triangles and edges of cloth parts [first, last) (the triangles, then the
// edges) against the features their swept boxes, in the collider's frame, meet in its trees; the same
// tests as the features' side.
void findPairsFromCloth(const PairSearch& search, const ColliderFeatures& features,
                        const MeshPlacement& place, const ClothEdges& edges, std::size_t first,
                        std::size_t last, FeatureScratch::Piece& piece) {
  const std::size_t triangles = search.cloth.triangles.size();
  for (std::size_t k = first; k < last; ++k) {
    piece.features.clear();
    if (k < triangles) {
      const auto& v = search.cloth.triangles[k].v;
      const Aabb box = search.swept({v[0], v[1], v[2]});
      features.vertexTree.overlapping(intoCollider(place, box), piece.features);
      for (int i : piece.features)
        if (box.contains(vertexFeature(features, place, i).p))
          piece.found.vertexTriangle.push_back({i, static_cast<int>(k)});
    } else {
      const auto e = static_cast<int>(k - triangles);
      const Aabb box = search.swept({edges.nodes[e][0], edges.nodes[e][1]});
      features.edgeTree.overlapping(intoCollider(place, box), piece.features);
      for (int i : piece.features)
        if (meets(edgeFeature(features, place, i), box)) piece.found.edgeEdge.push_back({i, e});
    }
  }
}

// Features per piece of the search: fewer are not worth a thread.
constexpr std::size_t kFeatureGrain = 512;
// Cloth triangles and edges per block of the search from the cloth's side.
constexpr std::size_t kClothBlock = 256;

// The first `pieces` pieces' pairs, in order.
void joinPieces(const FeatureScratch& scratch, std::size_t pieces, FeaturePairs& out) {
  for (std::size_t k = 0; k < pieces; ++k) {
    const FeaturePairs& found = scratch.pieces[k].found;
    out.vertexTriangle.insert(out.vertexTriangle.end(), found.vertexTriangle.begin(),
                              found.vertexTriangle.end());
    out.edgeEdge.insert(out.edgeEdge.end(), found.edgeEdge.begin(), found.edgeEdge.end());
  }
}

}  // namespace

void findFeaturePairs(const Cloth& cloth, std::span<const Vec3> xStart, const Collider& collider,
                      const ColliderFeatures& features, const ClothEdges& edges, const AabbTree& tree,
                      Real thickness, FeatureScratch& scratch, FeaturePairs& out, Workers* workers,
                      std::optional<bool> fromCloth) {
  out.vertexTriangle.clear();
  out.edgeEdge.clear();
  if (features.empty() || tree.empty()) return;
  const PairSearch search(cloth, xStart, tree, thickness);
  const MeshPlacement place = placementOf(collider);
  const std::size_t parts = cloth.triangles.size() + edges.nodes.size();
  // A rod's three features are searched from their side (its placement's scale is its half length,
  // which the cloth's side would divide by).
  if (!features.rod && fromCloth.value_or(features.size() > parts) && features.treesIndexed()) {
    const std::size_t blocks = (parts + kClothBlock - 1) / kClothBlock;
    if (scratch.pieces.size() < blocks) scratch.pieces.resize(blocks);
    // Blocks to whichever thread is free: those under the cloth's contacts cost the most.
    parallelChunks(workers, blocks, 1, [&](std::size_t firstBlock, std::size_t lastBlock, std::size_t) {
      for (std::size_t b = firstBlock; b < lastBlock; ++b) {
        FeatureScratch::Piece& piece = scratch.pieces[b];
        piece.found.vertexTriangle.clear();
        piece.found.edgeEdge.clear();
        findPairsFromCloth(search, features, place, edges, b * kClothBlock,
                           std::min(parts, (b + 1) * kClothBlock), piece);
      }
    });
    joinPieces(scratch, blocks, out);
    return;
  }
  const std::size_t vertices = features.vertices.size(), all = vertices + features.edges.size();
  const std::size_t threads = workers ? static_cast<std::size_t>(workers->threads()) : 1;
  const std::size_t pieces = std::clamp<std::size_t>(all / kFeatureGrain, 1, threads);
  if (scratch.pieces.size() < pieces) scratch.pieces.resize(pieces);
  // Piece k searches features [k all / pieces, (k + 1) all / pieces): the vertices, then the edges.
  parallelFor(pieces > 1 ? workers : nullptr, pieces, 1, [&](std::size_t firstPiece, std::size_t lastPiece) {
    for (std::size_t k = firstPiece; k < lastPiece; ++k) {
      FeatureScratch::Piece& piece = scratch.pieces[k];
      piece.found.vertexTriangle.clear();
      piece.found.edgeEdge.clear();
      const std::size_t first = k * all / pieces, last = (k + 1) * all / pieces;
      const auto vertexEnd = std::min(last, vertices), edgeStart = std::max(first, vertices);
      if (first < vertexEnd)
        findVertexTrianglePairs(search, features, place, static_cast<int>(first), static_cast<int>(vertexEnd),
                                piece);
      if (edgeStart < last)
        findEdgeEdgePairs(search, features, place, edges, static_cast<int>(edgeStart - vertices),
                          static_cast<int>(last - vertices), piece);
    }
  });
  joinPieces(scratch, pieces, out);
}

namespace {

// The nodes whose positions a pair's test reads: the triangle's, or the edge's and those of the
// triangles beside it (throughTrianglesOf).
template <class Visit>
bool anyNodeRead(const Cloth& cloth, const ClothEdges& edges, const FeaturePairs& pairs, std::size_t k,
                 Visit test) {
  const std::size_t vertexPairs = pairs.vertexTriangle.size();
  if (k < vertexPairs) {
    const auto& v = cloth.triangles[pairs.vertexTriangle[k].second].v;
    return test(v[0]) || test(v[1]) || test(v[2]);
  }
  const int e = pairs.edgeEdge[k - vertexPairs].second;
  if (test(edges.nodes[e][0]) || test(edges.nodes[e][1])) return true;
  for (int t : edges.triangles[e])
    if (t >= 0)
      for (NodeIndex n : cloth.triangles[t].v)
        if (test(n)) return true;
  return false;
}

// A test run for its answer alone: it would push or note a resting part, and nothing moves.
struct Probe {
  template <std::size_t N>
  bool operator()(const std::array<NodeIndex, N>&, const std::array<Real, N>&, const Vec3&, Real) const {
    return true;
  }
};

// Pairs per piece of the parallel probe: fewer are not worth a thread.
constexpr std::size_t kProbeGrain = 256;

}  // namespace

int resolveFeatureContacts(Cloth& cloth, std::span<const Vec3> xStart, const Collider& collider,
                           const ColliderFeatures& features, const ClothEdges& edges,
                           const FeaturePairs& pairs, const FeatureContactSettings& s,
                           std::span<Vec3> contactNormal, FeatureMemo* memo, Workers* workers) {
  const MeshPlacement place = placementOf(collider);
  const std::size_t vertexPairs = pairs.vertexTriangle.size(), all = vertexPairs + pairs.edgeEdge.size();
  // Whether pair k must be tested: not known quiet, or one of its nodes moved since.
  const auto due = [&](std::size_t k, std::span<const NodeIndex> nodes) {
    if (!memo || !memo->quiet[k]) return true;
    return std::any_of(nodes.begin(), nodes.end(), [&](NodeIndex n) { return memo->moved[n] != 0; });
  };
  const auto nodesOf = [&](std::size_t k) -> std::span<const NodeIndex> {
    if (k < vertexPairs) return cloth.triangles[pairs.vertexTriangle[k].second].v;
    return edges.nodes[pairs.edgeEdge[k - vertexPairs].second];
  };
  const auto test = [&](std::size_t k, auto& push) {
    if (k < vertexPairs) {
      const auto& [i, t] = pairs.vertexTriangle[k];
      return vertexTriangle(cloth, xStart, cloth.triangles[t], vertexFeature(features, place, i), s, push);
    }
    const auto& [i, e] = pairs.edgeEdge[k - vertexPairs];
    return edgeEdge(cloth, xStart, edges, e, edgeFeature(features, place, i), s, push);
  };
  // On two threads or more, every due pair is first tested in parallel for its answer alone. The
  // passes below (Gauss-Seidel: a push moves what later pairs see) then test again only the pairs that
  // found a contact or read a node pushed meanwhile: the others would find the same nothing.
  std::vector<std::uint8_t> ownQuiet, ownPushed;  // scratch when no memo keeps it between passes
  std::vector<std::uint8_t>& quiet =
      memo ? memo->probedQuiet : ownQuiet;                              // per pair: the probe found nothing
  std::vector<std::uint8_t>& pushed = memo ? memo->pushed : ownPushed;  // per node: pushed in this pass
  const bool probe = workers && workers->threads() > 1 && all >= 2 * kProbeGrain;
  if (probe) {
    quiet.assign(all, 0);
    parallelFor(workers, all, kProbeGrain, [&](std::size_t first, std::size_t last) {
      Probe dry;
      for (std::size_t k = first; k < last; ++k)
        if (due(k, nodesOf(k))) quiet[k] = test(k, dry) ? 0 : 1;
    });
  }
  if (probe) pushed.assign(cloth.nodeCount(), 0);
  bool rests = false;  // the pair under test found its part in the resting band
  const auto push = [&]<std::size_t N>(const std::array<NodeIndex, N>& nodes, const std::array<Real, N>& w,
                                       const Vec3& n, Real depth) {
    rests = !(depth > 0);
    return pushOut<N>(cloth, nodes, w, n, depth, s.friction, s.slideFriction, xStart, contactNormal);
  };
  int contacts = 0;
  for (std::size_t k = 0; k < all; ++k) {
    const std::span<const NodeIndex> nodes = nodesOf(k);
    if (!due(k, nodes)) continue;
    const bool stillQuiet = probe && quiet[k] &&
                            !anyNodeRead(cloth, edges, pairs, k, [&](NodeIndex n) { return pushed[n] != 0; });
    rests = false;
    const bool hit = !stillQuiet && test(k, push);
    if (memo) {
      memo->quiet[k] = hit || rests ? 0 : 1;  // a resting part is noted again in the next pass
      if (hit)
        for (NodeIndex n : nodes) memo->moved[n] = 1;  // pushed: the pairs tested before it are stale
    }
    if (hit && probe)
      for (NodeIndex n : nodes) pushed[n] = 1;
    contacts += hit ? 1 : 0;
  }
  return contacts;
}

}  // namespace cloth::sim
