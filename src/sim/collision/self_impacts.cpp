#include "cloth/sim/collision/self_impacts.h"

#include <algorithm>
#include <optional>
#include <utility>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/ccd.h"

namespace cloth::sim {
namespace {

constexpr int kMaxHoldRounds =
    2;  // after the zones, the last fail-safe: the first holds the whole cloth, the second finds it clear

constexpr std::size_t kPairBlock = 1024;  // pairs per block of the parallel test

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
    scratch.list.drift[i] += glm::length(dx);
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
      scratch.list.drift[i] += glm::length(cloth.x[i] - xStart[i]);
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

  // A zone with pinned nodes moves with them where they move as one rigid body (the twist's turning
  // edge, a pole carrying the flag): its other nodes follow the rigid motion fitted to the pinned ones',
  // so the zone keeps its start's shape, clear of itself. Returns false (nothing moved) if a node may
  // not move, or if the pinned nodes' motion is not rigid to within the tolerance.
  bool followPinned(const std::vector<NodeIndex>& zone) {
    bool pinnedMove = false;  // pinned nodes that stand still: the hold is the same motion, and stops it
    for (NodeIndex i : zone) {
      if (cloth.collides(i) && !movesInZone(i)) return false;
      pinnedMove = pinnedMove || (!cloth.collides(i) && cloth.x[i] != xStart[i]);
    }
    if (!pinnedMove) return false;
    for (NodeIndex i : zone) scratch.pinnedWeight[i] = cloth.collides(i) ? 0 : 1;
    const RigidMotion motion = fitRigidMotion(zone, xStart, cloth.x, scratch.pinnedWeight);
    bool rigid = true;
    for (NodeIndex i : zone) {
      rigid = rigid && (cloth.collides(i) || glm::length(motion(xStart[i]) - cloth.x[i]) <= s.tolerance);
      scratch.pinnedWeight[i] = 0;
    }
    if (!rigid) return false;
    for (NodeIndex i : zone)
      if (cloth.collides(i)) move(i, motion(xStart[i]) - cloth.x[i]);
    return true;
  }

  // Each zone moves rigidly with its nodes' motion as the step left them before any response
  // (xBefore), or with its pinned nodes (followPinned); a zone that can do neither (movesInZone) is
  // held, with what it would stretch. A held zone's nodes count as moved whether or not the hold moved
  // them: a pinned node goes on along its path into the held nodes, and its pair must be tested again
  // (left untested, the twist's turning edge went through a held zone while the pass reported it settled).
  void moveZones() {
    const int heldBefore = report.heldNodes;
    for (const std::vector<NodeIndex>& zone : scratch.zones.zones()) {
      if (!std::all_of(zone.begin(), zone.end(), [&](NodeIndex i) { return movesInZone(i); })) {
        if (followPinned(zone)) continue;
        for (NodeIndex i : zone) {
          hold({i, i, i, i});
          scratch.movedNow[i] = 1;
        }
        continue;
      }
      for (NodeIndex i : zone) scratch.xZone[i] = cloth.x[i];
      moveRigidly(zone, xStart, scratch.xBefore, cloth.mass, cloth.x);
      for (NodeIndex i : zone) {
        scratch.list.drift[i] += glm::length(cloth.x[i] - scratch.xZone[i]);
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
  // Pair k of the list keeps its distance at the step's start for the tests after the first.
  std::optional<std::pair<Impact, Real>> collides(std::size_t k) const {
    const PairOf& pair = scratch.list.pairs[k];
    Real& startDistance = scratch.list.startDistance[k];
    const MovingQuad q = quad(pair.nodes);
    const std::optional<Impact> hit = pair.kind == PairKind::VertexTriangle
                                          ? vertexTriangleImpact(q, s.tolerance, startDistance)
                                          : edgeEdgeImpact(q, s.tolerance, startDistance);
    if (!hit) return std::nullopt;
    const Real gap = gapAtEnd(q, *hit);
    if (gap >= 0.5 * s.separation) return std::nullopt;
    return std::pair{*hit, gap};
  }

  // One pair: pushed apart (or, in the fail-safe, the cloth held) if it still collides; returns 1 if it did.
  int visit(std::size_t k, Mode mode) {
    const PairOf& pair = scratch.list.pairs[k];
    const auto hit = collides(k);
    if (!hit) return 0;
    if (mode == Mode::Zone) {
      scratch.zones.merge(pair.nodes);
      return 1;
    }
    if (mode == Mode::Hold) {
      holdAll();
      for (NodeIndex i : pair.nodes) scratch.movedNow[i] = 1;  // a pinned node may still cross: test again
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

  static bool moved(const std::vector<std::uint8_t>& flags, const std::array<NodeIndex, 4>& n) {
    return flags[n[0]] | flags[n[1]] | flags[n[2]] | flags[n[3]];
  }

  // Tests the pairs; after the first pass, only those with a node moved in the pass before (the
  // others have the same paths as when they were last found clear). The test runs first on every
  // thread against the positions at the pass's start; then the pairs are visited in order, and a
  // pair none of whose nodes an earlier visit moved keeps that answer: the result of one serial pass.
  // In the first pass of a round after one that settled, a pair none of whose nodes moved since is
  // clear as it was then: Clear without a test, the flag its test would give.
  int testPairs(Mode mode, bool all, bool clearUnmoved, Workers* workers) {
    enum : std::uint8_t { Skipped, Clear, Colliding, KeptClear };
    const SelfPairList& list = scratch.list;
    scratch.flagged.assign(list.pairs.size(), Skipped);
    parallelChunks(
        workers, list.pairs.size(), kPairBlock, [&](std::size_t first, std::size_t last, std::size_t) {
          for (std::size_t k = first; k < last; ++k) {
            const PairOf& pair = list.pairs[k];
            if (!all && !list.fresh[k] && !moved(scratch.movedBefore, pair.nodes)) continue;
            const bool stillClear = clearUnmoved && !list.fresh[k] && !moved(list.movedSinceLeft, pair.nodes);
            scratch.flagged[k] = stillClear ? KeptClear : collides(k) ? Colliding : Clear;
          }
        });
    if (clearUnmoved) {
      report.keptClear +=
          static_cast<int>(std::count(scratch.flagged.begin(), scratch.flagged.end(), KeptClear));
      std::replace(scratch.flagged.begin(), scratch.flagged.end(), std::uint8_t{KeptClear},
                   std::uint8_t{Clear});
    }
    int found = 0;
    for (std::size_t k = 0; k < scratch.list.pairs.size(); ++k) {
      const std::uint8_t flag = scratch.flagged[k];
      if (flag == Colliding || (flag == Clear && moved(scratch.movedNow, scratch.list.pairs[k].nodes)))
        found += visit(k, mode);
    }
    std::fill(scratch.list.fresh.begin(), scratch.list.fresh.end(), 0);  // tested now
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
  // A later round starts from the pairs the last one (or findSelfPairs) left, each node drifted by its
  // move since.
  SelfPairList& list = scratch.list;
  const bool continues = settings.continues && list.listed && n > 0 && list.xLeft.size() == n &&
                         list.drift.size() == n && list.pairs.size() == list.fresh.size();
  if (continues) addDrift(cloth, list);
  // Every pair was clear where the last round left the cloth, and the nodes that moved since are known.
  const bool clearUnmoved =
      settings.keepsClear && continues && list.clearAtLeft && list.movedSinceLeft.size() == n;
  if (list.startDistance.size() != list.pairs.size()) list.startDistance.assign(list.pairs.size(), -1);
  Pass p{cloth, xStart, contactNormal, settings, scratch, report};
  // Nodes moved far enough since the last search to meet pairs it did not list.
  bool refind = continues && needsRefind(list, settings.reach);
  scratch.zones.reset(n);
  scratch.xZone.resize(n);
  scratch.pinnedWeight.assign(n, 0);
  for (int pass = 0; pass < settings.passes + settings.zonePasses + kMaxHoldRounds; ++pass) {
    const bool found = pass == 0 && !continues
                           ? findSelfPairs(cloth, xStart, edges, settings.reach, tree, list, workers)
                       : refind ? refindMovedPairs(cloth, xStart, edges, settings.reach, tree, list, workers)
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
    const int colliding = p.testPairs(mode, pass == 0, pass == 0 && clearUnmoved, workers);
    report.settled = colliding == 0;
    if (report.settled) break;
    if (mode == Mode::Zone) p.moveZones();
    std::swap(scratch.movedNow, scratch.movedBefore);
    std::fill(scratch.movedNow.begin(), scratch.movedNow.end(), 0);
    refind = needsRefind(list, settings.reach);
  }
  if (report.heldNodes == 0) report.zoneNodes = static_cast<int>(scratch.zones.nodeCount());
  updateVelocities(cloth, scratch, settings.h);
  list.xLeft = cloth.x;
  list.listed = !report.overflowed;
  list.clearAtLeft = list.listed && report.settled;  // the last pass found every pair clear
  return report;
}

}  // namespace cloth::sim
