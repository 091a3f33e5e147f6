#pragma once
// The cloth's collisions with itself over a whole step, made sure (Bridson, Fedkiw and Anderson 2002,
// §7): every vertex-triangle and edge-edge pair is tested continuously along its straight path from
// the step's start to its end (ccd.h); a pair found to pass through each other is pushed back to the
// side it came from, and passes repeat until none is found. What the passes leave, rigid impact
// zones settle (impact_zones.h, Bridson §7.2): the nodes of each pair still colliding move as one
// rigid body, zones merging as they meet. The last fail-safe sends the cloth back to where the step
// began and stops it; the start was free of intersections, so the end is.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/collision/aabb_tree.h"
#include "cloth/sim/collision/impact_zones.h"
#include "cloth/sim/collision/pairs.h"
#include "cloth/sim/collision/self_pairs.h"
#include "cloth/sim/parallel.h"

namespace cloth::sim {

struct SelfImpactSettings {
  Real tolerance = 1e-5;   ///< m: how close two moving primitives must come to count as touching
  Real separation = 5e-4;  ///< m: the gap a response leaves between them, along the impact normal
  Real reach = 0.005;      ///< m: pairs this close are listed once, kept while nodes move < reach / 2
  int passes = 8;          ///< response passes before the impact zones (0: straight to the zones)
  int zonePasses = 32;     ///< passes that merge and move rigid impact zones, before the cloth is held
  /// A zone with a node resting on a collider is held rather than moved, so that it cannot be moved
  /// into the collider (for the last of several rounds, whose result stays).
  bool holdAtContacts = false;
  /// Strain limit (Provot's tau): a held zone's neighbours whose structural or shear spring to it ends
  /// longer than (1 + tau) L, and longer than at the step's start, are held too. Negative: none are.
  Real tau = -1;
  Real h = 0;  ///< s: the step, for the velocity that follows a node's move
  /// An earlier call in this step (the same xStart, the same scratch), or findSelfPairs into
  /// `scratch.list` with this reach, left its pairs: start from them, a node counted as drifted by how
  /// far it moved since, searching again only where that is past half the reach (the stretch limit
  /// and the proximity pushes between rounds move few nodes, and those little).
  bool continues = false;
  /// After a call that settled (every pair clear where it left the cloth), the first pass takes a
  /// pair none of whose nodes moved since as clear without testing it: the same flag its test gives
  /// (false: every pair tested, the reference for tests).
  bool keepsClear = true;
};

struct SelfImpactReport {
  int impacts = 0;      ///< responses applied
  int passes = 0;       ///< detection passes run (responses, then the fail-safe's)
  int zoneNodes = 0;    ///< nodes moved as part of a rigid impact zone
  int heldNodes = 0;    ///< nodes sent back to their start (a zone with a pinned node, or every node)
  bool settled = true;  ///< false if pairs still collide (only pinned nodes could move)
  int keptClear = 0;    ///< pairs taken as clear from the call before, untested (keepsClear)
  /// The step moved the cloth too far to test pair by pair (hundreds of pairs per node): every node
  /// was held.
  bool overflowed = false;
};

struct SelfImpactScratch {
  SelfPairList list;                  ///< the pairs near the step (self_pairs.h)
  std::vector<std::uint8_t> flagged;  ///< pairs found colliding at a pass's start
  std::vector<std::uint8_t> movedNow, movedBefore;
  std::vector<Vec3> xBefore;
  std::vector<Vec3> xZone;  ///< positions before a zone pass moved them
  std::vector<std::uint8_t> held;
  std::vector<Real> pinnedWeight;  ///< 1 at a zone's pinned nodes while followPinned fits their motion
  ImpactZones zones;
};

/// Makes the step from xStart to cloth.x free of the cloth passing through itself: moves cloth.x (and
/// changes cloth.v by each move / h; a held node stops). Pinned nodes never move; a node resting on a
/// collider (`contactNormal`, one per node or empty, not zero) is not pushed into it. `tree` is refit
/// here. The same result on any number of `workers` (null: the caller's thread alone).
SelfImpactReport resolveSelfImpacts(Cloth& cloth, std::span<const Vec3> xStart, const ClothEdges& edges,
                                    std::span<const Vec3> contactNormal, const SelfImpactSettings& settings,
                                    AabbTree& tree, SelfImpactScratch& scratch, Workers* workers = nullptr);

}  // namespace cloth::sim
