#include "cloth/sim/solve/spring_graph.h"

#include <algorithm>

namespace cloth::sim {

void SpringGraph::build(const Cloth& cloth, const Stiffness& k) {
  const std::size_t n = cloth.nodeCount();
  // Every spring as two directed edges (i -> j, k), sorted by i then j so duplicates are adjacent.
  struct Edge {
    NodeIndex from, to;
    Real k;
  };
  std::vector<Edge> edges;
  edges.reserve(2 * cloth.springs.size());
  for (SpringFamily family : kSpringFamilies) {
    const Real kf = k.of(family);
    for (const Spring& s : cloth.springsOf(family)) {
      edges.push_back({s.a, s.b, kf});
      edges.push_back({s.b, s.a, kf});
    }
  }
  std::sort(edges.begin(), edges.end(),
            [](const Edge& a, const Edge& b) { return a.from != b.from ? a.from < b.from : a.to < b.to; });
  start.assign(n + 1, 0);
  neighbour.clear();
  weight.clear();
  degree.assign(n, 0.0);
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const Edge& edge = edges[e];
    degree[edge.from] += edge.k;
    if (e > 0 && edges[e - 1].from == edge.from && edges[e - 1].to == edge.to) {
      weight.back() += edge.k;  // a second spring between the same nodes
      continue;
    }
    neighbour.push_back(edge.to);
    weight.push_back(edge.k);
    ++start[edge.from + 1];
  }
  for (std::size_t i = 0; i < n; ++i) start[i + 1] += start[i];
  builtStiffness_ = k;
  builtSprings_ = cloth.springs.size();
}

bool SpringGraph::builtFor(const Cloth& cloth, const Stiffness& k) const {
  return degree.size() == cloth.nodeCount() && builtSprings_ == cloth.springs.size() &&
         builtStiffness_.structural == k.structural && builtStiffness_.shear == k.shear &&
         builtStiffness_.bending == k.bending;
}

void neighbourSum(const SpringGraph& g, std::span<const Vec3> u, std::span<Vec3> out, Workers* workers) {
  parallelFor(workers, g.nodeCount(), kNodeGrain, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) {
      Vec3 sum(0);
      for (std::uint32_t e = g.start[i]; e < g.start[i + 1]; ++e) sum += g.weight[e] * u[g.neighbour[e]];
      out[i] = sum;
    }
  });
}

}  // namespace cloth::sim
