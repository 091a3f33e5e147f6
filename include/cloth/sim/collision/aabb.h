#pragma once
// Axis-aligned bounding boxes and rays (Huang §5: a box test needs at most six comparisons).

#include <limits>
#include <span>
#include <utility>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "cloth/sim/types.h"

namespace cloth::sim {

struct Aabb {
  Vec3 lo{std::numeric_limits<Real>::infinity()};
  Vec3 hi{-std::numeric_limits<Real>::infinity()};

  static Aabb everything();
  bool empty() const { return lo.x > hi.x || lo.y > hi.y || lo.z > hi.z; }
  void grow(const Vec3& p) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  void grow(const Aabb& b) {
    lo = glm::min(lo, b.lo);
    hi = glm::max(hi, b.hi);
  }
  Aabb inflated(Real margin) const { return {lo - Vec3(margin), hi + Vec3(margin)}; }
  /// Six comparisons (Huang §5), all of them, without early exits: no branch to mispredict in the
  /// tree queries, where most tests fail on a coin toss (the 64^2 ball's self-pair search, one thread:
  /// 13.5 -> 12.8 ms a step).
  bool overlaps(const Aabb& b) const {
    return (lo.x <= b.hi.x) & (b.lo.x <= hi.x) & (lo.y <= b.hi.y) & (b.lo.y <= hi.y) & (lo.z <= b.hi.z) &
           (b.lo.z <= hi.z);
  }
  bool contains(const Vec3& p) const {
    return lo.x <= p.x && p.x <= hi.x && lo.y <= p.y && p.y <= hi.y && lo.z <= p.z && p.z <= hi.z;
  }
  Vec3 center() const { return 0.5 * (lo + hi); }
  Vec3 extent() const { return hi - lo; }
  /// 0, 1 or 2: the axis along which the box is longest (the first of equals).
  int widestAxis() const {
    const Vec3 e = extent();
    if (e.x >= e.y && e.x >= e.z) return 0;
    return e.y >= e.z ? 1 : 2;
  }
  /// How far p is from the box (m), 0 inside it.
  Real distance(const Vec3& p) const { return glm::length(glm::max(glm::max(lo - p, p - hi), Vec3(0))); }
};

/// Bounding box of a set of points (empty box for no points).
Aabb boundsOf(std::span<const Vec3> points);

/// Ray origin + t direction, t >= 0. The direction need not be unit length.
struct Ray {
  Vec3 origin{0};
  Vec3 direction{0, 0, -1};
  Vec3 at(Real t) const { return origin + t * direction; }
};

/// Slab test: whether the ray meets the box for some t in [0, tMax]; tEnter receives the entry t.
bool intersects(const Ray& ray, const Aabb& box, Real tMax, Real* tEnter = nullptr);

/// Two-sided ray/triangle intersection (Moller-Trumbore). On a hit with t in [0, tMax] returns true and
/// writes t and the barycentric coordinates (w0, w1, w2) of the hit point.
bool intersects(const Ray& ray, const Vec3& p0, const Vec3& p1, const Vec3& p2, Real tMax, Real& t,
                Vec3& bary);

/// Parameters (s along p0-p1, t along q0-q1) of the closest points of the lines through two segments,
/// or (-1, -1) when they are parallel. Either may lie outside [0, 1].
std::pair<Real, Real> closestSegmentParameters(const Vec3& p0, const Vec3& p1, const Vec3& q0,
                                               const Vec3& q1);

/// Closest point of triangle (p0, p1, p2) to q, with its barycentric coordinates.
Vec3 closestPointOnTriangle(const Vec3& q, const Vec3& p0, const Vec3& p1, const Vec3& p2, Vec3& bary);

}  // namespace cloth::sim
