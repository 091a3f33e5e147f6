#include <catch2/catch.hpp>

#include <algorithm>
#include <initializer_list>
#include <random>
#include <set>
#include <string>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/ccd.h"
#include "cloth/sim/collision/self_pairs.h"
#include "cloth/sim/drag_script.h"
#include "cloth/sim/scenes/scenes.h"
#include "test_helpers.h"

using namespace cloth::sim;

namespace {

// A pair's nodes and its kind (a vertex-triangle pair and an edge-edge pair can have the same nodes).
using Key = std::pair<std::array<NodeIndex, 4>, PairKind>;

// A pair as a set member: a vertex-triangle pair with its triangle's nodes sorted, an edge-edge pair
// with each edge's nodes sorted and the lower edge first.
Key keyOf(const PairOf& pair) {
  std::array<NodeIndex, 4> k = pair.nodes;
  if (pair.kind == PairKind::VertexTriangle) {
    std::sort(k.begin() + 1, k.end());
    return {k, pair.kind};
  }
  std::sort(k.begin(), k.begin() + 2);
  std::sort(k.begin() + 2, k.end());
  if (std::pair(k[2], k[3]) < std::pair(k[0], k[1]))
    std::swap_ranges(k.begin(), k.begin() + 2, k.begin() + 2);
  return {k, pair.kind};
}

// Counts of pairs found by brute force.
struct Found {
  int near = 0, meet = 0;
};

MovingQuad quadOf(std::span<const Vec3> x0, std::span<const Vec3> x1, const std::array<NodeIndex, 4>& n) {
  MovingQuad q;
  for (int k = 0; k < 4; ++k) q.x0[k] = x0[n[k]], q.x1[k] = x1[n[k]];
  return q;
}

// The largest drift of `nodes` since the pairs were found (none after a fresh search).
Real mostDrift(const SelfPairList& list, std::initializer_list<NodeIndex> nodes) {
  Real most = 0;
  for (NodeIndex i : nodes)
    if (!list.drift.empty()) most = std::max(most, list.drift[i]);
  return most;
}

// Every vertex-triangle and edge-edge pair of `c` closer at c.x, or whose paths from x0 come closer,
// than what the list promises for it must be in `list`, checked by brute force over every node x
// triangle and edge x edge. A fresh search promises the reach; a pair kept since then, whose sides
// drifted by up to dA and dB, only reach - dA - dB (it was at least the reach apart when the pairs were
// found; self_pairs.h): with every drift under half the reach, that is more than nothing.
Found checkEveryPairListed(const Cloth& c, std::span<const Vec3> x0, const ClothEdges& edges, Real reach,
                           const SelfPairList& list) {
  std::set<Key> listed;
  for (const PairOf& pair : list.pairs) listed.insert(keyOf(pair));
  Found found;
  for (std::size_t p = 0; p < c.nodeCount(); ++p)
    for (const Triangle& t : c.triangles) {
      const auto node = static_cast<NodeIndex>(p);
      if (t.v[0] == node || t.v[1] == node || t.v[2] == node) continue;
      const Real slack = reach - mostDrift(list, {node}) - mostDrift(list, {t.v[0], t.v[1], t.v[2]});
      REQUIRE(slack > 0);
      Vec3 bary;
      const Vec3 q = closestPointOnTriangle(c.x[p], c.x[t.v[0]], c.x[t.v[1]], c.x[t.v[2]], bary);
      const bool close = glm::length(c.x[p] - q) < slack;
      const bool meets =
          vertexTriangleImpact(quadOf(x0, c.x, {node, t.v[0], t.v[1], t.v[2]}), slack).has_value();
      if (!close && !meets) continue;
      found.near += close;
      found.meet += meets;
      CHECK(listed.count(keyOf({{node, t.v[0], t.v[1], t.v[2]}, PairKind::VertexTriangle})) == 1);
    }
  for (std::size_t i = 0; i < edges.nodes.size(); ++i)
    for (std::size_t j = i + 1; j < edges.nodes.size(); ++j) {
      const auto &e = edges.nodes[i], &f = edges.nodes[j];
      if (e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1]) continue;
      const Real slack = reach - mostDrift(list, {e[0], e[1]}) - mostDrift(list, {f[0], f[1]});
      REQUIRE(slack > 0);
      // The lines' closest points, inside both edges (nearer an end, a vertex-triangle pair is).
      const auto [u, w] = closestSegmentParameters(c.x[e[0]], c.x[e[1]], c.x[f[0]], c.x[f[1]]);
      const Vec3 a = c.x[e[0]] + u * (c.x[e[1]] - c.x[e[0]]), b = c.x[f[0]] + w * (c.x[f[1]] - c.x[f[0]]);
      const bool close = u > 0 && u < 1 && w > 0 && w < 1 && glm::length(a - b) < slack;
      const bool meets = edgeEdgeImpact(quadOf(x0, c.x, {e[0], e[1], f[0], f[1]}), slack).has_value();
      if (!close && !meets) continue;
      found.near += close;
      found.meet += meets;
      CHECK(listed.count(keyOf({{e[0], e[1], f[0], f[1]}, PairKind::EdgeEdge})) == 1);
    }
  return found;
}

bool sameList(const SelfPairList& a, const SelfPairList& b) {
  return std::equal(a.pairs.begin(), a.pairs.end(), b.pairs.begin(), b.pairs.end(),
                    [](const PairOf& x, const PairOf& y) { return x.nodes == y.nodes && x.kind == y.kind; });
}

}  // namespace

TEST_CASE(
    "self_pairs: the step's one broad phase lists every pair closer than the reach where the cloth ends "
    "and every pair whose paths come that close, tested pair by pair on a crumpling cloth, the same list on "
    "1 "
    "and 2 threads") {
  // The proximity pass takes its pairs from this list (self_collision.h), and the continuous pass
  // (self_impacts.h) tests its pairs along their paths: a pair missing here is a pair left within the
  // thickness, or one passing through.
  test::Crumpling heap = test::crumplingCloth();
  const Scene& scene = heap.scene;
  Simulation& sim = heap.sim;
  DragScript& drag = heap.drag;
  const Cloth& c = sim.cloth();
  const ClothEdges edges = clothEdges(c);
  const Real reach = scene.params.collision.thickness;
  AabbTree tree;
  tree.build(c.restX, c.triangles);
  Workers one(1), two(2);
  int near = 0, meet = 0;
  for (int step = 1; sim.time() < 2.5; ++step) {
    const std::vector<Vec3> x0 = c.x;
    drag.apply(sim);
    sim.step();
    if (step % 5 != 0) continue;
    SelfPairList list, split;
    REQUIRE(findSelfPairs(c, x0, edges, reach, tree, list, &one));
    REQUIRE(findSelfPairs(c, x0, edges, reach, tree, split, &two));
    CHECK(sameList(list, split));
    std::set<Key> keys;  // each pair once
    for (const PairOf& pair : list.pairs) keys.insert(keyOf(pair));
    CHECK(keys.size() == list.pairs.size());
    const Found found = checkEveryPairListed(c, x0, edges, reach, list);
    near += found.near;
    meet += found.meet;
  }
  CHECK(near > 100);  // the cloth did pile up,
  CHECK(meet > 100);  // and its paths met
}

TEST_CASE(
    "self_pairs: after some nodes drift past half the reach, the refind lists every pair closer than the "
    "reach and every pair whose paths come that close again, the same list on 1 and 2 threads") {
  // The impact rounds and the stretch limit move nodes within a step (self_impacts.h): the pairs of the
  // nodes that drifted are found again from them, their triangles and their edges (refindMovedPairs).
  test::Crumpling heap = test::crumplingCloth();
  const Cloth& c = heap.sim.cloth();
  const ClothEdges edges = clothEdges(c);
  const Real reach = heap.scene.params.collision.thickness;
  AabbTree tree;
  tree.build(c.restX, c.triangles);
  Workers one(1), two(2);
  std::mt19937 rng(5);
  std::uniform_real_distribution<Real> unit(-1, 1);
  int near = 0, meet = 0, refound = 0;
  for (int step = 1; heap.sim.time() < 2.5; ++step) {
    const std::vector<Vec3> x0 = c.x;
    heap.drag.apply(heap.sim);
    heap.sim.step();
    if (step % 5 != 0) continue;
    SelfPairList list;
    REQUIRE(findSelfPairs(c, x0, edges, reach, tree, list, &one));
    // A tenth of the nodes, in a patch and scattered, pushed by up to two reaches.
    Cloth pushed = c;
    for (std::size_t i = 0; i < pushed.nodeCount(); ++i)
      if ((i * 7 + step) % 10 == 0 || (i > 150 && i < 190))
        pushed.x[i] += 2 * reach * Vec3(unit(rng), unit(rng), unit(rng));
    addDrift(pushed, list);
    REQUIRE(needsRefind(list, reach));
    SelfPairList split = list;
    REQUIRE(refindMovedPairs(pushed, x0, edges, reach, tree, list, &one));
    REQUIRE(refindMovedPairs(pushed, x0, edges, reach, tree, split, &two));
    CHECK(sameList(list, split));
    refound += static_cast<int>(std::count(list.fresh.begin(), list.fresh.end(), 1));
    // Each pair once.
    std::set<Key> keys;
    for (const PairOf& pair : list.pairs) keys.insert(keyOf(pair));
    CHECK(keys.size() == list.pairs.size());
    const Found found = checkEveryPairListed(pushed, x0, edges, reach, list);
    near += found.near;
    meet += found.meet;
  }
  CHECK(refound > 1000);  // the refind found pairs anew,
  CHECK(near > 100);      // among pairs close at the end
  CHECK(meet > 100);      // and pairs whose paths met
}
