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
  return edges;
}

}  // namespace cloth::sim
