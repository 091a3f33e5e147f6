#pragma once
// The depth-first walk shared by the bounding volume hierarchies (aabb_tree.h over the cloth's or a
// mesh's triangles, box_tree.h over a collider's features).

#include <cstdint>
#include <vector>

namespace cloth::sim {

/// Walks a hierarchy stored parents before children (node 0 the root; `left` and `right` child
/// indices, -1 for a leaf), right subtrees first: descends into the nodes for which enter(node) holds
/// and calls leaf(node) on the leaves reached. At most 64 levels deep.
template <class Node, class Enter, class Leaf>
void walkDepthFirst(const std::vector<Node>& nodes, Enter enter, Leaf leaf) {
  if (nodes.empty()) return;
  std::int32_t stack[64];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes[static_cast<std::size_t>(stack[--top])];
    if (!enter(node)) continue;
    if (node.left >= 0) {
      stack[top++] = node.left;
      stack[top++] = node.right;
    } else {
      leaf(node);
    }
  }
}

}  // namespace cloth::sim
