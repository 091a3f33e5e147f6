#include "cloth/sim/collision/aabb_tree.h"

#include <algorithm>

namespace cloth::sim {
namespace {

constexpr int kLeafSize = 16;

Aabb triangleBox(std::span<const Vec3> x, const Triangle& t) {
  Aabb b;
  for (NodeIndex i : t.v) b.grow(x[i]);
  return b;
}

int widestAxis(const Aabb& b) {
  const Vec3 e = b.extent();
  if (e.x >= e.y && e.x >= e.z) return 0;
  return e.y >= e.z ? 1 : 2;
}

}  // namespace

void AabbTree::build(std::span<const Vec3> x, std::span<const Triangle> triangles) {
  nodes_.clear();
  order_.resize(triangles.size());
  if (triangles.empty()) return;
  std::vector<Vec3> centroids(triangles.size());
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    order_[t] = static_cast<int>(t);
    const auto& v = triangles[t].v;
    centroids[t] = (x[v[0]] + x[v[1]] + x[v[2]]) / 3.0;
  }
  nodes_.reserve(2 * triangles.size() / kLeafSize + 1);
  buildRange(centroids, 0, static_cast<int>(triangles.size()));
  collectLeafVertices(triangles);
  refit(x);
}

std::int32_t AabbTree::buildRange(std::span<const Vec3> centroids, int first, int count) {
  const auto index = static_cast<std::int32_t>(nodes_.size());
  nodes_.push_back({});
  if (count <= kLeafSize) {
    nodes_[index].first = first;
    nodes_[index].count = count;
    return index;
  }
  Aabb centroidBox;
  for (int i = first; i < first + count; ++i) centroidBox.grow(centroids[order_[i]]);
  const int axis = widestAxis(centroidBox);
  const int half = count / 2;
  std::nth_element(order_.begin() + first, order_.begin() + first + half, order_.begin() + first + count,
                   [&](int a, int b) { return centroids[a][axis] < centroids[b][axis]; });
  const std::int32_t left = buildRange(centroids, first, half);
  const std::int32_t right = buildRange(centroids, first + half, count - half);
  nodes_[index].left = left;
  nodes_[index].right = right;
  return index;
}

void AabbTree::collectLeafVertices(std::span<const Triangle> triangles) {
  leafVertexStart_.assign(1, 0);
  leafVertices_.clear();
  for (Node& node : nodes_) {
    if (node.left >= 0) continue;
    node.leaf = static_cast<std::int32_t>(leafVertexStart_.size() - 1);
    const auto start = leafVertices_.size();
    for (int i = node.first; i < node.first + node.count; ++i)
      for (NodeIndex v : triangles[order_[i]].v)
        if (std::find(leafVertices_.begin() + static_cast<std::ptrdiff_t>(start), leafVertices_.end(), v) ==
            leafVertices_.end())
          leafVertices_.push_back(v);
    leafVertexStart_.push_back(static_cast<std::uint32_t>(leafVertices_.size()));
  }
}

// growLeaf(box, vertex) adds a leaf vertex to its box.
template <class GrowLeaf>
void AabbTree::refitWith(GrowLeaf growLeaf, Real margin) {
  margin_ = margin;
  // Children always follow their parent in nodes_, so a reverse sweep sees children first.
  for (auto n = static_cast<std::int64_t>(nodes_.size()) - 1; n >= 0; --n) {
    Node& node = nodes_[static_cast<std::size_t>(n)];
    if (node.left < 0) {
      Aabb b;
      for (std::uint32_t k = leafVertexStart_[node.leaf]; k < leafVertexStart_[node.leaf + 1]; ++k)
        growLeaf(b, leafVertices_[k]);
      node.box = b.inflated(margin);
    } else {
      node.box = nodes_[node.left].box;
      node.box.grow(nodes_[node.right].box);
    }
  }
}

void AabbTree::refit(std::span<const Vec3> x, Real margin) {
  refitWith([&](Aabb& b, NodeIndex v) { b.grow(x[v]); }, margin);
}

void AabbTree::refitSwept(std::span<const Vec3> x0, std::span<const Vec3> x1,
                          std::span<const Triangle> triangles, Real margin) {
  margin_ = margin;
  sweptBoxes_.resize(order_.size());
  for (auto n = static_cast<std::int64_t>(nodes_.size()) - 1; n >= 0; --n) {
    Node& node = nodes_[static_cast<std::size_t>(n)];
    if (node.left < 0) {
      node.box = Aabb{};
      for (int i = node.first; i < node.first + node.count; ++i) {
        Aabb b = triangleBox(x0, triangles[order_[i]]);
        b.grow(triangleBox(x1, triangles[order_[i]]));
        sweptBoxes_[i] = b.inflated(margin);
        node.box.grow(sweptBoxes_[i]);
      }
    } else {
      node.box = nodes_[node.left].box;
      node.box.grow(nodes_[node.right].box);
    }
  }
}

// Depth-first walk: descends into nodes for which enter(box) holds and calls leaf(node) on the
// leaves reached.
template <class Enter, class Leaf>
void AabbTree::visitLeaves(Enter enter, Leaf leaf) const {
  if (nodes_.empty()) return;
  std::int32_t stack[64];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[stack[--top]];
    if (!enter(node.box)) continue;
    if (node.left >= 0) {
      stack[top++] = node.left;
      stack[top++] = node.right;
    } else {
      leaf(node);
    }
  }
}

void AabbTree::overlapping(const Aabb& box, std::span<const Vec3> x, std::span<const Triangle> triangles,
                           std::vector<int>& out) const {
  visitLeaves([&](const Aabb& b) { return b.overlaps(box); },
              [&](const Node& node) {
                for (int i = node.first; i < node.first + node.count;
                     ++i)  // leaves are small: boxes on demand
                  if (triangleBox(x, triangles[order_[i]]).inflated(margin_).overlaps(box))
                    out.push_back(order_[i]);
              });
}

void AabbTree::overlappingSwept(const Aabb& box, std::vector<int>& out) const {
  visitLeaves([&](const Aabb& b) { return b.overlaps(box); },
              [&](const Node& node) {
                for (int i = node.first; i < node.first + node.count; ++i)
                  if (sweptBoxes_[i].overlaps(box)) out.push_back(order_[i]);
              });
}

void AabbTree::verticesIn(const Aabb& box, std::span<const Vec3> x, std::vector<NodeIndex>& out) const {
  visitLeaves([&](const Aabb& b) { return b.overlaps(box); },
              [&](const Node& node) {
                for (std::uint32_t k = leafVertexStart_[node.leaf]; k < leafVertexStart_[node.leaf + 1]; ++k)
                  if (box.contains(x[leafVertices_[k]])) out.push_back(leafVertices_[k]);
              });
}

std::optional<RayHit> AabbTree::raycast(const Ray& ray, std::span<const Vec3> x,
                                        std::span<const Triangle> triangles, Real tMax) const {
  std::optional<RayHit> best;
  visitLeaves([&](const Aabb& b) { return intersects(ray, b, best ? best->t : tMax); },
              [&](const Node& node) {
                for (int i = node.first; i < node.first + node.count; ++i) {
                  const auto& v = triangles[order_[i]].v;
                  Real t;
                  Vec3 bary;
                  const bool hit = intersects(ray, x[v[0]], x[v[1]], x[v[2]], best ? best->t : tMax, t, bary);
                  if (hit && (!best || t < best->t))  // ties keep the first triangle found
                    best = RayHit{order_[i], t, bary, ray.at(t)};
                }
              });
  return best;
}

}  // namespace cloth::sim
