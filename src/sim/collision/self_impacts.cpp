#include "cloth/sim/collision/self_impacts.h"

#include <algorithm>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/ccd.h"

namespace cloth::sim {
namespace {

constexpr int kMaxHoldRounds = 64;  // fail-safe rounds; each holds at least one more node

enum class Mode { Respond, Hold };
enum class Kind : std::uint8_t { VertexTriangle, EdgeEdge };

struct Pass {
  Cloth& cloth;
  std::span<const Vec3> xStart;
  std::span<const Vec3> contactNormal;
  const SelfImpactSettings& s;
  SelfImpactScratch& scratch;
  SelfImpactReport& report;

  MovingQuad quad(const std::array<NodeIndex, 4>& n) const {
    MovingQuad q;
    for (int k = 0; k < 4; ++k) {
      q.x0[k] = xStart[n[k]];
      q.x1[k] = cloth.x[n[k]];
    }
    return q;
  }

  // Gap at the step's end between the two touching points, along the impact normal.
  Real endGap(const std::array<NodeIndex, 4>& n, const Impact& hit) const {
    Vec3 d(0);
    for (int k = 0; k < 4; ++k) d += hit.w[k] * cloth.x[n[k]];
    return glm::dot(d, hit.normal);
  }

  void move(NodeIndex i, const Vec3& dx) {
    cloth.x[i] += dx;
    scratch.movedNow[i] = 1;
    scratch.drift[i] += glm::length(dx);
  }

  // Bridson et al. 2002 eq. 4 with masses: an impulse along the normal, shared by w_k / m_k, that
  // opens the gap to the separation. A pinned node, or one the push would drive into the collider it
  // rests on, takes none of it. Returns false when no node can move.
  bool respond(const std::array<NodeIndex, 4>& n, const Impact& hit, Real gap) {
    std::array<Real, 4> invMass{};
    Real sum = 0;
    for (int k = 0; k < 4; ++k) {
      const auto i = static_cast<std::size_t>(n[k]);
      const bool intoCollider =
          !contactNormal.empty() && glm::dot(contactNormal[i], hit.w[k] * hit.normal) < 0;
      invMass[k] = cloth.collides(n[k]) && !intoCollider && cloth.mass[i] > 0 ? 1 / cloth.mass[i] : 0;
      sum += hit.w[k] * hit.w[k] * invMass[k];
    }
    if (!(sum > 0)) return false;
    const Real impulse = (s.separation - gap) / sum;
    for (int k = 0; k < 4; ++k)
      if (invMass[k] > 0) move(n[k], (invMass[k] * hit.w[k] * impulse) * hit.normal);
    return true;
  }

  // The fail-safe: the pair's movable nodes go back to the step's start. Their swept boxes shrink, so
  // the pairs found before still hold every candidate.
  void hold(const std::array<NodeIndex, 4>& n) {
    for (NodeIndex i : n) {
      if (!cloth.collides(i) || scratch.held[i]) continue;
      scratch.held[i] = 1;
      scratch.movedNow[i] = 1;
      cloth.x[i] = xStart[i];
      ++report.heldNodes;
    }
  }

  // One pair: whether it collides in the step and ends closer than half the separation (a response
  // leaves the whole of it, so rounding cannot find it again).
  int visit(Kind kind, const std::array<NodeIndex, 4>& n, Mode mode) {
    const MovingQuad q = quad(n);
    const std::optional<Impact> hit =
        kind == Kind::VertexTriangle ? vertexTriangleImpact(q, s.tolerance) : edgeEdgeImpact(q, s.tolerance);
    if (!hit) return 0;
    const Real gap = endGap(n, *hit);
    if (gap >= 0.5 * s.separation) return 0;
    if (mode == Mode::Hold) {
      hold(n);
      return 1;
    }
    if (!respond(n, *hit, gap)) report.settled = false;
    ++report.impacts;
    return 1;
  }

  Aabb sweptBox(std::initializer_list<NodeIndex> nodes, Real margin) const {
    Aabb b;
    for (NodeIndex i : nodes) {
      b.grow(xStart[i]);
      b.grow(cloth.x[i]);
    }
    return b.inflated(margin);
  }

  // Every pair whose swept boxes, each grown by half the reach, overlap: all pairs that can meet
  // while no node moves further than half the reach from where it is now.
  void findPairs(AabbTree& tree, const ClothEdges& edges, Real reach) {
    scratch.pairs.clear();
    scratch.kinds.clear();
    tree.refitSwept(xStart, cloth.x, cloth.triangles, 0.5 * reach);
    for (std::size_t i = 0; i < cloth.nodeCount(); ++i) {
      const auto p = static_cast<NodeIndex>(i);
      scratch.candidates.clear();
      tree.overlappingSwept(sweptBox({p}, 0.5 * reach), scratch.candidates);
      for (int t : scratch.candidates) {
        const auto& v = cloth.triangles[t].v;
        if (v[0] == p || v[1] == p || v[2] == p) continue;
        scratch.pairs.push_back({p, v[0], v[1], v[2]});
        scratch.kinds.push_back(static_cast<std::uint8_t>(Kind::VertexTriangle));
      }
    }
    scratch.edgeStamp.resize(edges.nodes.size(), 0);
    for (std::size_t i = 0; i < edges.nodes.size(); ++i) {
      const std::array<NodeIndex, 2>& e = edges.nodes[i];
      const Aabb box = sweptBox({e[0], e[1]}, 0.5 * reach);
      scratch.candidates.clear();
      tree.overlappingSwept(box, scratch.candidates);
      if (++scratch.stamp == 0) {  // wrapped around: forget every old visit
        std::fill(scratch.edgeStamp.begin(), scratch.edgeStamp.end(), 0u);
        scratch.stamp = 1;
      }
      for (int t : scratch.candidates)
        for (int j : edges.ofTriangle[t]) {
          if (j <= static_cast<int>(i) || scratch.edgeStamp[j] == scratch.stamp) continue;  // each pair once
          scratch.edgeStamp[j] = scratch.stamp;
          const std::array<NodeIndex, 2>& f = edges.nodes[j];
          if (e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1]) continue;
          if (!box.overlaps(sweptBox({f[0], f[1]}, 0.5 * reach))) continue;
          scratch.pairs.push_back({e[0], e[1], f[0], f[1]});
          scratch.kinds.push_back(static_cast<std::uint8_t>(Kind::EdgeEdge));
        }
    }
    std::fill(scratch.drift.begin(), scratch.drift.end(), 0.0);
  }

  // Tests the pairs; after the first pass, only those with a node moved in the pass before (the
  // others have the same paths as when they were last found clear).
  int testPairs(Mode mode, bool all) {
    int found = 0;
    for (std::size_t k = 0; k < scratch.pairs.size(); ++k) {
      const std::array<NodeIndex, 4>& n = scratch.pairs[k];
      if (!all && !(scratch.movedBefore[n[0]] | scratch.movedBefore[n[1]] | scratch.movedBefore[n[2]] |
                    scratch.movedBefore[n[3]]))
        continue;
      found += visit(static_cast<Kind>(scratch.kinds[k]), n, mode);
    }
    return found;
  }
};

// The velocity follows each node's move; a held node stops.
void updateVelocities(Cloth& cloth, const SelfImpactScratch& scratch, Real h) {
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i) {
    if (scratch.held[i]) {
      cloth.v[i] = Vec3(0);
    } else if (h > 0 && cloth.x[i] != scratch.xBefore[i]) {
      cloth.v[i] += (cloth.x[i] - scratch.xBefore[i]) / h;
    }
  }
}

}  // namespace

SelfImpactReport resolveSelfImpacts(Cloth& cloth, std::span<const Vec3> xStart, const ClothEdges& edges,
                                    std::span<const Vec3> contactNormal, const SelfImpactSettings& settings,
                                    AabbTree& tree, SelfImpactScratch& scratch) {
  SelfImpactReport report;
  const std::size_t n = cloth.nodeCount();
  scratch.xBefore = cloth.x;
  scratch.held.assign(n, 0);
  scratch.movedNow.assign(n, 0);
  scratch.movedBefore.assign(n, 0);
  scratch.drift.assign(n, 0);
  Pass p{cloth, xStart, contactNormal, settings, scratch, report};
  bool fresh = true;
  for (int pass = 0; pass < settings.passes + kMaxHoldRounds; ++pass) {
    if (fresh) p.findPairs(tree, edges, settings.reach);
    const Mode mode = pass < settings.passes ? Mode::Respond : Mode::Hold;
    ++report.passes;
    const int found = p.testPairs(mode, fresh);
    report.settled = found == 0;
    if (report.settled) break;
    std::swap(scratch.movedNow, scratch.movedBefore);
    std::fill(scratch.movedNow.begin(), scratch.movedNow.end(), 0);
    fresh = *std::max_element(scratch.drift.begin(), scratch.drift.end()) > 0.5 * settings.reach;
  }
  updateVelocities(cloth, scratch, settings.h);
  return report;
}

}  // namespace cloth::sim
