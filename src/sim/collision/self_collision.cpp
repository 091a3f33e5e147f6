#include "cloth/sim/collision/self_collision.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/aabb.h"
#include "cloth/sim/collision/point_move.h"

namespace cloth::sim {
namespace {

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

// The least friction of a cloth point's nodes (empty: none).
template <std::size_t N>
Real leastFriction(std::span<const Real> friction, const std::array<NodeIndex, N>& nodes,
                   const std::array<Real, N>& w) {
  if (friction.empty()) return 0;
  Real mu = std::numeric_limits<Real>::infinity();
  for (std::size_t k = 0; k < N; ++k)
    if (w[k] > 0) mu = std::min(mu, friction[nodes[k]]);
  return std::isfinite(mu) ? mu : 0;
}

template <std::size_t N>
bool resting(std::span<const Vec3> contactNormal, const std::array<NodeIndex, N>& nodes,
             const std::array<Real, N>& w) {
  if (contactNormal.empty()) return false;
  for (std::size_t k = 0; k < N; ++k)
    if (w[k] > 0 && contactNormal[nodes[k]] != Vec3(0)) return true;
  return false;
}

// Coulomb friction with the approach a contact stopped (Bridson et al. 2002 §7.2): the relative
// velocity `relative` loses up to mu times that approach of its part across n, all of it at most.
Vec3 frictionChange(const Vec3& relative, const Vec3& n, Real approach, Real mu) {
  const Vec3 slide = relative - glm::dot(relative, n) * n;
  const Real speed = glm::length(slide);
  if (!(speed > 0) || mu <= 0) return Vec3(0);
  return -std::min<Real>(1, mu * approach / speed) * slide;
}

// Most a push moves a node, in multiples of the move asked of its point (movePoint, point_move.h). Where
// a point's other nodes are pinned and its free one weighs little in it, the push would fall on that
// node magnified by 1 / weight: on the twist's edge pairs beside its turning pins up to 11,567 times,
// and a push of 2 cm flung a node 2 m, which the stretch limit's pull back left at 120 m/s (4 J in a
// node of 0.5 g). The point then moves less than asked and the continuous pass after (self_impacts.h)
// takes what is left. With every node free the leverage is at most 1.37. Not the self-impacts' 3: the
// flag whipped round its pole has pushes at 3.00-3.08 against its pole's contacts, and cut there it
// stalled a step later in the impacts' rounds against the stretch limit at strain 0.112 (0.110 allowed).
constexpr Real kMostLeverage = 4;

// Two cloth points, a (weights wa over nodes na) and b, pushed apart along the unit n (pointing from b
// to a) until a is `depth` further from b (less where a point's free nodes weigh little in it:
// kMostLeverage), their approach along n stopped and their sliding along each
// other slowed by friction mu: each takes half, or all of it where the other cannot move (pinned, or
// resting on a collider the push would go into).
template <std::size_t N, std::size_t M>
bool pushApart(Cloth& c, std::span<const Vec3> contactNormal, const std::array<NodeIndex, N>& na,
               const std::array<Real, N>& wa, const std::array<NodeIndex, M>& nb,
               const std::array<Real, M>& wb, const Vec3& n, Real depth, std::span<const Real> friction) {
  const bool aMoves = canPush(c, contactNormal, na, wa, n), bMoves = canPush(c, contactNormal, nb, wb, -n);
  if (!aMoves && !bMoves) return false;
  const Real shareA = aMoves && bMoves ? 0.5 : aMoves ? 1.0 : 0.0;
  const Vec3 relative = pointVelocity(c, na, wa) - pointVelocity(c, nb, wb);
  const Real approach = std::max<Real>(0, -glm::dot(relative, n));
  // A side resting on a collider is held by its own friction there: the other side takes the slowing.
  const bool aRests = resting(contactNormal, na, wa), bRests = resting(contactNormal, nb, wb);
  const Real slowA = !aMoves ? 0 : !bMoves ? 1 : aRests == bRests ? 0.5 : aRests ? 0 : 1;
  const Real mu = std::min(leastFriction(friction, na, wa), leastFriction(friction, nb, wb));
  const Vec3 slow = frictionChange(relative, n, approach, mu);
  if (aMoves) movePoint(c, na, wa, shareA * depth * n, shareA * approach * n + slowA * slow, kMostLeverage);
  if (bMoves)
    movePoint(c, nb, wb, -(1 - shareA) * depth * n, -(1 - shareA) * approach * n - (1 - slowA) * slow,
              kMostLeverage);
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
             Real thickness, std::span<const Real> friction) {
  const auto& n = pair.nodes;
  if (pair.kind == PairKind::VertexTriangle) {
    const Triangle t{{n[1], n[2], n[3]}};
    const auto p = pointTriangleProximity(c, xStart, n[0], t, thickness);
    const Vec3& w = p ? p->weights : Vec3(0);
    return p && pushApart<1, 3>(c, contactNormal, {n[0]}, {1}, t.v, {w.x, w.y, w.z}, p->normal,
                                thickness - p->gap, friction);
  }
  const std::array<NodeIndex, 2> e{n[0], n[1]}, f{n[2], n[3]};
  const auto p = edgeEdgeProximity(c, xStart, e, f, thickness);
  if (!p) return false;
  const Real u = p->weights.x, w = p->weights.y;
  return pushApart<2, 2>(c, contactNormal, e, {1 - u, u}, f, {1 - w, w}, p->normal, thickness - p->gap,
                         friction);
}

constexpr std::size_t kBlock = 1024;  // candidates per block of the parallel filter
// Sweeps over the listed pairs: a second one pushes again the pairs that later pushes in the first
// brought back within the thickness. With one, a cloth crumpled by a dragged corner left five times
// as many pairs to the continuous pass (self_impacts.h) as the serial search it replaced, which
// found each node's pairs after the pushes before it; with two, 1.3 times as many. Listing the pairs
// out to twice the thickness instead left the curtain struck by the ball in small steps at strain
// 0.16 (pushes there fight the ball's contacts).
constexpr int kSweeps = 2;

// Whether the pair's two sides' boxes where the cloth is come within the thickness: most candidates
// of a moving cloth are near only somewhere along their paths.
bool boxesNear(const Cloth& c, const PairOf& pair, Real thickness) {
  const auto& n = pair.nodes;
  const int split = pair.kind == PairKind::VertexTriangle ? 1 : 2;
  Aabb a, b;
  for (int k = 0; k < 4; ++k) (k < split ? a : b).grow(c.x[n[k]]);
  return a.inflated(thickness).overlaps(b);
}

bool inProximity(const Cloth& c, std::span<const Vec3> xStart, const PairOf& pair, Real thickness) {
  if (!boxesNear(c, pair, thickness)) return false;
  const auto& n = pair.nodes;
  if (pair.kind == PairKind::VertexTriangle)
    return pointTriangleProximity(c, xStart, n[0], Triangle{{n[1], n[2], n[3]}}, thickness).has_value();
  return edgeEdgeProximity(c, xStart, {n[0], n[1]}, {n[2], n[3]}, thickness).has_value();
}

// The candidates in proximity where the cloth is on entry, in their order: blocks tested apart and
// joined in order, the same list on any thread count.
void findProximities(const Cloth& c, std::span<const Vec3> xStart, std::span<const PairOf> candidates,
                     Real thickness, SelfCollisionScratch& scratch, Workers* workers) {
  const std::size_t blocks = (candidates.size() + kBlock - 1) / kBlock;
  scratch.blocks.resize(blocks);
  parallelChunks(workers, blocks, 1, [&](std::size_t first, std::size_t last, std::size_t) {
    for (std::size_t b = first; b < last; ++b) {
      std::vector<PairOf>& out = scratch.blocks[b];
      out.clear();
      for (std::size_t k = b * kBlock; k < std::min(candidates.size(), (b + 1) * kBlock); ++k)
        if (inProximity(c, xStart, candidates[k], thickness)) out.push_back(candidates[k]);
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

int resolveSelfCollisions(Cloth& cloth, std::span<const Vec3> xStart, std::span<const PairOf> candidates,
                          Real thickness, std::span<const Real> friction, std::span<const Vec3> contactNormal,
                          SelfCollisionScratch& scratch, Workers* workers) {
  findProximities(cloth, xStart, candidates, thickness, scratch, workers);
  scratch.pushed.assign(scratch.pairs.size(), 0);
  for (int sweep = 0; sweep < kSweeps; ++sweep) {
    bool any = false;
    for (std::size_t i = 0; i < scratch.pairs.size(); ++i)
      if (respond(cloth, xStart, contactNormal, scratch.pairs[i], thickness, friction)) {
        scratch.pushed[i] = 1;
        any = true;
      }
    if (!any) break;
  }
  return static_cast<int>(std::count(scratch.pushed.begin(), scratch.pushed.end(), 1));
}

}  // namespace cloth::sim
