#pragma once
// Rigid colliders and their contact response (Huang §5): push out along the normal, cancel the
// inward velocity, Coulomb friction on the rest.

#include "cloth/sim/aabb.h"

namespace cloth::sim {

enum class ColliderShape { Sphere, Plane, Box };

/// A static rigid obstacle. Which fields matter depends on the shape.
struct Collider {
  ColliderShape shape = ColliderShape::Sphere;
  Vec3 center{0};          ///< sphere or box centre, or a point on the plane (m)
  Real radius = 0.25;      ///< sphere radius (m)
  Vec3 normal{0, 1, 0};    ///< plane normal, unit length
  Vec3 halfExtents{0.25};  ///< box half sizes along x, y, z (m)

  static Collider sphere(const Vec3& center, Real radius);
  static Collider plane(const Vec3& point, const Vec3& normal);
  static Collider box(const Vec3& center, const Vec3& halfExtents);
};

/// Signed distance (m, negative inside) of a point to a collider's surface and the outward normal there.
struct SurfacePoint {
  Real distance = 0;
  Vec3 normal{0, 1, 0};
};

SurfacePoint closestSurface(const Collider& c, const Vec3& p);

/// Box that holds every point within `margin` of the collider's solid (unbounded for tilted planes).
Aabb colliderBounds(const Collider& c, Real margin);

/// If p lies closer than `thickness` to the surface: moves it out along the normal to `thickness`,
/// removes the inward normal velocity and applies Coulomb friction (coefficient mu) to the tangential
/// velocity. Returns whether there was a contact.
bool resolveContact(const SurfacePoint& s, Real thickness, Real mu, Vec3& x, Vec3& v);

}  // namespace cloth::sim
