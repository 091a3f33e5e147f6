#include "cloth/sim/tethers.h"

#include <algorithm>
#include <atomic>

#include <glm/geometric.hpp>

#include "cloth/sim/provot.h"

namespace cloth::sim {

void Tethers::update(const Cloth& cloth) {
  if (cloth.kind == kind_) return;
  kind_ = cloth.kind;
  tethers_.clear();
  std::vector<NodeIndex> anchors;
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i)
    if (!cloth.isFree(static_cast<NodeIndex>(i))) anchors.push_back(static_cast<NodeIndex>(i));
  if (anchors.empty()) return;
  std::vector<Tether> nearest;
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i) {
    const auto node = static_cast<NodeIndex>(i);
    if (!cloth.isFree(node)) continue;
    nearest.clear();
    for (NodeIndex a : anchors)  // a sheet hangs from its own held nodes only
      if (cloth.sheetOf(a) == cloth.sheetOf(node))
        nearest.push_back({node, a, glm::length(cloth.restX[i] - cloth.restX[a])});
    const auto keep = std::min<std::size_t>(kPerNode, nearest.size());
    std::partial_sort(nearest.begin(), nearest.begin() + static_cast<std::ptrdiff_t>(keep), nearest.end(),
                      [](const Tether& a, const Tether& b) { return a.rest < b.rest; });
    tethers_.insert(tethers_.end(), nearest.begin(), nearest.begin() + static_cast<std::ptrdiff_t>(keep));
  }
}

int Tethers::enforce(std::span<Vec3> x, Real tau, std::span<const Vec3> contactNormal,
                     Workers* workers) const {
  // The tethers are stored node by node (update), their anchors kinematic: a piece that starts and ends
  // between two nodes' tethers moves its nodes alone, in the serial order.
  const auto atNodeStart = [&](std::size_t i) {
    while (i > 0 && i < tethers_.size() && tethers_[i].node == tethers_[i - 1].node) ++i;
    return i;
  };
  std::atomic<int> moves = 0;
  parallelFor(workers, tethers_.size(), kNodeGrain, [&](std::size_t first, std::size_t last) {
    int moved = 0;
    for (std::size_t i = atNodeStart(first); i < atNodeStart(last); ++i) {
      const Tether& t = tethers_[i];
      const Vec3 d = x[t.node] - x[t.anchor];
      const Real limit = (1 + tau) * t.rest, len2 = glm::dot(d, d);
      if (len2 <= limit * limit) continue;
      moveOutsideColliders(x, t.node, d * (limit / std::sqrt(len2) - 1), contactNormal);
      ++moved;
    }
    moves += moved;
  });
  return moves;
}

}  // namespace cloth::sim
