#include <catch2/catch.hpp>

#include <algorithm>
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

using Key = std::array<NodeIndex, 4>;

// A pair as a set member: a vertex-triangle pair with its triangle's nodes sorted, an edge-edge pair
// with each edge's nodes sorted and the lower edge first.
Key keyOf(const PairOf& pair) {
  Key k = pair.nodes;
  if (pair.kind == PairKind::VertexTriangle) {
    std::sort(k.begin() + 1, k.end());
    return k;
  }
  std::sort(k.begin(), k.begin() + 2);
  std::sort(k.begin() + 2, k.end());
  if (std::pair(k[2], k[3]) < std::pair(k[0], k[1]))
    std::swap_ranges(k.begin(), k.begin() + 2, k.begin() + 2);
  return k;
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
  auto quad = [&](std::span<const Vec3> x0, const std::array<NodeIndex, 4>& n) {
    MovingQuad q;
    for (int k = 0; k < 4; ++k) q.x0[k] = x0[n[k]], q.x1[k] = c.x[n[k]];
    return q;
  };
  for (int step = 1; sim.time() < 2.5; ++step) {
    const std::vector<Vec3> x0 = c.x;
    drag.apply(sim);
    sim.step();
    if (step % 5 != 0) continue;
    SelfPairList list, split;
    REQUIRE(findSelfPairs(c, x0, edges, reach, tree, list, &one));
    REQUIRE(findSelfPairs(c, x0, edges, reach, tree, split, &two));
    CHECK(list.pairs.size() == split.pairs.size());
    CHECK(
        std::equal(list.pairs.begin(), list.pairs.end(), split.pairs.begin(), split.pairs.end(),
                   [](const PairOf& a, const PairOf& b) { return a.nodes == b.nodes && a.kind == b.kind; }));
    std::set<Key> listed;
    for (const PairOf& pair : list.pairs) listed.insert(keyOf(pair));
    for (std::size_t p = 0; p < c.nodeCount(); ++p)
      for (const Triangle& t : c.triangles) {
        const auto node = static_cast<NodeIndex>(p);
        if (t.v[0] == node || t.v[1] == node || t.v[2] == node) continue;
        Vec3 bary;
        const Vec3 q = closestPointOnTriangle(c.x[p], c.x[t.v[0]], c.x[t.v[1]], c.x[t.v[2]], bary);
        const bool close = glm::length(c.x[p] - q) < reach;
        const bool meets = vertexTriangleImpact(quad(x0, {node, t.v[0], t.v[1], t.v[2]}), reach).has_value();
        if (!close && !meets) continue;
        near += close;
        meet += meets;
        CHECK(listed.count(keyOf({{node, t.v[0], t.v[1], t.v[2]}, PairKind::VertexTriangle})) == 1);
      }
    for (std::size_t i = 0; i < edges.nodes.size(); ++i)
      for (std::size_t j = i + 1; j < edges.nodes.size(); ++j) {
        const auto &e = edges.nodes[i], &f = edges.nodes[j];
        if (e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1]) continue;
        // The lines' closest points, inside both edges (nearer an end, a vertex-triangle pair is).
        const auto [u, w] = closestSegmentParameters(c.x[e[0]], c.x[e[1]], c.x[f[0]], c.x[f[1]]);
        const Vec3 a = c.x[e[0]] + u * (c.x[e[1]] - c.x[e[0]]), b = c.x[f[0]] + w * (c.x[f[1]] - c.x[f[0]]);
        const bool close = u > 0 && u < 1 && w > 0 && w < 1 && glm::length(a - b) < reach;
        const bool meets = edgeEdgeImpact(quad(x0, {e[0], e[1], f[0], f[1]}), reach).has_value();
        if (!close && !meets) continue;
        near += close;
        meet += meets;
        CHECK(listed.count(keyOf({{e[0], e[1], f[0], f[1]}, PairKind::EdgeEdge})) == 1);
      }
  }
  CHECK(near > 100);  // the cloth did pile up,
  CHECK(meet > 100);  // and its paths met
}
