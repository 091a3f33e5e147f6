#include <catch2/catch.hpp>

#include <random>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/aabb.h"
#include "test_helpers.h"

using namespace cloth::sim;

TEST_CASE("aabb: growing, overlap and containment") {
  Aabb a;
  CHECK(a.empty());
  a.grow(Vec3(0));
  a.grow(Vec3(1, 2, 3));
  CHECK(a.contains(Vec3(0.5, 1, 1)));
  CHECK_FALSE(a.contains(Vec3(1.5, 1, 1)));
  CHECK(a.overlaps(Aabb{Vec3(1, 2, 3), Vec3(4)}));  // touching counts
  CHECK_FALSE(a.overlaps(Aabb{Vec3(1.01, 0, 0), Vec3(4)}));
  CHECK(a.inflated(0.5).contains(Vec3(-0.4)));
}

TEST_CASE("aabb: ray-box slab test, including axis-parallel rays") {
  const Aabb box{Vec3(-1), Vec3(1)};
  Real t = 0;
  CHECK(intersects(Ray{Vec3(-5, 0, 0), Vec3(1, 0, 0)}, box, 100, &t));
  CHECK(t == Approx(4.0));
  CHECK_FALSE(intersects(Ray{Vec3(-5, 2, 0), Vec3(1, 0, 0)}, box, 100));
  CHECK_FALSE(intersects(Ray{Vec3(-5, 0, 0), Vec3(-1, 0, 0)}, box, 100));  // pointing away
  CHECK_FALSE(intersects(Ray{Vec3(-5, 0, 0), Vec3(1, 0, 0)}, box, 3));     // too short
  CHECK(intersects(Ray{Vec3(0), Vec3(0, 1, 0)}, box, 100));                // starts inside
}

TEST_CASE("aabb: ray-triangle hits report t and barycentric coordinates") {
  const Vec3 p0(0, 0, 0), p1(1, 0, 0), p2(0, 1, 0);
  Real t;
  Vec3 b;
  REQUIRE(intersects(Ray{Vec3(0.25, 0.25, 2), Vec3(0, 0, -1)}, p0, p1, p2, 10, t, b));
  CHECK(t == Approx(2.0));
  CHECK(b.x == Approx(0.5));
  CHECK(b.y == Approx(0.25));
  CHECK(b.z == Approx(0.25));
  CHECK(intersects(Ray{Vec3(0.25, 0.25, -2), Vec3(0, 0, 1)}, p0, p1, p2, 10, t, b));  // two-sided
  CHECK_FALSE(intersects(Ray{Vec3(0.75, 0.75, 2), Vec3(0, 0, -1)}, p0, p1, p2, 10, t, b));
}

TEST_CASE("aabb: closest point on a triangle is never beaten by sampling the triangle") {
  std::mt19937 rng(3);
  std::uniform_real_distribution<Real> u(-1, 1), w(0, 1);
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 p0(u(rng), u(rng), u(rng)), p1(u(rng), u(rng), u(rng)), p2(u(rng), u(rng), u(rng));
    const Vec3 q = 2.0 * Vec3(u(rng), u(rng), u(rng));
    Vec3 bary;
    const Vec3 c = closestPointOnTriangle(q, p0, p1, p2, bary);
    CHECK(glm::length(c - (bary.x * p0 + bary.y * p1 + bary.z * p2)) < 1e-9);
    CHECK(bary.x >= -1e-12);
    CHECK(bary.y >= -1e-12);
    CHECK(bary.z >= -1e-12);
    const Real best = glm::length(q - c);
    for (int s = 0; s < 300; ++s) {
      Real a = w(rng), b = w(rng);
      if (a + b > 1) a = 1 - a, b = 1 - b;
      CHECK(glm::length(q - (p0 + a * (p1 - p0) + b * (p2 - p0))) >= best - 1e-9);
    }
  }
}
