#pragma once
// A bounding volume hierarchy over boxes that do not move in their own coordinates (a collider's sharp
// features, in the collider's frame): built once, then only queried. Median split along the widest
// axis, as AabbTree's over the cloth's triangles.

#include <cstdint>
#include <span>
#include <vector>

#include "cloth/sim/collision/aabb.h"

namespace cloth::sim {

class BoxTree {
 public:
  /// Builds the hierarchy over `boxes`; a query answers with indices into them.
  void build(std::span<const Aabb> boxes);

  /// Appends to `out` the index of every box that overlaps `box`, in an order fixed by the build (the
  /// same for every query: the tree's leaves right to left, as walkDepthFirst goes).
  void overlapping(const Aabb& box, std::vector<int>& out) const;

  bool empty() const { return nodes_.empty(); }
  std::size_t size() const { return boxes_.size(); }

 private:
  struct Node {
    Aabb box;
    std::int32_t left = -1;  ///< child indices, -1 for a leaf
    std::int32_t right = -1;
    std::int32_t first = 0;  ///< the node's boxes: a range in order_
    std::int32_t count = 0;
  };
  std::int32_t buildRange(int first, int count);

  std::vector<Node> nodes_;  ///< parents before children
  std::vector<int> order_;   ///< box indices, grouped by leaf
  std::vector<Aabb> boxes_;  ///< the boxes, in order_'s order
};

}  // namespace cloth::sim
