#pragma once
// The cloth's collisions with itself over a whole step, made sure (Bridson, Fedkiw and Anderson 2002,
// §7): every vertex-triangle and edge-edge pair is tested continuously along its straight path from
// the step's start to its end (ccd.h); a pair found to pass through each other is pushed back to the
// side it came from, and passes repeat until none is found. What the passes leave, a fail-safe
// settles: the cloth goes back to where the step began and stops (Bridson's rigid impact zones, with
// one zone, the whole cloth, held still); the start was free of intersections, so the end is.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/collision/aabb_tree.h"
#include "cloth/sim/parallel.h"

namespace cloth::sim {

struct SelfImpactSettings {
  Real tolerance = 1e-5;   ///< m: how close two moving primitives must come to count as touching
  Real separation = 5e-4;  ///< m: the gap a response leaves between them, along the impact normal
  Real reach = 0.005;      ///< m: pairs this close are listed once, kept while nodes move < reach / 2
  int passes = 8;          ///< response passes before the fail-safe
  Real h = 0;              ///< s: the step, for the velocity that follows a node's move
};

struct SelfImpactReport {
  int impacts = 0;      ///< responses applied
  int passes = 0;       ///< detection passes run (responses, then the fail-safe's)
  int heldNodes = 0;    ///< nodes the fail-safe sent back to their start (every movable node, or none)
  bool settled = true;  ///< false if pairs still collide (only pinned nodes could move)
  /// The step moved the cloth too far to test pair by pair (hundreds of pairs per node): every node
  /// was held.
  bool overflowed = false;
};

enum class PairKind : std::uint8_t { VertexTriangle, EdgeEdge };

/// A vertex-triangle pair (p, a, b, c) or an edge-edge pair (a, b) against (c, d).
struct PairOf {
  std::array<NodeIndex, 4> nodes;
  PairKind kind;
};

struct SelfImpactScratch {
  std::vector<PairOf> pairs;
  std::vector<std::vector<PairOf>> blocks;  ///< pairs found by each block of nodes or edges
  std::vector<std::uint8_t> flagged;        ///< pairs found colliding at a pass's start
  std::vector<std::uint8_t> overflowed;     ///< blocks that found too many pairs
  std::vector<std::uint8_t> movedNow, movedBefore;
  std::vector<Real> drift;  ///< how far each node moved since the pairs were found (m)
  std::vector<Vec3> xBefore;
  std::vector<std::uint8_t> held;
};

/// Makes the step from xStart to cloth.x free of the cloth passing through itself: moves cloth.x (and
/// changes cloth.v by each move / h; a held node stops). Pinned nodes never move; a node resting on a
/// collider (`contactNormal`, one per node or empty, not zero) is not pushed into it. `tree` is refit
/// here. The same result on any number of `workers` (null: the caller's thread alone).
SelfImpactReport resolveSelfImpacts(Cloth& cloth, std::span<const Vec3> xStart, const ClothEdges& edges,
                                    std::span<const Vec3> contactNormal, const SelfImpactSettings& settings,
                                    AabbTree& tree, SelfImpactScratch& scratch, Workers* workers = nullptr);

}  // namespace cloth::sim
