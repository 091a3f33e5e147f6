#include "cloth/sim/collision/self_impacts.h"

#include <algorithm>
#include <optional>
#include <utility>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/ccd.h"
#include "cloth/sim/collision/normal_cone.h"

namespace cloth::sim {
namespace {

constexpr int kMaxHoldRounds =
    2;  // after the zones, the last fail-safe: the first holds the whole cloth, the second finds it clear

constexpr std::size_t kPairBlock = 1024;  // nodes, edges or pairs per block of a parallel loop
// Pairs per node or edge beyond which a step is not worth testing pair by pair: the cloth moved as
// far as many of its own widths in one step (a blow-up, or a throw at a huge step) and is held.
constexpr std::size_t kPairsPerItem = 256;

// How many times the gap it opens a response may move one node. Where only a node of small weight in
// the pair can move (the others pinned, or resting on a collider the push points into), the whole push
// falls on it magnified by 1 / weight: an edge-edge pair on the Spider drape whose one free node had
// weight 0.024 flung it 0.7 m. Every node movable, a response moves none by more than the gap.
constexpr Real kMostLeverage = 3;

enum class Mode { Respond, Zone, Hold };

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

  void move(NodeIndex i, const Vec3& dx) {
    cloth.x[i] += dx;
    scratch.movedNow[i] = 1;
    scratch.drift[i] += glm::length(dx);
  }

  // Bridson et al. 2002 eq. 4 with masses: an impulse along the normal, shared by w_k / m_k, that
  // opens the gap to the separation. A pinned node, or one the push would drive into the collider it
  // rests on, takes none of it. Returns false when no node can move, or when those that can would
  // move too far (kMostLeverage): the zones take the pair then.
  bool respond(const std::array<NodeIndex, 4>& n, const Impact& hit, Real gap) {
    std::array<Real, 4> invMass{};
    Real sum = 0, lever = 0;
    for (int k = 0; k < 4; ++k) {
      const auto i = static_cast<std::size_t>(n[k]);
      const bool intoCollider =
          !contactNormal.empty() && glm::dot(contactNormal[i], hit.w[k] * hit.normal) < 0;
      invMass[k] = cloth.collides(n[k]) && !intoCollider && cloth.mass[i] > 0 ? 1 / cloth.mass[i] : 0;
      sum += hit.w[k] * hit.w[k] * invMass[k];
      lever = std::max(lever, invMass[k] * std::abs(hit.w[k]));
    }
    if (!(sum > 0) || lever > kMostLeverage * sum) return false;
    const Real impulse = (s.separation - gap) / sum;
    for (int k = 0; k < 4; ++k)
      if (invMass[k] > 0) move(n[k], (invMass[k] * hit.w[k] * impulse) * hit.normal);
    return true;
  }

  // The pair's movable nodes go back to the step's start. Their swept boxes shrink, so the pairs
  // found before still hold every candidate.
  void hold(const std::array<NodeIndex, 4>& n) {
    for (NodeIndex i : n) {
      if (!cloth.collides(i) || scratch.held[i]) continue;
      scratch.held[i] = 1;
      scratch.movedNow[i] = 1;
      scratch.drift[i] += glm::length(cloth.x[i] - xStart[i]);
      cloth.x[i] = xStart[i];
      ++report.heldNodes;
    }
  }

  // Whether a zone with this node may move: not with a pinned node, nor with a node held at the step's
  // start already (a zone moved over a held node took it away from the start while the neighbours
  // held with it stayed: strain 0.54 on the cloth heaped beside a box), nor (holdAtContacts) with a
  // node resting on a collider, which the rigid motion might carry into it.
  bool movesInZone(NodeIndex i) const {
    const bool resting = !contactNormal.empty() && contactNormal[i] != Vec3(0);
    return cloth.collides(i) && !scratch.held[i] && !(s.holdAtContacts && resting);
  }

  // Each zone moves rigidly with its nodes' motion as the step left them before any response
  // (xBefore); a zone that cannot (movesInZone) is held, with what it would stretch.
  void moveZones() {
    const int heldBefore = report.heldNodes;
    for (const std::vector<NodeIndex>& zone : scratch.zones.zones()) {
      if (!std::all_of(zone.begin(), zone.end(), [&](NodeIndex i) { return movesInZone(i); })) {
        for (NodeIndex i : zone) hold({i, i, i, i});
        continue;
      }
      for (NodeIndex i : zone) scratch.xZone[i] = cloth.x[i];
      moveRigidly(zone, xStart, scratch.xBefore, cloth.mass, cloth.x);
      for (NodeIndex i : zone) {
        scratch.drift[i] += glm::length(cloth.x[i] - scratch.xZone[i]);
        scratch.movedNow[i] = 1;
      }
    }
    if (report.heldNodes > heldBefore) holdStretchedNeighbours();
  }

  // A held zone is back at the step's start while its neighbours are where the step took them: the
  // springs between stretch by a step's motion (the crumpled cloth dragged across the floor peaked at
  // strain 0.21 that way, one step). Neighbours whose structural or shear spring to a held node ends
  // over (1 + tau) L, and longer than it started, are held too, outward until none is. Held nodes are
  // at the step's start like the zone, so the passes after test them as any moved node.
  void holdStretchedNeighbours() {
    if (s.tau < 0) return;
    const SpringRange structural = cloth.range(SpringFamily::Structural),
                      shear = cloth.range(SpringFamily::Shear);
    const auto stretched = [&](const Spring& sp) {
      const Real len = glm::length(cloth.x[sp.b] - cloth.x[sp.a]);
      return len > (1 + s.tau) * sp.rest && len > glm::length(xStart[sp.b] - xStart[sp.a]) * (1 + 1e-9);
    };
    for (bool grew = true; grew;) {
      grew = false;
      for (const SpringRange& range : {structural, shear})
        for (std::size_t k = range.begin; k < range.end; ++k) {
          const Spring& sp = cloth.springs[k];
          if (scratch.held[sp.a] == scratch.held[sp.b] || !stretched(sp)) continue;
          const NodeIndex other = scratch.held[sp.a] ? sp.b : sp.a;
          if (!cloth.collides(other)) continue;
          hold({other, other, other, other});
          grew = true;
        }
    }
  }

  // The last fail-safe: every movable node back to the step's start, the whole step undone, which is
  // free of intersections; the cloth pauses for the step. Holding only the pairs' nodes, before the
  // zones, left their neighbours a step's motion away: the drape on the Spider peaked at strain 3.8
  // and 11 penetrations that way. With the zones first, it fired in none of the contact bench's 360
  // Spider steps (22 before).
  void holdAll() {
    for (std::size_t i = 0; i < cloth.nodeCount(); ++i) {
      const auto n = static_cast<NodeIndex>(i);
      hold({n, n, n, n});
    }
  }

  // One pair's impact in the step, if it collides and ends closer than half the separation (a
  // response leaves the whole of it, so rounding cannot find it again).
  std::optional<std::pair<Impact, Real>> collides(const PairOf& pair) const {
    const MovingQuad q = quad(pair.nodes);
    const std::optional<Impact> hit = pair.kind == PairKind::VertexTriangle
                                          ? vertexTriangleImpact(q, s.tolerance)
                                          : edgeEdgeImpact(q, s.tolerance);
    if (!hit) return std::nullopt;
    const Real gap = gapAtEnd(q, *hit);
    if (gap >= 0.5 * s.separation) return std::nullopt;
    return std::pair{*hit, gap};
  }

  // One pair: pushed apart (or, in the fail-safe, the cloth held) if it still collides; returns 1 if it did.
  int visit(const PairOf& pair, Mode mode) {
    const auto hit = collides(pair);
    if (!hit) return 0;
    if (mode == Mode::Zone) {
      scratch.zones.merge(pair.nodes);
      return 1;
    }
    if (mode == Mode::Hold) {
      holdAll();
      return 1;
    }
    // A pair none of whose nodes can move (pinned, or pushed into the collider each rests on) stays
    // colliding: its nodes count as moved, so the next pass finds it again and the zones take it.
    // Left untested, it ended a step through the cloth on the Spider (the pass after found nothing).
    if (!respond(pair.nodes, hit->first, hit->second))
      for (NodeIndex i : pair.nodes) scratch.movedNow[i] = 1;
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
  // while no node moves further than half the reach from where it is now. One tree query a node covers
  // the node and the edges it is the lower node of (nodePairs). Blocks of nodes list their pairs apart
  // and are joined in order, every block's vertex-triangle pairs, then every block's edge-edge pairs:
  // the same list on any thread count.
  bool findPairs(AabbTree& tree, const ClothEdges& edges, Real reach, Workers* workers) {
    tree.refitSwept(xStart, cloth.x, cloth.triangles, 0.5 * reach, workers);
    tree.refitCones(xStart, cloth.x, cloth.triangles, kFlatPatchHalfAngle, workers);
    noteSweptBoxes(edges, 0.5 * reach, workers);
    const std::size_t blocks = blockCount(cloth.nodeCount());
    scratch.blocks.resize(2 * blocks);
    scratch.overflowed.assign(blocks, 0);
    parallelFor(workers, blocks, 1, [&](std::size_t first, std::size_t last) {
      NodeSearch search(cloth.triangles.size());  // one per piece, reused by its nodes
      for (std::size_t b = first; b < last; ++b) {
        std::vector<PairOf>&vertexOut = scratch.blocks[b], &edgeOut = scratch.blocks[blocks + b];
        vertexOut.clear();
        edgeOut.clear();
        const std::size_t begin = b * kPairBlock, end = std::min(cloth.nodeCount(), begin + kPairBlock);
        std::size_t items = 0;  // nodes and their edges
        for (std::size_t i = begin; i < end; ++i) {
          const auto p = static_cast<NodeIndex>(i);
          items += 1 + edges.edgesFrom(p).size();
          if (vertexOut.size() + edgeOut.size() > kPairsPerItem * items) break;
          nodePairs(tree, edges, p, reach, search, vertexOut, edgeOut);
        }
        scratch.overflowed[b] = vertexOut.size() + edgeOut.size() > kPairsPerItem * items;
      }
    });
    scratch.pairs.clear();
    for (const std::vector<PairOf>& block : scratch.blocks)
      scratch.pairs.insert(scratch.pairs.end(), block.begin(), block.end());
    scratch.newPairs.assign(scratch.pairs.size(), 0);
    std::fill(scratch.drift.begin(), scratch.drift.end(), 0.0);
    return std::find(scratch.overflowed.begin(), scratch.overflowed.end(), 1) == scratch.overflowed.end();
  }

  static std::size_t blockCount(std::size_t items) { return (items + kPairBlock - 1) / kPairBlock; }

  // Every triangle's and every edge's swept box, grown by `margin`, for nodePairs' tests: built once
  // here rather than per candidate (nodePairs' own samples on the pull off the table went from 1.5x to
  // 1.3x those of the tree queries).
  void noteSweptBoxes(const ClothEdges& edges, Real margin, Workers* workers) {
    scratch.triangleBoxes.resize(cloth.triangles.size());
    scratch.edgeBoxes.resize(edges.nodes.size());
    parallelFor(workers, cloth.triangles.size(), kPairBlock, [&](std::size_t first, std::size_t last) {
      for (std::size_t t = first; t < last; ++t) {
        const auto& v = cloth.triangles[t].v;
        scratch.triangleBoxes[t] = sweptBox({v[0], v[1], v[2]}, margin);
      }
    });
    parallelFor(workers, edges.nodes.size(), kPairBlock, [&](std::size_t first, std::size_t last) {
      for (std::size_t i = first; i < last; ++i)
        scratch.edgeBoxes[i] = sweptBox({edges.nodes[i][0], edges.nodes[i][1]}, margin);
    });
  }

  // Node p against every triangle near its path that it is not a corner of, but those of a flat patch
  // round it (AabbTree::refitCones).
  void vertexPairs(const AabbTree& tree, const ClothEdges& edges, NodeIndex p, Real reach,
                   std::vector<int>& candidates, std::vector<PairOf>& out) const {
    candidates.clear();
    tree.overlappingSwept(sweptBox({p}, 0.5 * reach), candidates, edges.trianglesAt(p));
    for (int t : candidates) {
      const auto& v = cloth.triangles[t].v;
      if (v[0] != p && v[1] != p && v[2] != p)
        out.push_back({{p, v[0], v[1], v[2]}, PairKind::VertexTriangle});
    }
  }

  // Reusable per piece of the parallel search.
  struct NodeSearch {
    explicit NodeSearch(std::size_t triangles) : stamp(triangles, 0) {}
    std::vector<int> candidates;
    std::vector<std::uint32_t> stamp;  // per triangle: `now` while it is a candidate
    std::uint32_t now = 0;
  };

  // Node p against every triangle near its path that it is not a corner of, but those of a flat patch
  // round it (AabbTree::refitCones); each edge from p (its lower node) against the edges after it of
  // the triangles near it whose swept boxes meet its own, an edge of two such triangles from the lower.
  void nodePairs(const AabbTree& tree, const ClothEdges& edges, NodeIndex p, Real reach, NodeSearch& search,
                 std::vector<PairOf>& vertexOut, std::vector<PairOf>& edgeOut) const {
    const std::span<const int> own = edges.edgesFrom(p);
    const Aabb around = sweptBox({p}, 0.5 * reach);
    Aabb ownEdges;  // the node's edges' boxes together
    for (int i : own) {
      ownEdges.grow(scratch.edgeBoxes[i].lo);
      ownEdges.grow(scratch.edgeBoxes[i].hi);
    }
    Aabb query = around;
    if (!own.empty()) {
      query.grow(ownEdges.lo);
      query.grow(ownEdges.hi);
    }
    search.candidates.clear();
    tree.overlappingSwept(query, search.candidates, edges.trianglesAt(p));
    for (int t : search.candidates) {
      const auto& v = cloth.triangles[t].v;
      if (v[0] != p && v[1] != p && v[2] != p && around.overlaps(scratch.triangleBoxes[t]))
        vertexOut.push_back({{p, v[0], v[1], v[2]}, PairKind::VertexTriangle});
    }
    if (own.empty()) return;
    if (++search.now == 0) {  // wrapped around: forget every old mark
      std::fill(search.stamp.begin(), search.stamp.end(), 0u);
      search.now = 1;
    }
    for (int t : search.candidates) search.stamp[t] = search.now;
    for (int t : search.candidates) {
      if (!ownEdges.overlaps(scratch.triangleBoxes[t])) continue;  // no edge of it meets the node's
      for (int j : edges.ofTriangle[t]) {
        const std::array<int, 2>& sides = edges.triangles[j];
        const int other = sides[0] == t ? sides[1] : sides[0];
        if (other >= 0 && other < t && search.stamp[other] == search.now) continue;
        const std::array<NodeIndex, 2>& f = edges.nodes[j];
        const Aabb& box = scratch.edgeBoxes[j];
        for (int i : own) {
          const std::array<NodeIndex, 2>& e = edges.nodes[i];
          if (j <= i || e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1]) continue;
          if (scratch.edgeBoxes[i].overlaps(box))
            edgeOut.push_back({{e[0], e[1], f[0], f[1]}, PairKind::EdgeEdge});
        }
      }
    }
  }

  // After the first search, only what moved since it is searched again: the pairs with a node that
  // moved are dropped and found anew, from the moved nodes, the triangles and the edges they are
  // corners of; the pairs of nodes that did not move are kept (their paths are as they were). A
  // zone's move shifts a few hundred nodes by centimetres: searching the whole cloth again for
  // each was most of a fast pull's cost. Each pair is listed once, as in the first search: a moved
  // node's from its own side, an unmoved node's from the moved triangle's, an edge pair from its
  // lower moved edge. Blocks of nodes, triangles and edges list their pairs apart and are joined in
  // order: the same list on any thread count (serial, with a sort to drop the repeats, it was half
  // of a crumpling cloth's step).
  bool refindMoved(AabbTree& tree, const ClothEdges& edges, Real reach, Workers* workers) {
    tree.refitSwept(xStart, cloth.x, cloth.triangles, 0.5 * reach, workers);
    tree.refitCones(xStart, cloth.x, cloth.triangles, kFlatPatchHalfAngle, workers);
    const std::size_t nodeBlocks = blockCount(cloth.nodeCount()),
                      triangleBlocks = blockCount(cloth.triangles.size()),
                      edgeBlocks = blockCount(edges.nodes.size());
    scratch.blocks.resize(nodeBlocks + triangleBlocks + edgeBlocks);
    parallelFor(workers, scratch.blocks.size(), 1, [&](std::size_t first, std::size_t last) {
      std::vector<int> candidates, near;  // one pair of buffers per piece
      for (std::size_t b = first; b < last; ++b) {
        std::vector<PairOf>& out = scratch.blocks[b];
        out.clear();
        if (b < nodeBlocks) {
          for (std::size_t i = b * kPairBlock; i < std::min(cloth.nodeCount(), (b + 1) * kPairBlock); ++i)
            if (moved(static_cast<NodeIndex>(i)))
              vertexPairs(tree, edges, static_cast<NodeIndex>(i), reach, candidates, out);
        } else if (b < nodeBlocks + triangleBlocks) {
          const std::size_t begin = (b - nodeBlocks) * kPairBlock;
          for (std::size_t t = begin; t < std::min(cloth.triangles.size(), begin + kPairBlock); ++t)
            movedTrianglePairs(tree, cloth.triangles[t].v, reach, candidates, near, out);
        } else {
          const std::size_t begin = (b - nodeBlocks - triangleBlocks) * kPairBlock;
          for (std::size_t i = begin; i < std::min(edges.nodes.size(), begin + kPairBlock); ++i)
            if (movedEdge(edges, i)) movedEdgePairs(tree, edges, i, reach, candidates, near, out);
        }
      }
    });
    std::size_t count = 0;
    for (const std::vector<PairOf>& block : scratch.blocks) count += block.size();
    if (count > kPairsPerItem * (cloth.nodeCount() + edges.nodes.size())) return false;
    std::erase_if(scratch.pairs, [&](const PairOf& pair) {
      return moved(pair.nodes[0]) || moved(pair.nodes[1]) || moved(pair.nodes[2]) || moved(pair.nodes[3]);
    });
    scratch.newPairs.assign(scratch.pairs.size(), 0);
    scratch.newPairs.resize(scratch.pairs.size() + count, 1);
    for (const std::vector<PairOf>& block : scratch.blocks)
      scratch.pairs.insert(scratch.pairs.end(), block.begin(), block.end());
    std::fill(scratch.drift.begin(), scratch.drift.end(), 0.0);
    return true;
  }

  bool moved(NodeIndex i) const { return scratch.drift[i] > 0; }
  bool movedEdge(const ClothEdges& edges, std::size_t i) const {
    return moved(edges.nodes[i][0]) || moved(edges.nodes[i][1]);
  }

  // Triangle v, if a corner of it moved, against every node that did not move near its path (a moved
  // node lists its own). Not culled by flat patches: a node of a patch's edge may have its other
  // triangles outside it.
  void movedTrianglePairs(const AabbTree& tree, const std::array<NodeIndex, 3>& v, Real reach,
                          std::vector<int>& candidates, std::vector<int>& near,
                          std::vector<PairOf>& out) const {
    if (!moved(v[0]) && !moved(v[1]) && !moved(v[2])) return;
    const Aabb box = sweptBox({v[0], v[1], v[2]}, 0.5 * reach);
    candidates.clear();
    tree.overlappingSwept(box, candidates);
    near.clear();
    for (int u : candidates)
      for (NodeIndex q : cloth.triangles[u].v)
        if (q != v[0] && q != v[1] && q != v[2] && !moved(q) && box.overlaps(sweptBox({q}, 0.5 * reach)))
          near.push_back(q);
    std::sort(near.begin(), near.end());
    near.erase(std::unique(near.begin(), near.end()), near.end());
    for (NodeIndex q : near) out.push_back({{q, v[0], v[1], v[2]}, PairKind::VertexTriangle});
  }

  // Moved edge i against every edge near it that shares no node, each pair with its lower edge first;
  // a pair of two moved edges from the lower one only.
  void movedEdgePairs(const AabbTree& tree, const ClothEdges& edges, std::size_t i, Real reach,
                      std::vector<int>& candidates, std::vector<int>& near, std::vector<PairOf>& out) const {
    const std::array<NodeIndex, 2>& e = edges.nodes[i];
    const Aabb box = sweptBox({e[0], e[1]}, 0.5 * reach);
    candidates.clear();
    tree.overlappingSwept(box, candidates, edges.triangles[i]);
    near.clear();
    for (int t : candidates)
      for (int j : edges.ofTriangle[t]) {
        const std::array<NodeIndex, 2>& f = edges.nodes[j];
        if (j == static_cast<int>(i) || e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1])
          continue;
        if (j < static_cast<int>(i) && movedEdge(edges, static_cast<std::size_t>(j))) continue;
        if (box.overlaps(sweptBox({f[0], f[1]}, 0.5 * reach))) near.push_back(j);
      }
    std::sort(near.begin(), near.end());
    near.erase(std::unique(near.begin(), near.end()), near.end());
    for (int j : near) {
      const std::array<NodeIndex, 2>& f = edges.nodes[j];
      out.push_back(j > static_cast<int>(i) ? PairOf{{e[0], e[1], f[0], f[1]}, PairKind::EdgeEdge}
                                            : PairOf{{f[0], f[1], e[0], e[1]}, PairKind::EdgeEdge});
    }
  }

  static bool moved(const std::vector<std::uint8_t>& flags, const std::array<NodeIndex, 4>& n) {
    return flags[n[0]] | flags[n[1]] | flags[n[2]] | flags[n[3]];
  }

  // Tests the pairs; after the first pass, only those with a node moved in the pass before (the
  // others have the same paths as when they were last found clear). The test runs first on every
  // thread against the positions at the pass's start; then the pairs are visited in order, and a
  // pair none of whose nodes an earlier visit moved keeps that answer: the result of one serial pass.
  int testPairs(Mode mode, bool all, Workers* workers) {
    enum : std::uint8_t { Skipped, Clear, Colliding };
    scratch.flagged.assign(scratch.pairs.size(), Skipped);
    parallelFor(workers, scratch.pairs.size(), kPairBlock, [&](std::size_t first, std::size_t last) {
      for (std::size_t k = first; k < last; ++k) {
        const PairOf& pair = scratch.pairs[k];
        if (all || scratch.newPairs[k] || moved(scratch.movedBefore, pair.nodes))
          scratch.flagged[k] = collides(pair) ? Colliding : Clear;
      }
    });
    int found = 0;
    for (std::size_t k = 0; k < scratch.pairs.size(); ++k) {
      const std::uint8_t flag = scratch.flagged[k];
      if (flag == Colliding || (flag == Clear && moved(scratch.movedNow, scratch.pairs[k].nodes)))
        found += visit(scratch.pairs[k], mode);
    }
    std::fill(scratch.newPairs.begin(), scratch.newPairs.end(), 0);  // tested now
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
                                    AabbTree& tree, SelfImpactScratch& scratch, Workers* workers) {
  SelfImpactReport report;
  const std::size_t n = cloth.nodeCount();
  scratch.xBefore = cloth.x;
  scratch.held.assign(n, 0);
  scratch.movedNow.assign(n, 0);
  scratch.movedBefore.assign(n, 0);
  // A later round starts from the pairs the last one left, each node drifted by its move since.
  const bool continues = settings.continues && scratch.listed && n > 0 && scratch.xLeft.size() == n &&
                         scratch.drift.size() == n && scratch.pairs.size() == scratch.newPairs.size();
  if (continues) {
    for (std::size_t i = 0; i < n; ++i) scratch.drift[i] += glm::length(cloth.x[i] - scratch.xLeft[i]);
  } else {
    scratch.drift.assign(n, 0);
  }
  scratch.listed = false;
  Pass p{cloth, xStart, contactNormal, settings, scratch, report};
  // Nodes moved far enough since the last search to meet pairs it did not list.
  bool refind =
      continues && *std::max_element(scratch.drift.begin(), scratch.drift.end()) > 0.5 * settings.reach;
  scratch.zones.reset(n);
  scratch.xZone.resize(n);
  for (int pass = 0; pass < settings.passes + settings.zonePasses + kMaxHoldRounds; ++pass) {
    const bool found = pass == 0 && !continues ? p.findPairs(tree, edges, settings.reach, workers)
                       : refind                ? p.refindMoved(tree, edges, settings.reach, workers)
                                               : true;
    if (!found) {
      p.holdAll();
      report.overflowed = true;
      break;
    }
    const Mode mode = pass < settings.passes                         ? Mode::Respond
                      : pass < settings.passes + settings.zonePasses ? Mode::Zone
                                                                     : Mode::Hold;
    ++report.passes;
    const int colliding = p.testPairs(mode, pass == 0, workers);
    report.settled = colliding == 0;
    if (report.settled) break;
    if (mode == Mode::Zone) p.moveZones();
    std::swap(scratch.movedNow, scratch.movedBefore);
    std::fill(scratch.movedNow.begin(), scratch.movedNow.end(), 0);
    refind = *std::max_element(scratch.drift.begin(), scratch.drift.end()) > 0.5 * settings.reach;
  }
  if (report.heldNodes == 0) report.zoneNodes = static_cast<int>(scratch.zones.nodeCount());
  updateVelocities(cloth, scratch, settings.h);
  scratch.xLeft = cloth.x;
  scratch.listed = !report.overflowed;
  return report;
}

}  // namespace cloth::sim
