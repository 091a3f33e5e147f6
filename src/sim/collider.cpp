#include "cloth/sim/collider.h"

#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace cloth::sim {
namespace {

SurfacePoint sphereSurface(const Collider& c, const Vec3& p) {
  const Vec3 d = p - c.center;
  const Real len = glm::length(d);
  const Vec3 n = len > 0 ? d / len : Vec3(0, 1, 0);
  return {len - c.radius, n};
}

SurfacePoint boxSurface(const Collider& c, const Vec3& p) {
  const Vec3 local = p - c.center;
  const Vec3 q = glm::abs(local) - c.halfExtents;
  const Vec3 outside = glm::max(q, Vec3(0));
  const Real outLen = glm::length(outside);
  if (outLen > 0) return {outLen, glm::sign(local) * outside / outLen};
  int axis = 0;  // inside: leave through the nearest face
  if (q.y > q[axis]) axis = 1;
  if (q.z > q[axis]) axis = 2;
  Vec3 n(0);
  n[axis] = local[axis] >= 0 ? 1 : -1;
  return {q[axis], n};
}

}  // namespace

Collider Collider::sphere(const Vec3& center, Real radius) {
  Collider c;
  c.shape = ColliderShape::Sphere;
  c.center = center;
  c.radius = radius;
  return c;
}

Collider Collider::plane(const Vec3& point, const Vec3& normal) {
  Collider c;
  c.shape = ColliderShape::Plane;
  c.center = point;
  c.normal = glm::normalize(normal);
  return c;
}

Collider Collider::box(const Vec3& center, const Vec3& halfExtents) {
  Collider c;
  c.shape = ColliderShape::Box;
  c.center = center;
  c.halfExtents = halfExtents;
  return c;
}

SurfacePoint closestSurface(const Collider& c, const Vec3& p) {
  switch (c.shape) {
    case ColliderShape::Sphere:
      return sphereSurface(c, p);
    case ColliderShape::Plane:
      return {glm::dot(p - c.center, c.normal), c.normal};
    case ColliderShape::Box:
      return boxSurface(c, p);
  }
  return {};
}

Aabb colliderBounds(const Collider& c, Real margin) {
  switch (c.shape) {
    case ColliderShape::Sphere:
      return Aabb{c.center - Vec3(c.radius), c.center + Vec3(c.radius)}.inflated(margin);
    case ColliderShape::Box:
      return Aabb{c.center - c.halfExtents, c.center + c.halfExtents}.inflated(margin);
    case ColliderShape::Plane: {
      Aabb b = Aabb::everything();
      for (int a = 0; a < 3; ++a) {  // an axis-aligned plane bounds one side of one axis
        if (std::abs(c.normal[a]) < 1 - 1e-12) continue;
        if (c.normal[a] > 0)
          b.hi[a] = c.center[a] + margin;
        else
          b.lo[a] = c.center[a] - margin;
      }
      return b;
    }
  }
  return Aabb::everything();
}

bool resolveContact(const SurfacePoint& s, Real thickness, Real mu, Vec3& x, Vec3& v) {
  if (s.distance >= thickness) return false;
  x += (thickness - s.distance) * s.normal;
  const Real vn = glm::dot(v, s.normal);
  if (vn >= 0) return true;  // already separating
  Vec3 vt = v - vn * s.normal;
  const Real vtLen = glm::length(vt);
  const Real slowdown = mu * -vn;  // Coulomb: tangential speed lost is at most mu times the normal speed lost
  vt = vtLen > slowdown ? vt * (1 - slowdown / vtLen) : Vec3(0);
  v = vt;
  return true;
}

}  // namespace cloth::sim
