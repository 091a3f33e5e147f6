#include "cloth/sim/collision/box_tree.h"

#include <algorithm>

#include "cloth/sim/collision/tree_walk.h"

namespace cloth::sim {
namespace {

constexpr int kLeafSize = 8;

}  // namespace

void BoxTree::build(std::span<const Aabb> boxes) {
  nodes_.clear();
  boxes_.assign(boxes.begin(), boxes.end());
  order_.resize(boxes.size());
  for (std::size_t i = 0; i < boxes.size(); ++i) order_[i] = static_cast<int>(i);
  if (boxes.empty()) return;
  nodes_.reserve(2 * boxes.size() / kLeafSize + 1);
  buildRange(0, static_cast<int>(boxes.size()));
  for (std::size_t i = 0; i < order_.size(); ++i) boxes_[i] = boxes[order_[i]];
}

std::int32_t BoxTree::buildRange(int first, int count) {
  const auto index = static_cast<std::int32_t>(nodes_.size());
  nodes_.push_back({});
  Aabb box, centres;
  for (int i = first; i < first + count; ++i) {
    box.grow(boxes_[order_[i]]);
    centres.grow(boxes_[order_[i]].center());
  }
  nodes_[index].box = box;
  nodes_[index].first = first;
  nodes_[index].count = count;
  if (count <= kLeafSize) return index;
  const int axis = centres.widestAxis();
  const int half = count / 2;
  std::nth_element(order_.begin() + first, order_.begin() + first + half, order_.begin() + first + count,
                   [&](int a, int b) { return boxes_[a].center()[axis] < boxes_[b].center()[axis]; });
  const std::int32_t left = buildRange(first, half);
  const std::int32_t right = buildRange(first + half, count - half);
  nodes_[index].left = left;
  nodes_[index].right = right;
  return index;
}

void BoxTree::overlapping(const Aabb& box, std::vector<int>& out) const {
  walkDepthFirst(
      nodes_, [&](const Node& node) { return node.box.overlaps(box); },
      [&](const Node& node) {
        for (int i = node.first; i < node.first + node.count; ++i)
          if (boxes_[i].overlaps(box)) out.push_back(order_[i]);
      });
}

}  // namespace cloth::sim
