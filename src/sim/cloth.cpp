#include "cloth/sim/cloth.h"

#include <algorithm>
#include <map>
#include <utility>

namespace cloth::sim {

Real Stiffness::of(SpringFamily f) const {
  switch (f) {
    case SpringFamily::Structural:
      return structural;
    case SpringFamily::Shear:
      return shear;
    case SpringFamily::Bending:
      return bending;
  }
  return 0;
}

void advancePositions(Cloth& cloth, Real h) {
  for (std::size_t i = 0; i < cloth.x.size(); ++i) cloth.x[i] += h * cloth.v[i];
}

Real keySpacing(const Cloth& cloth) {
  const auto structural = cloth.springsOf(SpringFamily::Structural);
  return structural.empty() ? 0 : structural.front().rest;
}

void copySheet(const Cloth& cloth, int sheet, Cloth& out) {
  const std::size_t n = cloth.sheetNodeCount(), first = n * static_cast<std::size_t>(sheet);
  const auto offset = static_cast<NodeIndex>(first);
  const auto part = [&](const auto& all, auto& mine) {
    mine.assign(all.begin() + static_cast<std::ptrdiff_t>(first),
                all.begin() + static_cast<std::ptrdiff_t>(first + n));
  };
  out.nu = cloth.nu;
  out.nv = cloth.nv;
  out.sheets = 1;
  part(cloth.x, out.x);
  part(cloth.v, out.v);
  part(cloth.mass, out.mass);
  part(cloth.kind, out.kind);
  part(cloth.restX, out.restX);
  part(cloth.uv, out.uv);
  const auto mine = [&](NodeIndex node) { return cloth.sheetOf(node) == sheet; };
  out.springs.clear();
  for (int f = 0; f < kSpringFamilyCount; ++f) {
    out.family[f].begin = out.springs.size();
    for (const Spring& s : cloth.springsOf(kSpringFamilies[f]))
      if (mine(s.a)) out.springs.push_back({s.a - offset, s.b - offset, s.rest});
    out.family[f].end = out.springs.size();
  }
  out.triangles.clear();
  for (const Triangle& t : cloth.triangles)
    if (mine(t.v[0])) out.triangles.push_back({{t.v[0] - offset, t.v[1] - offset, t.v[2] - offset}});
}

ClothEdges clothEdges(const Cloth& cloth) {
  ClothEdges edges;
  std::map<std::pair<NodeIndex, NodeIndex>, int> index;
  for (const Triangle& t : cloth.triangles) {
    std::array<int, 3> ids{};
    for (int k = 0; k < 3; ++k) {
      const auto key = std::minmax(t.v[k], t.v[(k + 1) % 3]);
      const auto [it, added] = index.try_emplace(key, static_cast<int>(edges.nodes.size()));
      if (added) edges.nodes.push_back({key.first, key.second});
      ids[k] = it->second;
    }
    edges.ofTriangle.push_back(ids);
  }
  edges.triangles.assign(edges.nodes.size(), {-1, -1});
  edges.nodeTriangleStart.assign(cloth.nodeCount() + 1, 0);
  for (std::size_t t = 0; t < cloth.triangles.size(); ++t) {
    for (int e : edges.ofTriangle[t]) {
      std::array<int, 2>& slot = edges.triangles[e];
      (slot[0] < 0 ? slot[0] : slot[1]) = static_cast<int>(t);  // a grid's edge borders two at most
    }
    for (NodeIndex v : cloth.triangles[t].v) ++edges.nodeTriangleStart[static_cast<std::size_t>(v) + 1];
  }
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i)
    edges.nodeTriangleStart[i + 1] += edges.nodeTriangleStart[i];
  edges.nodeTriangles.resize(edges.nodeTriangleStart.back());
  std::vector<std::uint32_t> fill(edges.nodeTriangleStart.begin(), edges.nodeTriangleStart.end() - 1);
  for (std::size_t t = 0; t < cloth.triangles.size(); ++t)
    for (NodeIndex v : cloth.triangles[t].v) edges.nodeTriangles[fill[v]++] = static_cast<int>(t);
  edges.nodeEdgeStart.assign(cloth.nodeCount() + 1, 0);
  for (const auto& e : edges.nodes) ++edges.nodeEdgeStart[static_cast<std::size_t>(e[0]) + 1];
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i) edges.nodeEdgeStart[i + 1] += edges.nodeEdgeStart[i];
  edges.nodeEdges.resize(edges.nodes.size());
  fill.assign(edges.nodeEdgeStart.begin(), edges.nodeEdgeStart.end() - 1);
  for (std::size_t e = 0; e < edges.nodes.size(); ++e)
    edges.nodeEdges[fill[edges.nodes[e][0]]++] = static_cast<int>(e);
  return edges;
}

}  // namespace cloth::sim
