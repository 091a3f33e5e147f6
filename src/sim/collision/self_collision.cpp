#include "cloth/sim/collision/self_collision.h"

#include <glm/geometric.hpp>

namespace cloth::sim {
namespace {

bool hasCorner(const Triangle& t, NodeIndex n) {
  return t.v[0] == n || t.v[1] == n || t.v[2] == n;
}

// Which side of triangle t the point lay on at the start of the step (+1 front, -1 back).
Real startSide(std::span<const Vec3> xStart, const Triangle& t, const Vec3& pStart) {
  const Vec3& a = xStart[t.v[0]];
  const Vec3 n = glm::cross(xStart[t.v[1]] - a, xStart[t.v[2]] - a);
  return glm::dot(pStart - a, n) >= 0 ? 1.0 : -1.0;
}

// Separates node p from triangle t; returns whether they were in contact.
bool separate(Cloth& c, std::span<const Vec3> xStart, NodeIndex p, const Triangle& t, Real thickness) {
  const Vec3 &a = c.x[t.v[0]], &b = c.x[t.v[1]], &d = c.x[t.v[2]];
  Vec3 bary;
  const Vec3 q = closestPointOnTriangle(c.x[p], a, b, d, bary);
  const Vec3 cr = glm::cross(b - a, d - a);
  const Real crLen = glm::length(cr);
  if (crLen == 0 || glm::dot(c.x[p] - q, c.x[p] - q) >= thickness * thickness) return false;
  const Vec3 n = startSide(xStart, t, xStart[p]) * cr / crLen;  // points towards the node's side
  const Real gap = glm::dot(c.x[p] - q, n);
  if (gap >= thickness) return false;

  bool triangleFree[3];
  Real weight2 = 0;  // sum of squared barycentric weights of the free corners
  for (int k = 0; k < 3; ++k) {
    triangleFree[k] = c.isFree(t.v[k]);
    if (triangleFree[k]) weight2 += bary[k] * bary[k];
  }
  const Real nodeShare = weight2 > 0 ? 0.5 : 1.0;
  const Real push = thickness - gap;
  c.x[p] += nodeShare * push * n;
  const Real vRel =
      glm::dot(c.v[p] - (bary.x * c.v[t.v[0]] + bary.y * c.v[t.v[1]] + bary.z * c.v[t.v[2]]), n);
  const Real approach = vRel < 0 ? -vRel : 0;
  c.v[p] += nodeShare * approach * n;
  for (int k = 0; k < 3 && weight2 > 0; ++k) {
    if (!triangleFree[k]) continue;
    const Real w = bary[k] / weight2;  // makes the triangle point at bary move by exactly the other share
    c.x[t.v[k]] -= (1 - nodeShare) * push * w * n;
    c.v[t.v[k]] -= (1 - nodeShare) * approach * w * n;
  }
  return true;
}

}  // namespace

int resolveSelfCollisions(Cloth& cloth, std::span<const Vec3> xStart, const AabbTree& tree, Real thickness,
                          SelfCollisionScratch& scratch) {
  int contacts = 0;
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i) {
    const auto p = static_cast<NodeIndex>(i);
    if (!cloth.isFree(p)) continue;
    scratch.candidates.clear();
    tree.overlapping(Aabb{cloth.x[p], cloth.x[p]}.inflated(thickness), cloth.x, cloth.triangles,
                     scratch.candidates);
    for (int tIndex : scratch.candidates) {
      const Triangle& t = cloth.triangles[tIndex];
      if (hasCorner(t, p)) continue;
      contacts += separate(cloth, xStart, p, t, thickness) ? 1 : 0;
    }
  }
  return contacts;
}

}  // namespace cloth::sim
