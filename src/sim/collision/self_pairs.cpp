#include "cloth/sim/collision/self_pairs.h"

#include <algorithm>
#include <initializer_list>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/normal_cone.h"

namespace cloth::sim {
namespace {

// Nodes, edges or triangles per block of the parallel search. Each is a tree query, dearer than a
// solver row (kMeshQueryGrain): with 1,024 the 30^2 drape's search ran on one thread, and 256 took its
// drag into the table from 6.55 to 5.75 ms a step (2 threads), the same pairs in the same order.
constexpr std::size_t kPairBlock = 256;
// Pairs per node or edge beyond which a step is not worth testing pair by pair: the cloth moved as
// far as many of its own widths in one step (a blow-up, or a throw at a huge step) and is held.
constexpr std::size_t kPairsPerItem = 256;

std::size_t blockCount(std::size_t items) {
  return (items + kPairBlock - 1) / kPairBlock;
}

// Reusable by the nodes of a chunk of the parallel search; the marks are the running thread's own.
struct NodeSearch {
  std::vector<int> candidates;
  SelfPairList::Marks& marks;
};

// The buffers of a chunk of the search again near what moved; the marks are the running thread's own.
struct RefindBuffers {
  std::vector<int> candidates, near;
  SelfPairList::Marks& nodes;
  SelfPairList::Marks& edges;
};

struct Search {
  const Cloth& cloth;
  std::span<const Vec3> xStart;
  const ClothEdges& edges;
  Real margin;  // half the reach
  SelfPairList& list;

  Aabb sweptBox(std::initializer_list<NodeIndex> nodes) const {
    Aabb b;
    for (NodeIndex i : nodes) {
      b.grow(xStart[i]);
      b.grow(cloth.x[i]);
    }
    return b.inflated(margin);
  }

  void refit(AabbTree& tree, Workers* workers) const {
    tree.refitSwept(xStart, cloth.x, cloth.triangles, margin, workers);
    tree.refitCones(xStart, cloth.x, cloth.triangles, kFlatPatchHalfAngle, workers);
  }

  // Every node's, triangle's and edge's swept box, for the searches' tests: built once here rather than
  // per candidate (nodePairs' own samples on the pull off the table went from 1.5x to 1.3x those of the
  // tree queries).
  void noteSweptBoxes(Workers* workers) {
    list.nodeBoxes.resize(cloth.nodeCount());
    parallelFor(workers, cloth.nodeCount(), kPairBlock, [&](std::size_t first, std::size_t last) {
      for (std::size_t i = first; i < last; ++i) list.nodeBoxes[i] = sweptBox({static_cast<NodeIndex>(i)});
    });
    list.triangleBoxes.resize(cloth.triangles.size());
    list.edgeBoxes.resize(edges.nodes.size());
    parallelFor(workers, cloth.triangles.size(), kPairBlock, [&](std::size_t first, std::size_t last) {
      for (std::size_t t = first; t < last; ++t) {
        const auto& v = cloth.triangles[t].v;
        list.triangleBoxes[t] = sweptBox({v[0], v[1], v[2]});
      }
    });
    parallelFor(workers, edges.nodes.size(), kPairBlock, [&](std::size_t first, std::size_t last) {
      for (std::size_t i = first; i < last; ++i)
        list.edgeBoxes[i] = sweptBox({edges.nodes[i][0], edges.nodes[i][1]});
    });
  }

  // One tree query a node covers the node and the edges it is the lower node of (nodePairs). Blocks
  // of nodes list their pairs apart and are joined in order.
  bool findAll(AabbTree& tree, Workers* workers) {
    refit(tree, workers);
    noteSweptBoxes(workers);
    const std::size_t blocks = blockCount(cloth.nodeCount());
    list.blocks.resize(2 * blocks);
    list.overflowed.assign(blocks, 0);
    // Blocks go to whichever thread is free: where the cloth folds, a block's queries cost many times
    // those of a block lying open (the drape pulled off its table: 9.8 -> 9.2 ms a step).
    list.marks.resize(chunkSlots(workers));
    parallelChunks(workers, blocks, 1, [&](std::size_t first, std::size_t last, std::size_t slot) {
      NodeSearch search{{}, list.marks[slot]};  // one per chunk, reused by its nodes
      for (std::size_t b = first; b < last; ++b) {
        std::vector<PairOf>&vertexOut = list.blocks[b], &edgeOut = list.blocks[blocks + b];
        vertexOut.clear();
        edgeOut.clear();
        const std::size_t begin = b * kPairBlock, end = std::min(cloth.nodeCount(), begin + kPairBlock);
        std::size_t items = 0;  // nodes and their edges
        for (std::size_t i = begin; i < end; ++i) {
          const auto p = static_cast<NodeIndex>(i);
          items += 1 + edges.edgesFrom(p).size();
          if (vertexOut.size() + edgeOut.size() > kPairsPerItem * items) break;
          nodePairs(tree, p, search, vertexOut, edgeOut);
        }
        list.overflowed[b] = vertexOut.size() + edgeOut.size() > kPairsPerItem * items;
      }
    });
    list.pairs.clear();
    for (const std::vector<PairOf>& block : list.blocks)
      list.pairs.insert(list.pairs.end(), block.begin(), block.end());
    list.fresh.assign(list.pairs.size(), 0);
    list.startDistance.assign(list.pairs.size(), -1);
    return std::find(list.overflowed.begin(), list.overflowed.end(), 1) == list.overflowed.end();
  }

  // Node p against every triangle near its path that it is not a corner of, but those of a flat patch
  // round it (AabbTree::refitCones); each edge from p (its lower node) against the edges after it of
  // the triangles near it whose swept boxes meet its own, an edge of two such triangles from the lower.
  void nodePairs(const AabbTree& tree, NodeIndex p, NodeSearch& search, std::vector<PairOf>& vertexOut,
                 std::vector<PairOf>& edgeOut) const {
    const std::span<const int> own = edges.edgesFrom(p);
    const Aabb& around = list.nodeBoxes[p];
    Aabb ownEdges;  // the node's edges' boxes together
    for (int i : own) {
      ownEdges.grow(list.edgeBoxes[i].lo);
      ownEdges.grow(list.edgeBoxes[i].hi);
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
      if (v[0] != p && v[1] != p && v[2] != p && around.overlaps(list.triangleBoxes[t]))
        vertexOut.push_back({{p, v[0], v[1], v[2]}, PairKind::VertexTriangle});
    }
    if (own.empty()) return;
    SelfPairList::Marks& m = search.marks;
    m.next(cloth.triangles.size());
    for (int t : search.candidates) m.stamp[t] = m.now;
    for (int t : search.candidates) {
      if (!ownEdges.overlaps(list.triangleBoxes[t])) continue;  // no edge of it meets the node's
      for (int j : edges.ofTriangle[t]) {
        const std::array<int, 2>& sides = edges.triangles[j];
        const int other = sides[0] == t ? sides[1] : sides[0];
        if (other >= 0 && other < t && m.stamp[other] == m.now) continue;
        const Aabb& box = list.edgeBoxes[j];
        if (!ownEdges.overlaps(box)) continue;  // meets none of the node's edges
        edgePairs(own, j, box, edgeOut);
      }
    }
  }

  // Edge j (its swept box `box`) against each of the node's own edges before it that shares no node
  // with it and whose box meets j's.
  void edgePairs(std::span<const int> own, int j, const Aabb& box, std::vector<PairOf>& edgeOut) const {
    const std::array<NodeIndex, 2>& f = edges.nodes[j];
    for (int i : own) {
      if (j <= i) break;  // own edges come in increasing order
      const std::array<NodeIndex, 2>& e = edges.nodes[i];
      if (e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1]) continue;
      if (list.edgeBoxes[i].overlaps(box)) edgeOut.push_back({{e[0], e[1], f[0], f[1]}, PairKind::EdgeEdge});
    }
  }

  // Node p against every triangle near its path that it is not a corner of, but those of a flat patch
  // round it.
  void vertexPairs(const AabbTree& tree, NodeIndex p, RefindBuffers& b, std::vector<PairOf>& out) const {
    std::vector<int>& candidates = b.candidates;
    candidates.clear();
    tree.overlappingSwept(list.nodeBoxes[p], candidates, edges.trianglesAt(p));
    for (int t : candidates) {
      const auto& v = cloth.triangles[t].v;
      if (v[0] != p && v[1] != p && v[2] != p)
        out.push_back({{p, v[0], v[1], v[2]}, PairKind::VertexTriangle});
    }
  }

  // Drifted past half the reach since the pairs were found: its pairs may have changed. A node that
  // drifted less keeps them (a pair not listed was more than the reach apart, each side's boxes grown
  // by half of it; less than half each cannot close that), and keeps its drift.
  bool moved(NodeIndex i) const { return list.drift[i] > margin; }
  bool movedEdge(std::size_t i) const { return moved(edges.nodes[i][0]) || moved(edges.nodes[i][1]); }

  // Triangle v, if a corner of it moved, against every node that did not move near its path (a moved
  // node lists its own). Not culled by flat patches: a node of a patch's edge may have its other
  // triangles outside it.
  void movedTrianglePairs(const AabbTree& tree, std::size_t t, RefindBuffers& b,
                          std::vector<PairOf>& out) const {
    const std::array<NodeIndex, 3>& v = cloth.triangles[t].v;
    if (!moved(v[0]) && !moved(v[1]) && !moved(v[2])) return;
    const Aabb& box = list.triangleBoxes[t];
    b.candidates.clear();
    tree.overlappingSwept(box, b.candidates);
    b.near.clear();
    b.nodes.next(cloth.nodeCount());
    for (int u : b.candidates)
      for (NodeIndex q : cloth.triangles[u].v)  // a node of several candidates looked at once
        if (b.nodes.first(static_cast<std::size_t>(q)) && q != v[0] && q != v[1] && q != v[2] && !moved(q) &&
            box.overlaps(list.nodeBoxes[q]))
          b.near.push_back(q);
    std::sort(b.near.begin(), b.near.end());
    for (NodeIndex q : b.near) out.push_back({{q, v[0], v[1], v[2]}, PairKind::VertexTriangle});
  }

  // Moved edge i against every edge near it that shares no node, each pair with its lower edge first;
  // a pair of two moved edges from the lower one only.
  void movedEdgePairs(const AabbTree& tree, std::size_t i, RefindBuffers& b, std::vector<PairOf>& out) const {
    const std::array<NodeIndex, 2>& e = edges.nodes[i];
    const Aabb& box = list.edgeBoxes[i];
    b.candidates.clear();
    tree.overlappingSwept(box, b.candidates, edges.triangles[i]);
    b.near.clear();
    b.edges.next(edges.nodes.size());
    for (int t : b.candidates)
      for (int j : edges.ofTriangle[t]) {
        if (!b.edges.first(static_cast<std::size_t>(j))) continue;  // the edge of two candidates: once
        const std::array<NodeIndex, 2>& f = edges.nodes[j];
        if (j == static_cast<int>(i) || e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1])
          continue;
        if (j < static_cast<int>(i) && movedEdge(static_cast<std::size_t>(j))) continue;
        if (box.overlaps(list.edgeBoxes[j])) b.near.push_back(j);
      }
    std::sort(b.near.begin(), b.near.end());
    for (int j : b.near) {
      const std::array<NodeIndex, 2>& f = edges.nodes[j];
      out.push_back(j > static_cast<int>(i) ? PairOf{{e[0], e[1], f[0], f[1]}, PairKind::EdgeEdge}
                                            : PairOf{{f[0], f[1], e[0], e[1]}, PairKind::EdgeEdge});
    }
  }

  // Each pair is listed once, as in the first search: a moved node's from its own side, an unmoved
  // node's from the moved triangle's, an edge pair from its lower moved edge. Blocks of nodes, triangles
  // and edges list their pairs apart and are joined in order: the same list on any thread count
  // (serial, with a sort to drop the repeats, it was half of a crumpling cloth's step). A zone's move
  // shifts a few hundred nodes by centimetres: searching the whole cloth again for each was most of a
  // fast pull's cost.
  bool refindMoved(AabbTree& tree, Workers* workers) {
    refit(tree, workers);
    noteSweptBoxes(workers);
    const std::size_t nodeBlocks = blockCount(cloth.nodeCount()),
                      triangleBlocks = blockCount(cloth.triangles.size()),
                      edgeBlocks = blockCount(edges.nodes.size());
    list.blocks.resize(nodeBlocks + triangleBlocks + edgeBlocks);
    list.nodeMarks.resize(chunkSlots(workers));
    list.edgeMarks.resize(chunkSlots(workers));
    // Blocks go to whichever thread is free: the moved nodes crowd into a few of them.
    parallelChunks(
        workers, list.blocks.size(), 1, [&](std::size_t first, std::size_t last, std::size_t slot) {
          RefindBuffers buffers{{}, {}, list.nodeMarks[slot], list.edgeMarks[slot]};  // one set per chunk
          for (std::size_t b = first; b < last; ++b) {
            std::vector<PairOf>& out = list.blocks[b];
            out.clear();
            if (b < nodeBlocks) {
              for (std::size_t i = b * kPairBlock; i < std::min(cloth.nodeCount(), (b + 1) * kPairBlock); ++i)
                if (moved(static_cast<NodeIndex>(i)))
                  vertexPairs(tree, static_cast<NodeIndex>(i), buffers, out);
            } else if (b < nodeBlocks + triangleBlocks) {
              const std::size_t begin = (b - nodeBlocks) * kPairBlock;
              for (std::size_t t = begin; t < std::min(cloth.triangles.size(), begin + kPairBlock); ++t)
                movedTrianglePairs(tree, t, buffers, out);
            } else {
              const std::size_t begin = (b - nodeBlocks - triangleBlocks) * kPairBlock;
              for (std::size_t i = begin; i < std::min(edges.nodes.size(), begin + kPairBlock); ++i)
                if (movedEdge(i)) movedEdgePairs(tree, i, buffers, out);
            }
          }
        });
    std::size_t count = 0;
    for (const std::vector<PairOf>& block : list.blocks) count += block.size();
    if (count > kPairsPerItem * (cloth.nodeCount() + edges.nodes.size())) return false;
    // The pairs with a moved node go, the others keep their distance at the step's start.
    std::size_t kept = 0;
    for (std::size_t k = 0; k < list.pairs.size(); ++k) {
      const auto& n = list.pairs[k].nodes;
      if (moved(n[0]) || moved(n[1]) || moved(n[2]) || moved(n[3])) continue;
      list.pairs[kept] = list.pairs[k];
      list.startDistance[kept++] = list.startDistance[k];
    }
    list.pairs.resize(kept);
    list.startDistance.resize(kept);
    list.startDistance.resize(kept + count, -1);
    list.fresh.assign(list.pairs.size(), 0);
    list.fresh.resize(list.pairs.size() + count, 1);
    for (const std::vector<PairOf>& block : list.blocks)
      list.pairs.insert(list.pairs.end(), block.begin(), block.end());
    return true;
  }
};

}  // namespace

void SelfPairList::Marks::next(std::size_t items) {
  if (stamp.size() != items) {
    stamp.assign(items, 0);
    now = 0;
  }
  if (++now == 0) {  // wrapped around: forget every old mark
    std::fill(stamp.begin(), stamp.end(), 0u);
    now = 1;
  }
}

bool findSelfPairs(const Cloth& cloth, std::span<const Vec3> xStart, const ClothEdges& edges, Real reach,
                   AabbTree& tree, SelfPairList& list, Workers* workers) {
  Search search{cloth, xStart, edges, 0.5 * reach, list};
  list.listed = search.findAll(tree, workers);
  list.clearAtLeft = false;  // not tested yet
  list.drift.assign(cloth.nodeCount(), 0.0);
  list.xLeft.assign(cloth.x.begin(), cloth.x.end());
  return list.listed;
}

bool refindMovedPairs(const Cloth& cloth, std::span<const Vec3> xStart, const ClothEdges& edges, Real reach,
                      AabbTree& tree, SelfPairList& list, Workers* workers) {
  Search search{cloth, xStart, edges, 0.5 * reach, list};
  // The refind queries the tree for each moved node, each triangle and each edge with a moved corner:
  // three queries a node against the full search's one. Past a third of the nodes moved, the full search
  // costs less.
  const auto moved =
      std::count_if(list.drift.begin(), list.drift.end(), [&](Real d) { return d > search.margin; });
  if (3 * static_cast<std::size_t>(moved) > cloth.nodeCount()) {
    list.listed = search.findAll(tree, workers);
    list.clearAtLeft = false;  // a pair a flat patch hid before may be listed now, untested
    // Untested yet: the pairs with a node that moved at all since the pairs were found.
    for (std::size_t k = 0; k < list.pairs.size(); ++k)
      list.fresh[k] = std::any_of(list.pairs[k].nodes.begin(), list.pairs[k].nodes.end(),
                                  [&](NodeIndex i) { return list.drift[i] > 0; });
    std::fill(list.drift.begin(), list.drift.end(), 0.0);
  } else {
    list.listed = search.refindMoved(tree, workers);
    for (Real& d : list.drift)
      if (d > search.margin) d = 0;
  }
  return list.listed;
}

void addDrift(const Cloth& cloth, SelfPairList& list) {
  list.movedSinceLeft.resize(cloth.nodeCount());
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i) {
    list.drift[i] += glm::length(cloth.x[i] - list.xLeft[i]);
    list.movedSinceLeft[i] = cloth.x[i] != list.xLeft[i];
  }
  list.xLeft.assign(cloth.x.begin(), cloth.x.end());
}

bool needsRefind(const SelfPairList& list, Real reach) {
  return !list.drift.empty() && *std::max_element(list.drift.begin(), list.drift.end()) > 0.5 * reach;
}

}  // namespace cloth::sim
