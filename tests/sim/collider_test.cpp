#include <catch2/catch.hpp>

#include <glm/geometric.hpp>

#include "cloth/sim/collider.h"

using namespace cloth::sim;

TEST_CASE("collider: signed distances and outward normals of sphere, plane and box") {
  const Collider s = Collider::sphere(Vec3(0, 1, 0), 0.5);
  CHECK(closestSurface(s, Vec3(0, 2, 0)).distance == Approx(0.5));
  CHECK(closestSurface(s, Vec3(0, 1.2, 0)).distance == Approx(-0.3));
  CHECK(closestSurface(s, Vec3(0, 2, 0)).normal.y == Approx(1.0));

  const Collider p = Collider::plane(Vec3(0, 0.1, 0), Vec3(0, 2, 0));
  CHECK(closestSurface(p, Vec3(3, -0.4, 7)).distance == Approx(-0.5));
  CHECK(closestSurface(p, Vec3(0, 1, 0)).normal == Vec3(0, 1, 0));

  const Collider b = Collider::box(Vec3(0), Vec3(1, 2, 3));
  CHECK(closestSurface(b, Vec3(2, 0, 0)).distance == Approx(1.0));
  CHECK(closestSurface(b, Vec3(2, 0, 0)).normal == Vec3(1, 0, 0));
  CHECK(closestSurface(b, Vec3(2, 3, 0)).distance == Approx(std::sqrt(2.0)));
  CHECK(closestSurface(b, Vec3(0.9, 0, 0)).distance == Approx(-0.1));  // inside: nearest face
  CHECK(closestSurface(b, Vec3(0.9, 0, 0)).normal == Vec3(1, 0, 0));
  CHECK(closestSurface(b, Vec3(0, -1.95, 0)).normal == Vec3(0, -1, 0));
}

TEST_CASE("collider: bounds hold every point within the margin") {
  const Aabb sb = colliderBounds(Collider::sphere(Vec3(1, 0, 0), 0.5), 0.1);
  CHECK(sb.contains(Vec3(1.59, 0, 0)));
  CHECK_FALSE(sb.contains(Vec3(1.61, 0, 0)));
  const Aabb ground = colliderBounds(Collider::plane(Vec3(0), Vec3(0, 1, 0)), 0.01);
  CHECK(ground.contains(Vec3(1e6, 0.005, -1e6)));
  CHECK_FALSE(ground.contains(Vec3(0, 0.02, 0)));
  const Aabb tilted = colliderBounds(Collider::plane(Vec3(0), Vec3(1, 1, 0)), 0.01);
  CHECK(tilted.contains(Vec3(1e9, 1e9, 1e9)));
}

TEST_CASE("collider: contact response pushes out to the thickness, stops inward motion, applies friction") {
  const SurfacePoint s{-0.02, Vec3(0, 1, 0)};
  Vec3 x(0, -0.02, 0), v(1.0, -2.0, 0);
  REQUIRE(resolveContact(s, 0.005, 0.3, x, v));
  CHECK(x.y == Approx(0.005));
  CHECK(v.y == 0);
  CHECK(v.x == Approx(1.0 - 0.3 * 2.0));  // Coulomb: tangential loss mu |v_n|

  Vec3 slow(0.1, -2.0, 0);
  Vec3 y(0);
  resolveContact(s, 0.005, 0.3, y, slow);
  CHECK(slow == Vec3(0));  // sticks

  Vec3 free(0, 1, 0), away(0, 3, 0);
  CHECK_FALSE(resolveContact({0.5, Vec3(0, 1, 0)}, 0.005, 0.3, free, away));
  CHECK(away.y == 3.0);
}
