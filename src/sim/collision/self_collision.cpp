#include "cloth/sim/collision/self_collision.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

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

// A proximity: cloth point a closer than the thickness to cloth point b, on the side it came from.
struct Proximity {
  Vec3 normal{0};   // unit, from b towards a
  Real gap = 0;     // m, in [0, thickness)
  Vec3 weights{0};  // point-triangle: the triangle point's barycentric weights; edge-edge: (u, w, 0)
};

// Node p against triangle t (Bridson et al. 2002 §6.1, point-triangle): the side p was on at the
// step's start decides where it belongs. A node already through the triangle is left to the
// continuous pass (self_impacts.h), which moves it back along its path rather than across.
std::optional<Proximity> pointTriangleProximity(const Cloth& c, std::span<const Vec3> xStart, NodeIndex p,
                                                const Triangle& t, Real thickness) {
  const Vec3 &a = c.x[t.v[0]], &b = c.x[t.v[1]], &d = c.x[t.v[2]];
  const Vec3 cr = glm::cross(b - a, d - a);
  const Vec3 crStart = glm::cross(xStart[t.v[1]] - xStart[t.v[0]], xStart[t.v[2]] - xStart[t.v[0]]);
  const Real crLen = glm::length(cr);
  if (crLen == 0 || glm::dot(cr, crStart) <= 0) return std::nullopt;  // degenerate, or turned over: no side
  const Real side = glm::dot(xStart[p] - xStart[t.v[0]], crStart) >= 0 ? 1 : -1;
  const Vec3 n = side * cr / crLen;  // towards the side p came from
  Vec3 bary;
  const Vec3 q = closestPointOnTriangle(c.x[p], a, b, d, bary);
  const Real gap = glm::dot(c.x[p] - q, n);
  if (gap >= thickness || gap < 0) return std::nullopt;                      // apart, or through
  if (glm::length((c.x[p] - q) - gap * n) > thickness) return std::nullopt;  // beside the triangle
  return Proximity{n, gap, bary};
}

// Cloth edge e against cloth edge f (Bridson et al. 2002 §6.1, edge-edge), as pointTriangle: the side
// of f that e's closest point was on at the step's start decides.
std::optional<Proximity> edgeEdgeProximity(const Cloth& c, std::span<const Vec3> xStart,
                                           const std::array<NodeIndex, 2>& e,
                                           const std::array<NodeIndex, 2>& f, Real thickness) {
  const auto [u, w] = closestSegmentParameters(c.x[e[0]], c.x[e[1]], c.x[f[0]], c.x[f[1]]);
  if (!(u > 0 && u < 1 && w > 0 && w < 1)) return std::nullopt;  // ends are the point-triangle tests' job
  const Vec3 cr = glm::cross(c.x[e[1]] - c.x[e[0]], c.x[f[1]] - c.x[f[0]]);
  const Vec3 crStart = glm::cross(xStart[e[1]] - xStart[e[0]], xStart[f[1]] - xStart[f[0]]);
  const Real crLen = glm::length(cr);
  if (crLen == 0 || glm::dot(cr, crStart) <= 0) return std::nullopt;  // parallel, or turned over
  auto at = [](std::span<const Vec3> x, const std::array<NodeIndex, 2>& s, Real k) {
    return x[s[0]] + k * (x[s[1]] - x[s[0]]);
  };
  const Real side = glm::dot(at(xStart, e, u) - at(xStart, f, w), crStart) >= 0 ? 1 : -1;
  const Vec3 n = side * cr / crLen;  // from f towards the side e came from
  const Real gap = glm::dot(at(c.x, e, u) - at(c.x, f, w), n);
  if (gap >= thickness || gap < 0) return std::nullopt;
  return Proximity{n, gap, Vec3(u, w, 0)};
}

// A listed pair, tested again where the pushes before it left its nodes, and pushed apart if still close.
bool respond(Cloth& c, std::span<const Vec3> xStart, std::span<const Vec3> contactNormal, const PairOf& pair,
             Real thickness) {
  const auto& n = pair.nodes;
  if (pair.kind == PairKind::VertexTriangle) {
    const Triangle t{{n[1], n[2], n[3]}};
    const auto p = pointTriangleProximity(c, xStart, n[0], t, thickness);
    const Vec3& w = p ? p->weights : Vec3(0);
    return p && pushApart<1, 3>(c, contactNormal, {n[0]}, {1}, t.v, {w.x, w.y, w.z}, p->normal,
                                thickness - p->gap);
  }
  const std::array<NodeIndex, 2> e{n[0], n[1]}, f{n[2], n[3]};
  const auto p = edgeEdgeProximity(c, xStart, e, f, thickness);
  if (!p) return false;
  const Real u = p->weights.x, w = p->weights.y;
  return pushApart<2, 2>(c, contactNormal, e, {1 - u, u}, f, {1 - w, w}, p->normal, thickness - p->gap);
}

bool sharesNode(const std::array<NodeIndex, 2>& e, const std::array<NodeIndex, 2>& f) {
  return e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1];
}

constexpr std::size_t kBlock = 512;  // nodes per block of the parallel search
// Sweeps over the listed pairs: a second one pushes again the pairs that later pushes in the first
// brought back within the thickness. With one, a cloth crumpled by a dragged corner left five times
// as many pairs to the continuous pass (self_impacts.h) as the serial search it replaced, which
// found each node's pairs after the pushes before it; with two, 1.3 times as many. Listing the pairs
// out to twice the thickness instead left the curtain struck by the ball in small steps at strain
// 0.16 (pushes there fight the ball's contacts).
constexpr int kSweeps = 2;

// Reusable per piece of the parallel search.
struct Search {
  explicit Search(std::size_t triangles) : stamp(triangles, 0) {}
  std::vector<int> candidates;
  std::vector<std::uint32_t> stamp;  // per triangle: `now` while it is a candidate
  std::uint32_t now = 0;
};

// Node p against every triangle near it that it is not a corner of, and each edge from p (its lower
// node, so that every edge is some node's) against the edges after it of the triangles near it: the
// pairs in proximity now. One tree query covers the node and its edges; the triangles' and edges'
// boxes come from the scratch's tables (findProximities).
void nodePairs(const Cloth& c, std::span<const Vec3> xStart, const AabbTree& tree, const ClothEdges& edges,
               NodeIndex p, Real thickness, const SelfCollisionScratch& boxes, Search& search,
               std::vector<PairOf>& out) {
  const std::span<const int> own = edges.edgesFrom(p);
  Aabb reach;  // the node and its edges
  reach.grow(c.x[p]);
  for (int i : own) reach.grow(c.x[edges.nodes[i][1]]);
  search.candidates.clear();
  tree.overlapping(reach.inflated(thickness), search.candidates, edges.trianglesAt(p));
  const Aabb around = boxAround(c, {p}, thickness);
  for (int t : search.candidates) {
    const Triangle& tri = c.triangles[t];
    if (!hasCorner(tri, p) && around.overlaps(boxes.triangleBoxes[t]) &&
        pointTriangleProximity(c, xStart, p, tri, thickness))
      out.push_back({{p, tri.v[0], tri.v[1], tri.v[2]}, PairKind::VertexTriangle});
  }
  if (own.empty()) return;
  // Edge pairs (i, j), i from p, j after it, whose boxes meet; an edge of two candidate triangles is
  // taken from the lower one.
  if (++search.now == 0) {  // wrapped around: forget every old mark
    std::fill(search.stamp.begin(), search.stamp.end(), 0u);
    search.now = 1;
  }
  for (int t : search.candidates) search.stamp[t] = search.now;
  Aabb ownEdges;  // the node's edges' boxes together, grown by the thickness
  for (int i : own) {
    ownEdges.grow(boxes.edgeBoxes[i].lo);
    ownEdges.grow(boxes.edgeBoxes[i].hi);
  }
  ownEdges = ownEdges.inflated(thickness);
  for (int t : search.candidates) {
    if (!ownEdges.overlaps(boxes.triangleBoxes[t])) continue;  // no edge of it comes near the node's
    for (int j : edges.ofTriangle[t]) {
      const std::array<int, 2>& sides = edges.triangles[j];
      const int other = sides[0] == t ? sides[1] : sides[0];
      if (other >= 0 && other < t && search.stamp[other] == search.now) continue;
      const std::array<NodeIndex, 2>& f = edges.nodes[j];
      for (int i : own) {
        const std::array<NodeIndex, 2>& e = edges.nodes[i];
        if (j > i && boxes.edgeBoxes[i].inflated(thickness).overlaps(boxes.edgeBoxes[j]) &&
            !sharesNode(e, f) && edgeEdgeProximity(c, xStart, e, f, thickness))
          out.push_back({{e[0], e[1], f[0], f[1]}, PairKind::EdgeEdge});
      }
    }
  }
}

// Every triangle's and every edge's box where the cloth is, built once for nodePairs rather than per
// candidate (as the continuous pass's search does).
void tableBoxes(const Cloth& c, const ClothEdges& edges, SelfCollisionScratch& scratch, Workers* workers) {
  scratch.triangleBoxes.resize(c.triangles.size());
  scratch.edgeBoxes.resize(edges.nodes.size());
  parallelFor(workers, c.triangles.size(), kBlock, [&](std::size_t first, std::size_t last) {
    for (std::size_t t = first; t < last; ++t) {
      const auto& v = c.triangles[t].v;
      scratch.triangleBoxes[t] = boxAround(c, {v[0], v[1], v[2]}, 0);
    }
  });
  parallelFor(workers, edges.nodes.size(), kBlock, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i)
      scratch.edgeBoxes[i] = boxAround(c, {edges.nodes[i][0], edges.nodes[i][1]}, 0);
  });
}

// Every pair in proximity at the pass's start, node by node. Blocks of nodes list their pairs apart
// and are joined in order: the same list on any thread count.
void findProximities(const Cloth& c, std::span<const Vec3> xStart, const AabbTree& tree,
                     const ClothEdges& edges, Real thickness, SelfCollisionScratch& scratch,
                     Workers* workers) {
  tableBoxes(c, edges, scratch, workers);
  const std::size_t blocks = (c.nodeCount() + kBlock - 1) / kBlock;
  scratch.blocks.resize(blocks);
  parallelFor(workers, blocks, 1, [&](std::size_t first, std::size_t last) {
    Search search(c.triangles.size());
    for (std::size_t b = first; b < last; ++b) {
      std::vector<PairOf>& out = scratch.blocks[b];
      out.clear();
      for (std::size_t i = b * kBlock; i < std::min(c.nodeCount(), (b + 1) * kBlock); ++i)
        nodePairs(c, xStart, tree, edges, static_cast<NodeIndex>(i), thickness, scratch, search, out);
    }
  });
  scratch.pairs.clear();
  for (const std::vector<PairOf>& block : scratch.blocks)
    scratch.pairs.insert(scratch.pairs.end(), block.begin(), block.end());
}

}  // namespace

Real selfContactThickness(Real thickness, Real keySpacing) {
  return keySpacing > 0 ? std::min(thickness, keySpacing / 3) : thickness;
}

int resolveSelfCollisions(Cloth& cloth, std::span<const Vec3> xStart, const AabbTree& tree,
                          const ClothEdges& edges, Real thickness, std::span<const Vec3> contactNormal,
                          SelfCollisionScratch& scratch, Workers* workers) {
  findProximities(cloth, xStart, tree, edges, thickness, scratch, workers);
  scratch.pushed.assign(scratch.pairs.size(), 0);
  for (int sweep = 0; sweep < kSweeps; ++sweep) {
    bool any = false;
    for (std::size_t i = 0; i < scratch.pairs.size(); ++i)
      if (respond(cloth, xStart, contactNormal, scratch.pairs[i], thickness)) {
        scratch.pushed[i] = 1;
        any = true;
      }
    if (!any) break;
  }
  return static_cast<int>(std::count(scratch.pushed.begin(), scratch.pushed.end(), 1));
}

}  // namespace cloth::sim
