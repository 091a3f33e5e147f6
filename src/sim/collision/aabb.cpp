#include "cloth/sim/collision/aabb.h"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace cloth::sim {

Aabb Aabb::everything() {
  constexpr Real inf = std::numeric_limits<Real>::infinity();
  return {Vec3(-inf), Vec3(inf)};
}

Aabb boundsOf(std::span<const Vec3> points) {
  Aabb b;
  for (const Vec3& p : points) b.grow(p);
  return b;
}

bool intersects(const Ray& ray, const Aabb& box, Real tMax, Real* tEnter) {
  Real t0 = 0, t1 = tMax;
  for (int a = 0; a < 3; ++a) {
    const Real inv = 1 / ray.direction[a];  // +-inf for axis-parallel rays, handled by IEEE rules
    Real tNear = (box.lo[a] - ray.origin[a]) * inv;
    Real tFar = (box.hi[a] - ray.origin[a]) * inv;
    if (std::isnan(tNear) || std::isnan(tFar)) {  // origin on the slab plane of a parallel ray
      if (ray.origin[a] < box.lo[a] || ray.origin[a] > box.hi[a]) return false;
      continue;
    }
    if (tNear > tFar) std::swap(tNear, tFar);
    t0 = std::max(t0, tNear);
    t1 = std::min(t1, tFar);
    if (t0 > t1) return false;
  }
  if (tEnter) *tEnter = t0;
  return true;
}

bool intersects(const Ray& ray, const Vec3& p0, const Vec3& p1, const Vec3& p2, Real tMax, Real& t,
                Vec3& bary) {
  const Vec3 e1 = p1 - p0, e2 = p2 - p0;
  const Vec3 pv = glm::cross(ray.direction, e2);
  const Real det = glm::dot(e1, pv);
  const Real scale = glm::length(e1) * glm::length(e2) * glm::length(ray.direction);
  if (std::abs(det) <= 1e-14 * scale) return false;  // ray parallel to the triangle
  const Real invDet = 1 / det;
  const Vec3 s = ray.origin - p0;
  const Real u = glm::dot(s, pv) * invDet;
  if (u < 0 || u > 1) return false;
  const Vec3 qv = glm::cross(s, e1);
  const Real v = glm::dot(ray.direction, qv) * invDet;
  if (v < 0 || u + v > 1) return false;
  const Real tHit = glm::dot(e2, qv) * invDet;
  if (tHit < 0 || tHit > tMax) return false;
  t = tHit;
  bary = Vec3(1 - u - v, u, v);
  return true;
}

Vec3 closestPointOnTriangle(const Vec3& q, const Vec3& p0, const Vec3& p1, const Vec3& p2, Vec3& bary) {
  auto at = [&](const Vec3& b) {
    bary = b;
    return b.x * p0 + b.y * p1 + b.z * p2;
  };
  // Voronoi regions of the triangle: vertices, then edges, then the face.
  const Vec3 ab = p1 - p0, ac = p2 - p0, ap = q - p0;
  const Real d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return at(Vec3(1, 0, 0));
  const Vec3 bp = q - p1;
  const Real d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return at(Vec3(0, 1, 0));
  const Real vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const Real v = d1 / (d1 - d3);
    return at(Vec3(1 - v, v, 0));
  }
  const Vec3 cp = q - p2;
  const Real d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return at(Vec3(0, 0, 1));
  const Real vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const Real w = d2 / (d2 - d6);
    return at(Vec3(1 - w, 0, w));
  }
  const Real va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    const Real w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return at(Vec3(0, 1 - w, w));
  }
  const Real denom = 1 / (va + vb + vc);
  const Real v = vb * denom, w = vc * denom;
  return at(Vec3(1 - v - w, v, w));
}

std::pair<Real, Real> closestSegmentParameters(const Vec3& p0, const Vec3& p1, const Vec3& q0,
                                               const Vec3& q1) {
  const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const Real a = glm::dot(d1, d1), e = glm::dot(d2, d2), b = glm::dot(d1, d2);
  const Real c = glm::dot(d1, r), f = glm::dot(d2, r);
  const Real denom = a * e - b * b;
  if (!(denom > 1e-12 * a * e)) return {-1, -1};
  return {(b * f - c * e) / denom, (a * f - b * c) / denom};
}

}  // namespace cloth::sim
