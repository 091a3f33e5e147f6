#include <catch2/catch.hpp>

#include <random>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/aabb.h"
#include "cloth/sim/collision/ccd.h"
#include "test_helpers.h"

using namespace cloth::sim;

namespace {

// (t - r0)(t - r1)(t - r2) as c0 + c1 t + c2 t^2 + c3 t^3.
std::array<Real, 4> fromRoots(Real r0, Real r1, Real r2) {
  return {-r0 * r1 * r2, r0 * r1 + r0 * r2 + r1 * r2, -(r0 + r1 + r2), 1};
}

int roots(const std::array<Real, 4>& c, std::array<Real, 3>& out) {
  return cubicRootsInUnitInterval(c[0], c[1], c[2], c[3], out);
}

MovingQuad still(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  return MovingQuad{{a, b, c, d}, {a, b, c, d}};
}

// A horizontal triangle at y = 0 around the origin, and a point moving from `from` to `to`.
MovingQuad pointAndFloorTriangle(const Vec3& from, const Vec3& to) {
  MovingQuad q = still(from, Vec3(-1, 0, -1), Vec3(1, 0, -1), Vec3(0, 0, 1));
  q.x1[0] = to;
  return q;
}

// Four points within 0.1 m of the origin, each moving up to `move` (m) along each axis.
MovingQuad randomQuad(std::mt19937& rng, Real move) {
  std::uniform_real_distribution<Real> u(-1, 1);
  MovingQuad q;
  for (int i = 0; i < 4; ++i) {
    q.x0[i] = 0.1 * Vec3(u(rng), u(rng), u(rng));
    q.x1[i] = q.x0[i] + move * Vec3(u(rng), u(rng), u(rng));
  }
  return q;
}

}  // namespace

TEST_CASE("ccd: the cubic's roots in [0, 1] are found, ascending, and none outside") {
  std::array<Real, 3> r{};
  REQUIRE(roots(fromRoots(0.2, 0.5, 0.9), r) == 3);
  CHECK(r[0] == Approx(0.2).margin(1e-9));
  CHECK(r[1] == Approx(0.5).margin(1e-9));
  CHECK(r[2] == Approx(0.9).margin(1e-9));
  REQUIRE(roots(fromRoots(-0.5, 0.3, 1.7), r) == 1);
  CHECK(r[0] == Approx(0.3).margin(1e-9));
  CHECK(roots(fromRoots(-2, 1.5, 3), r) == 0);
  REQUIRE(roots(fromRoots(0.4, 0.4, -1), r) >= 1);  // a double root: touches zero without a sign change
  CHECK(r[0] == Approx(0.4).margin(1e-6));
  REQUIRE(roots({-0.25, 1, 0, 0}, r) == 1);  // degree one
  CHECK(r[0] == Approx(0.25).margin(1e-9));
  REQUIRE(roots({0, 0, 0, 0}, r) >= 1);  // coplanar throughout: the step's start
  CHECK(r[0] == 0);
}

TEST_CASE("ccd: Newton's steps find the roots bisection finds, on random cubics and on the CCD's own") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<Real> u(-1, 1), in(-0.2, 1.2);
  auto check = [](const std::array<Real, 4>& c) {
    std::array<Real, 3> fast{}, slow{};
    const int n = cubicRootsInUnitInterval(c[0], c[1], c[2], c[3], fast);
    REQUIRE(n == cubicRootsByBisection(c[0], c[1], c[2], c[3], slow));
    for (int i = 0; i < n; ++i) CHECK(fast[i] == Approx(slow[i]).margin(1e-10));
    return n;
  };
  int found = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    found += check(fromRoots(in(rng), in(rng), in(rng)));  // up to three roots in [0, 1]
    found += check({u(rng), u(rng), u(rng), u(rng)});
    found += check({1e-6 * u(rng), u(rng), 1e3 * u(rng), u(rng)});  // badly scaled
  }
  CHECK(found > 3000);
  for (int trial = 0; trial < 500; ++trial) {  // the coplanarity cubics of random moving quads
    auto point = [&] { return Vec3(u(rng), u(rng), u(rng)); };
    const MovingQuad q{{point(), point(), point(), point()}, {point(), point(), point(), point()}};
    check(coplanarityCubic(q, {1, 2, 3, 0}));
  }
}

TEST_CASE("ccd: the coplanarity cubic is the signed volume of the four moving points") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> u(-1, 1);
  auto point = [&] { return Vec3(u(rng), u(rng), u(rng)); };
  for (int trial = 0; trial < 50; ++trial) {
    const MovingQuad q{{point(), point(), point(), point()}, {point(), point(), point(), point()}};
    const std::array<Real, 4> c = coplanarityCubic(q, {1, 2, 3, 0});
    for (Real t : {0.0, 0.3, 0.7, 1.0}) {
      const Vec3 o = q.at(1, t);
      const Real volume = glm::dot(glm::cross(q.at(2, t) - o, q.at(3, t) - o), q.at(0, t) - o);
      CHECK(((c[3] * t + c[2]) * t + c[1]) * t + c[0] == Approx(volume).margin(1e-12));
    }
  }
}

TEST_CASE("ccd: a point fired through a triangle is caught where it crosses, from the side it came") {
  for (Real speed : {0.01, 1.0, 100.0}) {  // m per step: a crawl, a fall, a point fired at it
    const auto hit = vertexTriangleImpact(
        pointAndFloorTriangle(Vec3(0.1, speed / 4, 0), Vec3(0.1, -3 * speed / 4, 0)), 1e-6);
    REQUIRE(hit);
    CHECK(hit->t == Approx(0.25).margin(1e-6));
    CHECK(hit->normal.y == Approx(1));  // towards where it came from
    CHECK(hit->w[0] == 1);
    CHECK(hit->w[1] + hit->w[2] + hit->w[3] == Approx(-1));
  }
  const auto fromBelow = vertexTriangleImpact(pointAndFloorTriangle(Vec3(0.1, -1, 0), Vec3(0.1, 1, 0)), 1e-6);
  REQUIRE(fromBelow);
  CHECK(fromBelow->normal.y == Approx(-1));
}

TEST_CASE("ccd: a point that passes beside, above or parallel to a triangle does not touch it") {
  CHECK_FALSE(vertexTriangleImpact(pointAndFloorTriangle(Vec3(3, 1, 0), Vec3(3, -1, 0)), 1e-6));  // beside
  CHECK_FALSE(
      vertexTriangleImpact(pointAndFloorTriangle(Vec3(0, 1, 0), Vec3(0, 0.01, 0)), 1e-6));  // stops above
  CHECK_FALSE(
      vertexTriangleImpact(pointAndFloorTriangle(Vec3(-2, 0.1, 0), Vec3(2, 0.1, 0)), 1e-6));  // skims over
}

TEST_CASE("ccd: a point that ends on the triangle without crossing it touches at the step's end") {
  const auto hit = vertexTriangleImpact(pointAndFloorTriangle(Vec3(0.1, 0.5, 0), Vec3(0.1, 0, 0)), 1e-6);
  REQUIRE(hit);
  CHECK(hit->t == Approx(1).margin(1e-6));
  CHECK(hit->normal.y == Approx(1));
}

TEST_CASE("ccd: a moving triangle sweeping over a still point is caught too") {
  MovingQuad q = still(Vec3(0.2, 0, 0.1), Vec3(-1, 1, -1), Vec3(1, 1, -1), Vec3(0, 1, 1));
  for (int k = 1; k < 4; ++k) q.x1[k] = q.x0[k] - Vec3(0, 2, 0);
  const auto hit = vertexTriangleImpact(q, 1e-6);
  REQUIRE(hit);
  CHECK(hit->t == Approx(0.5).margin(1e-6));
  CHECK(hit->normal.y == Approx(-1));  // the point was below the triangle
}

TEST_CASE("ccd: two crossing edges are caught, two that pass apart or in parallel are not") {
  // Edge (a, b) along x at y = 1 drops to y = -1 through edge (c, d) along z at y = 0.
  MovingQuad q = still(Vec3(-1, 1, 0), Vec3(1, 1, 0), Vec3(0.2, 0, -1), Vec3(0.2, 0, 1));
  q.x1[0].y = q.x1[1].y = -1;
  const auto hit = edgeEdgeImpact(q, 1e-6);
  REQUIRE(hit);
  CHECK(hit->t == Approx(0.5).margin(1e-6));
  CHECK(hit->normal.y == Approx(1));
  CHECK(hit->w[0] == Approx(0.4));  // the point at x = 0.2 on (a, b)
  CHECK(hit->w[1] == Approx(0.6));
  CHECK(hit->w[2] + hit->w[3] == Approx(-1));

  MovingQuad apart = q;
  for (int k = 2; k < 4; ++k) apart.x0[k].x = apart.x1[k].x = 1.5;  // beyond b's end
  CHECK_FALSE(edgeEdgeImpact(apart, 1e-6));
  MovingQuad parallel = still(Vec3(-1, 1, 0), Vec3(1, 1, 0), Vec3(-1, 0, 0.5), Vec3(1, 0, 0.5));
  parallel.x1[0].y = parallel.x1[1].y = -1;
  CHECK_FALSE(edgeEdgeImpact(parallel, 1e-6));
}

TEST_CASE("ccd: every point driven through the inside of a random triangle is caught") {
  // The distance test that spares most pairs the cubic must never spare one that collides.
  std::mt19937 rng(11);
  std::uniform_real_distribution<Real> u(0.05, 0.9), side(0.001, 2);
  for (int trial = 0; trial < 2000; ++trial) {
    const Vec3 n = test::randomUnit(rng);
    const Vec3 a = test::randomUnit(rng), b = test::randomUnit(rng), c = test::randomUnit(rng);
    Vec3 nTri = glm::cross(b - a, c - a);
    if (glm::length(nTri) < 0.1) continue;
    nTri = glm::normalize(nTri);
    Real wb = u(rng), wc = u(rng) * (1 - wb);
    const Vec3 inside = a + wb * (b - a) + wc * (c - a);
    MovingQuad q = still(inside + side(rng) * nTri, a, b, c);
    q.x1[0] = inside - side(rng) * nTri;
    const Vec3 drift = 0.3 * n;  // the triangle moves too, the point with it
    for (int k = 0; k < 4; ++k) q.x1[k] += drift;
    const auto hit = vertexTriangleImpact(q, 1e-6);
    REQUIRE(hit);
    CHECK(glm::dot(hit->normal, nTri) > 0.99);
  }
}

TEST_CASE("ccd: primitives whose swept boxes lie apart never come within the tolerance") {
  // Sampled over the step, the closest distance of the two primitives, where the box test says apart.
  std::mt19937 random(11);
  std::uniform_real_distribution<Real> at(-0.05, 0.05), move(-0.03, 0.03);
  const Real tolerance = 0.004;
  int apart = 0, near = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    MovingQuad q;
    for (int k = 0; k < 4; ++k) {
      q.x0[k] = Vec3(at(random), at(random), at(random));
      q.x1[k] = q.x0[k] + Vec3(move(random), move(random), move(random));
    }
    for (int split : {1, 2}) {
      if (!sweptBoxesApart(q, split, tolerance)) {
        ++near;
        continue;
      }
      ++apart;
      Real closest = 1e9;
      for (int s = 0; s <= 200; ++s) {
        const Real t = s / 200.0;
        const Vec3 a = q.at(0, t), b = q.at(1, t), c = q.at(2, t), d = q.at(3, t);
        Vec3 bary;
        if (split == 1) {
          closest = std::min(closest, glm::length(a - closestPointOnTriangle(a, b, c, d, bary)));
        } else {
          for (int i = 0; i <= 20; ++i)  // a point of the first edge against the second
            for (int j = 0; j <= 20; ++j)
              closest =
                  std::min(closest, glm::length((a + (i / 20.0) * (b - a)) - (c + (j / 20.0) * (d - c))));
        }
      }
      CHECK(closest > tolerance);
      CHECK_FALSE((split == 1 ? vertexTriangleImpact(q, tolerance) : edgeEdgeImpact(q, tolerance)));
    }
  }
  CHECK(apart > 500);  // both kinds of pair are met
  CHECK(near > 500);
}

TEST_CASE("ccd: the tests that keep a pair's start distance answer as the plain ones, pass after pass") {
  // The continuous self-contact pass tests a pair in round after round of a step, its ends moved by
  // the pushes in between and its start fixed (self_impacts.cpp): the distance at the start is found
  // once and kept.
  std::mt19937 rng(21);
  std::uniform_real_distribution<Real> u(-1, 1);
  int hits = 0, kept = 0;
  for (int k = 0; k < 4000; ++k) {
    MovingQuad q = randomQuad(rng, 0.05);
    const Real tolerance = 1e-3;
    Real vertexStart = -1, edgeStart = -1;
    for (int pass = 0; pass < 3; ++pass) {
      const auto vertex = vertexTriangleImpact(q, tolerance), edge = edgeEdgeImpact(q, tolerance);
      const auto vertexKept = vertexTriangleImpact(q, tolerance, vertexStart);
      const auto edgeKept = edgeEdgeImpact(q, tolerance, edgeStart);
      REQUIRE(vertexKept.has_value() == vertex.has_value());
      REQUIRE(edgeKept.has_value() == edge.has_value());
      if (vertex) CHECK(vertexKept->t == vertex->t);
      if (edge) CHECK(edgeKept->t == edge->t);
      hits += vertex.has_value() + edge.has_value();
      kept += (vertexStart >= 0) + (edgeStart >= 0);
      for (int i = 0; i < 4; ++i) q.x1[i] += 0.01 * Vec3(u(rng), u(rng), u(rng));  // a push between passes
    }
  }
  CHECK(hits > 200);   // some pairs met,
  CHECK(kept > 5000);  // and most kept their start distance
}

TEST_CASE("ccd: the swept boxes' test an axis at a time answers as the two boxes whole") {
  std::mt19937 rng(22);
  int apart = 0, near = 0;
  for (int k = 0; k < 20000; ++k) {
    const MovingQuad q = randomQuad(rng, 0.02);
    for (int split : {1, 2}) {
      const bool expected = sweptBoxesApartByBoxes(q, split, 1e-3);
      CHECK(sweptBoxesApart(q, split, 1e-3) == expected);
      apart += expected;
      near += !expected;
    }
  }
  CHECK(apart > 5000);  // both answers were asked for often
  CHECK(near > 5000);
}
