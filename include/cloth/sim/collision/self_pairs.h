#pragma once
// The cloth's one broad phase against itself, once a step (Bridson, Fedkiw and Anderson 2002 §6.1,
// §7): every vertex-triangle and edge-edge pair whose swept boxes, from the step's start to where
// the cloth is, come within the reach of each other. The proximity pass (self_collision.h) takes the
// pairs close at the end from it, the continuous pass (self_impacts.h) tests it along the paths; as
// the passes move nodes, each node's drift adds up, and only what drifted past half the reach is
// searched again: no pair that can meet is left out while every node drifts less.

#include <cstdint>
#include <span>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/collision/aabb.h"
#include "cloth/sim/collision/aabb_tree.h"
#include "cloth/sim/collision/pairs.h"
#include "cloth/sim/parallel.h"

namespace cloth::sim {

struct SelfPairList {
  std::vector<PairOf> pairs;
  std::vector<std::uint8_t> fresh;  ///< per pair: found since the pairs were last tested
  /// per pair: its distance at the step's start once a continuous test asked for it, -1 before
  /// (vertexTriangleImpact and edgeEdgeImpact keep it: the rounds of a step test a pair many times)
  std::vector<Real> startDistance;
  std::vector<Real> drift;  ///< how far each node moved since the pairs were found (m)
  std::vector<Vec3> xLeft;  ///< where the nodes were when `drift` was last brought up to date
  /// Every pair was found clear at xLeft (a continuous pass that settled left it so), and per node
  /// whether it moved since (addDrift): a pair of unmoved nodes is clear still.
  bool clearAtLeft = false;
  std::vector<std::uint8_t> movedSinceLeft;
  bool listed = false;  ///< the pairs hold every pair near the step (no overflow)
  // The search's own buffers.
  std::vector<std::vector<PairOf>> blocks;  ///< pairs found by each block of nodes, triangles or edges
  std::vector<std::uint8_t> overflowed;     ///< blocks that found too many pairs
  /// Swept, grown by half the reach: each search computes them once for its tests.
  std::vector<Aabb> nodeBoxes, triangleBoxes, edgeBoxes;
  /// Per thread of the search (parallelChunks' slots): a mark per item, `now` on those already seen by
  /// the query being made (a triangle among the candidates of the node searched, a node or an edge
  /// already looked at near a moved triangle or edge). A cache line each: every query bumps `now`, and
  /// two threads' marks side by side would share one.
  struct alignas(64) Marks {
    std::vector<std::uint32_t> stamp;
    std::uint32_t now = 0;
    /// A new query over `items` items, none marked yet.
    void next(std::size_t items);
    /// Marks item i; whether it was unmarked in this query.
    bool first(std::size_t i) {
      if (stamp[i] == now) return false;
      stamp[i] = now;
      return true;
    }
  };
  std::vector<Marks> marks;      ///< triangles, by the full search
  std::vector<Marks> nodeMarks;  ///< nodes, by the search again near what moved
  std::vector<Marks> edgeMarks;  ///< edges, likewise
};

/// Lists every pair whose swept boxes (from xStart to cloth.x, each grown by half the `reach`, m)
/// overlap, but those within a flat patch (AabbTree::refitCones), in `list` (`tree` refit here): each
/// vertex-triangle pair from its node, each edge-edge pair from the edge with the lower index, blocks of
/// nodes joined in order, every block's vertex-triangle pairs then every block's edge-edge pairs: the
/// same list on any number of `workers`. Every drift is zero and xLeft = cloth.x after it. Returns false
/// (and `listed` is false) if the step moved the cloth as far as many of its own widths: hundreds of
/// pairs a node, not worth testing pair by pair.
bool findSelfPairs(const Cloth& cloth, std::span<const Vec3> xStart, const ClothEdges& edges, Real reach,
                   AabbTree& tree, SelfPairList& list, Workers* workers = nullptr);

/// After nodes drifted past half the reach: the pairs with such a node are dropped and found anew from
/// those nodes, the triangles and the edges they are corners of (or, past a third of the nodes, the
/// whole cloth is searched again); the others are kept, and so are the drifts of the nodes that drifted
/// less (a pair left out was more than the reach apart: less than half of it each cannot close that).
/// The new pairs are appended, `fresh`. Returns false if too many.
bool refindMovedPairs(const Cloth& cloth, std::span<const Vec3> xStart, const ClothEdges& edges, Real reach,
                      AabbTree& tree, SelfPairList& list, Workers* workers = nullptr);

/// Adds to each node's drift its move from xLeft to cloth.x, and notes which nodes moved at all;
/// xLeft = cloth.x after it.
void addDrift(const Cloth& cloth, SelfPairList& list);

/// Whether some node drifted past half the reach since the pairs were found: pairs may be missing.
bool needsRefind(const SelfPairList& list, Real reach);

}  // namespace cloth::sim
