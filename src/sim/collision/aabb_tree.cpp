#include "cloth/sim/collision/aabb_tree.h"

#include <algorithm>
#include <bit>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/normal_cone.h"
#include "cloth/sim/collision/tree_walk.h"

namespace cloth::sim {
namespace {

constexpr int kLeafSize = 16;
static_assert(kLeafSize <= 32, "collect tests a leaf's boxes as the bits of a 32-bit mask");
// A patch with a triangle under this share of its area at build (rest) is never flat: there a node
// comes within the thickness of its neighbours' triangles in the plane, and the self-collision's
// push keeps the cloth from collapsing (left out, the 64^2 cloth over the box heaped at its corners).
constexpr Real kPressedArea = 0.5;

Aabb triangleBox(std::span<const Vec3> x, const Triangle& t) {
  Aabb b;
  for (NodeIndex i : t.v) b.grow(x[i]);
  return b;
}

Real area(std::span<const Vec3> x, const Triangle& t) {
  return 0.5 * glm::length(glm::cross(x[t.v[1]] - x[t.v[0]], x[t.v[2]] - x[t.v[0]]));
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
  buildArea_.resize(triangles.size());
  for (std::size_t t = 0; t < triangles.size(); ++t) buildArea_[t] = area(x, triangles[t]);
  positionOf_.resize(triangles.size());
  for (std::size_t i = 0; i < order_.size(); ++i) positionOf_[order_[i]] = static_cast<int>(i);
  findConnectedNodes(triangles);
  ordered_.resize(order_.size());
  for (std::size_t i = 0; i < order_.size(); ++i) ordered_[i] = triangles[order_[i]];
  leafNodes_.clear();
  for (std::size_t n = 0; n < nodes_.size(); ++n)
    if (nodes_[n].left < 0) leafNodes_.push_back(n);
  refit(x);
}

std::int32_t AabbTree::buildRange(std::span<const Vec3> centroids, int first, int count) {
  const auto index = static_cast<std::int32_t>(nodes_.size());
  nodes_.push_back({});
  nodes_[index].first = first;
  nodes_[index].count = count;
  if (count <= kLeafSize) return index;
  Aabb centroidBox;
  for (int i = first; i < first + count; ++i) centroidBox.grow(centroids[order_[i]]);
  const int axis = centroidBox.widestAxis();
  const int half = count / 2;
  std::nth_element(order_.begin() + first, order_.begin() + first + half, order_.begin() + first + count,
                   [&](int a, int b) { return centroids[a][axis] < centroids[b][axis]; });
  const std::int32_t left = buildRange(centroids, first, half);
  const std::int32_t right = buildRange(centroids, first + half, count - half);
  nodes_[index].left = left;
  nodes_[index].right = right;
  return index;
}

// A node is connected when its triangles form one patch through shared corners: a leaf by joining
// its triangles, a parent when both children are and share a corner.
void AabbTree::findConnectedNodes(std::span<const Triangle> triangles) {
  connected_.assign(nodes_.size(), 0);
  NodeIndex vertices = 0;
  for (const Triangle& t : triangles)
    for (NodeIndex v : t.v) vertices = std::max(vertices, v + 1);
  std::vector<std::int32_t> mark(static_cast<std::size_t>(vertices), -1);
  auto shareCorner = [&](const Triangle& a, const Triangle& b) {
    for (NodeIndex u : a.v)
      for (NodeIndex w : b.v)
        if (u == w) return true;
    return false;
  };
  for (auto n = static_cast<std::int32_t>(nodes_.size()) - 1; n >= 0; --n) {
    const Node& node = nodes_[static_cast<std::size_t>(n)];
    if (node.left < 0) {  // grow one patch from the first triangle
      std::vector<std::uint8_t> reached(static_cast<std::size_t>(node.count), 0);
      reached[0] = 1;
      for (bool grew = true; grew;) {
        grew = false;
        for (int i = 0; i < node.count; ++i)
          for (int j = 0; j < node.count && !reached[i]; ++j)
            if (reached[j] &&
                shareCorner(triangles[order_[node.first + i]], triangles[order_[node.first + j]]))
              reached[i] = 1, grew = true;
      }
      connected_[n] = std::all_of(reached.begin(), reached.end(), [](std::uint8_t r) { return r != 0; });
      continue;
    }
    if (!connected_[node.left] || !connected_[node.right]) continue;
    const Node &left = nodes_[node.left], &right = nodes_[node.right];
    for (int i = left.first; i < left.first + left.count; ++i)
      for (NodeIndex v : triangles[order_[i]].v) mark[v] = n;
    for (int i = right.first; i < right.first + right.count && !connected_[n]; ++i)
      for (NodeIndex v : triangles[order_[i]].v) connected_[n] = connected_[n] || mark[v] == n;
  }
}

// Leaves first, split over the workers (each writes its own boxes), then every inner node from its
// children: children always follow their parent in nodes_, so a reverse sweep sees them first.
template <class Leaf>
void AabbTree::refitLeavesThenUp(Workers* workers, Leaf leaf) {
  constexpr std::size_t kLeafGrain = 64;  // leaves of kLeafSize triangles per piece
  parallelFor(workers, leafNodes_.size(), kLeafGrain, [&](std::size_t first, std::size_t last) {
    for (std::size_t k = first; k < last; ++k) leaf(nodes_[leafNodes_[k]]);
  });
  for (auto n = static_cast<std::int64_t>(nodes_.size()) - 1; n >= 0; --n) {
    Node& node = nodes_[static_cast<std::size_t>(n)];
    if (node.left < 0) continue;
    node.box = nodes_[node.left].box;
    node.box.grow(nodes_[node.right].box);
  }
}

void AabbTree::refit(std::span<const Vec3> x, Real margin, Workers* workers) {
  margin_ = margin;
  flat_.assign(nodes_.size(), 0);
  boxes_.resize(ordered_.size());
  refitLeavesThenUp(workers, [&](Node& node) {
    node.box = Aabb{};
    for (int i = node.first; i < node.first + node.count; ++i) {
      boxes_[i] = triangleBox(x, ordered_[i]).inflated(margin);
      node.box.grow(boxes_[i]);
    }
  });
}

void AabbTree::updateTriangleBox(std::span<const Vec3> x, int triangle) {
  const int i = positionOf_[triangle];
  boxes_[i] = triangleBox(x, ordered_[i]).inflated(margin_);
}

void AabbTree::refitSwept(std::span<const Vec3> x0, std::span<const Vec3> x1,
                          std::span<const Triangle> triangles, Real margin, Workers* workers) {
  margin_ = margin;
  flat_.assign(nodes_.size(), 0);
  sweptBoxes_.resize(order_.size());
  roundedSweptBoxes_.resize(order_.size());
  refitLeavesThenUp(workers, [&](Node& node) {
    node.box = Aabb{};
    for (int i = node.first; i < node.first + node.count; ++i) {
      Aabb b = triangleBox(x0, triangles[order_[i]]);
      b.grow(triangleBox(x1, triangles[order_[i]]));
      sweptBoxes_[i] = b.inflated(margin);
      roundedSweptBoxes_.set(i, sweptBoxes_[i]);
      node.box.grow(sweptBoxes_[i]);
    }
  });
}

void AabbTree::refitCones(std::span<const Vec3> x0, std::span<const Vec3> x1,
                          std::span<const Triangle> triangles, Real maxHalfAngle, Workers* workers) {
  std::vector<NormalCone>& cones = cones_;
  cones.resize(nodes_.size());
  normalBounds_.resize(triangles.size());
  pressed_.resize(triangles.size());
  flatHalfAngle_ = maxHalfAngle;
  constexpr std::size_t kLeafGrain = 64;
  // One instant (the audit's count): the three bounds are the normal, twice it and it again, so one
  // cross product and one area a triangle give the same cone.
  const bool still = x0.data() == x1.data() && x0.size() == x1.size();
  parallelFor(workers, leafNodes_.size(), kLeafGrain, [&](std::size_t first, std::size_t last) {
    std::vector<Vec3> bounds;  // one leaf's normal bounds
    for (std::size_t k = first; k < last; ++k) {
      const std::size_t i = leafNodes_[k];
      const Node& node = nodes_[i];
      bounds.clear();
      bool pressed = false;  // a triangle pressed or sheared to under half its area
      for (int j = node.first; j < node.first + node.count; ++j) {
        const Triangle& t = triangles[order_[j]];
        const auto& v = t.v;
        const Real least = kPressedArea * buildArea_[order_[j]];
        // The bounds made unit, for ownCone (a zero bound adds nothing).
        std::array<Vec3, 3>& unit = normalBounds_[order_[j]];
        if (still) {
          const Vec3 n = glm::cross(x0[v[1]] - x0[v[0]], x0[v[2]] - x0[v[0]]);
          const Real length = glm::length(n);
          const bool squashed = !(0.5 * length > least);
          pressed = pressed || squashed;
          unit.fill(length > 0 ? n / length : Vec3(0));
          pressed_[order_[j]] = squashed;
          bounds.push_back(n);
          continue;
        }
        const auto b = sweptNormalBounds(x0[v[0]], x0[v[1]], x0[v[2]], x1[v[0]], x1[v[1]], x1[v[2]]);
        const bool squashed = !(area(x0, t) > least) || !(area(x1, t) > least);
        pressed = pressed || squashed;
        for (int k = 0; k < 3; ++k) {
          const Real length = glm::length(b[k]);
          unit[k] = length > 0 ? b[k] / length : Vec3(0);
        }
        pressed_[order_[j]] = squashed;
        bounds.insert(bounds.end(), b.begin(), b.end());
      }
      cones[i] = pressed ? NormalCone::everywhere() : NormalCone::around(bounds);
      flat_[i] = connected_[i] && cones[i].within(maxHalfAngle);
    }
  });
  for (auto n = static_cast<std::int64_t>(nodes_.size()) - 1; n >= 0; --n) {
    const auto i = static_cast<std::size_t>(n);
    const Node& node = nodes_[i];
    if (node.left < 0) continue;
    cones[i] = merge(cones[node.left], cones[node.right]);
    flat_[i] = connected_[i] && cones[i].within(maxHalfAngle);
  }
}

int AabbTree::flatNodeCount() const {
  return static_cast<int>(std::count(flat_.begin(), flat_.end(), 1));
}

// Whether a query that starts on the `own` triangles leaves out node `index`: a flat patch holding
// them all, or holding some and flat together with them all. Holding only some is not enough by
// itself: the node of a query from a crease's corner lies in two patches, and the one with the
// crease's other side is not flat together with the node's triangles. A patch holding one of them is
// connected to them all (they share the query's node or edge), so the union is one connected patch,
// and flat if the two cones merged are (Volino and Magnenat-Thalmann 1994).
bool AabbTree::skipsFor(const Node& node, std::size_t index, OwnPatch& patch) const {
  if (patch.own.empty() || !flat_[index]) return false;
  bool all = true, some = false;
  for (int t : patch.own) {
    if (t < 0) continue;
    const bool in = positionOf_[t] >= node.first && positionOf_[t] < node.first + node.count;
    all = all && in;
    some = some || in;
  }
  if (all) return true;
  return some && flatTogether(cones_[index], ownCone(patch), flatHalfAngle_);
}

// The cone of the own triangles' normals along the motion (every direction if one was pressed), and
// their corners: NormalCone::around on the unit bounds refitCones kept, without their lengths again.
const NormalCone& AabbTree::ownCone(OwnPatch& patch) const {
  if (patch.known) return patch.cone;
  patch.known = true;
  Vec3 sum(0);
  bool any = false;
  for (int t : patch.own) {
    if (t < 0) continue;
    if (pressed_[t] || patch.cornerCount + 3 > patch.corners.size()) {
      patch.cornerCount = 0;
      return patch.cone = NormalCone::everywhere();
    }
    for (const Vec3& b : normalBounds_[t]) {
      sum += b;
      any = any || b != Vec3(0);
    }
    for (NodeIndex v : ordered_[static_cast<std::size_t>(positionOf_[t])].v)
      patch.corners[patch.cornerCount++] = v;
  }
  if (!any) return patch.cone = NormalCone{};
  const Real length = glm::length(sum);
  if (!(length > 1e-9)) return patch.cone = NormalCone::everywhere();
  const Vec3 axis = sum / length;
  Real leastCosine = 1;
  for (int t : patch.own)
    if (t >= 0)
      for (const Vec3& b : normalBounds_[t])
        if (b != Vec3(0)) leastCosine = std::min(leastCosine, glm::dot(axis, b));
  return patch.cone = NormalCone{axis, std::acos(std::clamp<Real>(leastCosine, -1, 1))};
}

// Whether the triangles of flat leaf `index` that share a corner with the own ones are left out: the
// leaf's cone and the own triangles' are flat together. Each such triangle and the own ones are one
// connected patch (through the shared corner) within the cone.
bool AabbTree::leafSkipsNeighbours(std::size_t index, OwnPatch& patch) const {
  if (patch.own.empty() || !flat_[index]) return false;
  return flatTogether(cones_[index], ownCone(patch), flatHalfAngle_) && patch.cornerCount > 0;
}

bool AabbTree::touches(const Triangle& t, const OwnPatch& patch) const {
  for (std::size_t k = 0; k < patch.cornerCount; ++k)
    if (t.v[0] == patch.corners[k] || t.v[1] == patch.corners[k] || t.v[2] == patch.corners[k]) return true;
  return false;
}

// Depth-first walk: descends into nodes for which enter(node) holds and calls leaf(node) on the
// leaves reached.
template <class Enter, class Leaf>
void AabbTree::visitLeaves(Enter enter, Leaf leaf) const {
  walkDepthFirst(nodes_, enter, leaf);
}

void AabbTree::overlapping(const Aabb& box, std::vector<int>& out, std::span<const int> own) const {
  collect(boxes_, nullptr, box, out, own);
}

void AabbTree::overlappingSwept(const Aabb& box, std::vector<int>& out, std::span<const int> own) const {
  collect(sweptBoxes_, &roundedSweptBoxes_, box, out, own);
}

// The triangles whose `boxes` (in order_'s order) overlap `box`, but the flat patches and a flat
// leaf's neighbours of the `own` triangles (overlapping). With `rounded` (the boxes in single
// precision), a leaf's boxes are tested rounded, four at a time, and exactly where that passes: the
// same triangles in the same order as the exact tests alone, in less time (the self-pair search of
// the 64^2 cloth over the box, perf: collect and its rounded tests 24 -> 18 % of the search).
void AabbTree::collect(const std::vector<Aabb>& boxes, const FloatBoxes* rounded, const Aabb& box,
                       std::vector<int>& out, std::span<const int> own) const {
  OwnPatch patch{own};
  const FloatBox query = rounded ? roundedOut(box) : FloatBox{};
  visitLeaves([&](const Node& n) { return n.box.overlaps(box) && !skipsFor(n, indexOf(n), patch); },
              [&](const Node& node) {
                const auto first = static_cast<std::size_t>(node.first),
                           count = static_cast<std::size_t>(node.count);
                std::uint32_t may = rounded ? rounded->mayOverlap(first, count, query) : (1u << count) - 1;
                if (may == 0) return;
                const bool neighboursOut = leafSkipsNeighbours(indexOf(node), patch);
                for (; may != 0; may &= may - 1) {
                  const int i = node.first + std::countr_zero(may);
                  if (boxes[i].overlaps(box) && !(neighboursOut && touches(ordered_[i], patch)))
                    out.push_back(order_[i]);
                }
              });
}

void AabbTree::selfOverlaps(const std::function<void(int, int)>& visit) const {
  if (!nodes_.empty()) selfOverlapsIn(0, visit);
}

// The pairs within one node: none in a flat patch, else those within each child and those across.
void AabbTree::selfOverlapsIn(std::size_t index, const std::function<void(int, int)>& visit) const {
  if (flat_[index]) return;
  const Node& node = nodes_[index];
  if (node.left < 0) {
    for (int i = node.first; i < node.first + node.count; ++i)
      for (int j = i + 1; j < node.first + node.count; ++j)
        if (boxes_[i].overlaps(boxes_[j])) visit(order_[i], order_[j]);
    return;
  }
  selfOverlapsIn(static_cast<std::size_t>(node.left), visit);
  selfOverlapsIn(static_cast<std::size_t>(node.right), visit);
  crossOverlaps(static_cast<std::size_t>(node.left), static_cast<std::size_t>(node.right), visit);
}

// selfOverlapsIn and crossOverlaps unrolled breadth first, each step of either replaced by the calls it
// makes, in the order it makes them, until there are enough pieces or only leaves are left.
void AabbTree::selfOverlapPieces(std::size_t atLeast, std::vector<OverlapPiece>& out) const {
  out.clear();
  if (nodes_.empty()) return;
  out.push_back({0, 0});
  std::vector<OverlapPiece> next;
  for (bool split = true; split && out.size() < atLeast;) {
    split = false;
    next.clear();
    for (const OverlapPiece& p : out) {
      const Node &na = nodes_[p.a], &nb = nodes_[p.b];
      if (p.a == p.b ? flat_[p.a] != 0 : !na.box.overlaps(nb.box)) continue;  // no pairs
      if (na.left < 0 && nb.left < 0) {
        next.push_back(p);
      } else if (p.a == p.b) {
        next.insert(next.end(), {{na.left, na.left}, {na.right, na.right}, {na.left, na.right}});
      } else if (nb.left < 0 || (na.left >= 0 && na.count >= nb.count)) {  // as crossOverlaps splits
        next.insert(next.end(), {{na.left, p.b}, {na.right, p.b}});
      } else {
        next.insert(next.end(), {{p.a, nb.left}, {p.a, nb.right}});
      }
      split = split || na.left >= 0 || nb.left >= 0;
    }
    out.swap(next);
  }
}

void AabbTree::selfOverlapsOf(const OverlapPiece& piece, const std::function<void(int, int)>& visit) const {
  const auto a = static_cast<std::size_t>(piece.a), b = static_cast<std::size_t>(piece.b);
  if (a == b)
    selfOverlapsIn(a, visit);
  else
    crossOverlaps(a, b, visit);
}

// The pairs with one triangle under node a and the other under node b (disjoint subtrees).
void AabbTree::crossOverlaps(std::size_t a, std::size_t b, const std::function<void(int, int)>& visit) const {
  const Node &na = nodes_[a], &nb = nodes_[b];
  if (!na.box.overlaps(nb.box)) return;
  if (na.left < 0 && nb.left < 0) {
    for (int i = na.first; i < na.first + na.count; ++i)
      for (int j = nb.first; j < nb.first + nb.count; ++j)
        if (boxes_[i].overlaps(boxes_[j])) visit(order_[i], order_[j]);
    return;
  }
  if (nb.left < 0 || (na.left >= 0 && na.count >= nb.count)) {  // split the larger
    crossOverlaps(static_cast<std::size_t>(na.left), b, visit);
    crossOverlaps(static_cast<std::size_t>(na.right), b, visit);
  } else {
    crossOverlaps(a, static_cast<std::size_t>(nb.left), visit);
    crossOverlaps(a, static_cast<std::size_t>(nb.right), visit);
  }
}

std::optional<RayHit> AabbTree::raycast(const Ray& ray, std::span<const Vec3> x,
                                        std::span<const Triangle> triangles, Real tMax) const {
  std::optional<RayHit> best;
  visitLeaves([&](const Node& n) { return intersects(ray, n.box, best ? best->t : tMax); },
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
