#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include <glm/geometric.hpp>

#include "cloth/sim/grid.h"
#include "cloth/sim/wind.h"
#include "test_helpers.h"

using namespace cloth::sim;

TEST_CASE("wind: Kang drag opposes the relative velocity with magnitude K_D |N.u^| |u|^2") {
  std::mt19937 rng(7);
  for (int i = 0; i < 200; ++i) {
    const Vec3 n = test::randomUnit(rng);
    const Vec3 u = test::randomUnit(rng) * (0.1 + 50.0 * i / 200);
    const Vec3 f = kangDrag(n, u, 0.01);
    const Real speed = glm::length(u);
    const Real expected = 0.01 * std::abs(glm::dot(n, u / speed)) * speed * speed;
    CHECK(glm::length(f) == Approx(expected).margin(1e-12));
    CHECK(glm::dot(f, u) <= 1e-12);
    CHECK(glm::length(glm::cross(f, u)) <= 1e-9 * (1 + glm::length(f) * speed));  // parallel to u
  }
}

TEST_CASE("wind: Kang lift is perpendicular to the relative velocity with magnitude K_L cos theta |u|^2") {
  std::mt19937 rng(11);
  for (int i = 0; i < 200; ++i) {
    const Vec3 n = test::randomUnit(rng);
    const Vec3 u = test::randomUnit(rng) * (0.1 + 50.0 * i / 200);
    const Vec3 f = kangLift(n, u, 0.02);
    const Real speed = glm::length(u);
    const Real sinTheta = glm::dot(n, u / speed);
    CHECK(std::abs(glm::dot(f, u)) <= 1e-9 * (1 + glm::length(f) * speed));
    CHECK(glm::length(f) == Approx(0.02 * std::sqrt(1 - sinTheta * sinTheta) * speed * speed).margin(1e-9));
    // It pushes away from the windward face: against N~, the normal facing the oncoming air.
    const Vec3 nTilde = sinTheta > 0 ? n : -n;
    CHECK(glm::dot(f, nTilde) <= 1e-12);
  }
}

TEST_CASE("wind: drag and lift vanish with no relative motion") {
  const Vec3 n(0, 0, 1), wind(40, 0, 0);
  for (WindModel model : {WindModel::Plate, WindModel::Kang, WindModel::Linear}) {
    WindSettings w;
    w.model = model;
    w.velocity = wind;
    std::vector<Vec3> f(3, Vec3(0));
    addWindForces(w, wind, std::vector<Vec3>(3, wind), std::vector<Vec3>(3, n), std::vector<Real>(3, 1.0), f);
    for (std::size_t i = 0; i < 3; ++i) CHECK(glm::length(f[i]) == 0);
  }
  CHECK(glm::length(kangDrag(n, Vec3(0), 1)) == 0);
  CHECK(glm::length(kangLift(n, Vec3(0), 1)) == 0);
  CHECK(glm::length(linearWind(wind, wind, 3)) == 0);
}

TEST_CASE("wind: Huang's linear model pulls towards the wind velocity") {
  const Vec3 f = linearWind(Vec3(1, 0, 0), Vec3(5, 0, 0), 0.5);
  CHECK(f.x == Approx(2.0));
}

TEST_CASE("wind: gusts vary the wind about its mean and steady wind stays constant") {
  WindSettings w;
  w.velocity = Vec3(10, 0, 0);
  CHECK(windVelocityAt(w, 1.234) == w.velocity);
  w.gustStrength = 0.5;
  Real lo = 1e9, hi = -1e9;
  for (int i = 0; i < 1000; ++i) {
    const Real x = windVelocityAt(w, i * 0.01).x;
    lo = std::min(lo, x), hi = std::max(hi, x);
  }
  CHECK(lo >= 10 * (1 - 0.5) - 1e-9);
  CHECK(hi <= 10 * (1 + 0.5) + 1e-9);
  CHECK(hi - lo > 2.0);
}

TEST_CASE(
    "wind: thin-plate lift is K_L sin theta cos theta |u|^2, zero along the flow and continuous through it") {
  std::mt19937 rng(13);
  for (int i = 0; i < 200; ++i) {
    const Vec3 n = test::randomUnit(rng);
    const Vec3 u = test::randomUnit(rng) * (0.1 + 50.0 * i / 200);
    const Vec3 f = plateLift(n, u, 0.02);
    const Real speed = glm::length(u);
    const Real s = std::abs(glm::dot(n, u / speed)), c = std::sqrt(1 - s * s);
    CHECK(glm::length(f) == Approx(0.02 * s * c * speed * speed).margin(1e-9));
    CHECK(std::abs(glm::dot(f, u)) <= 1e-9 * (1 + glm::length(f) * speed));
    // Same direction as Kang's lift, away from the windward face.
    CHECK(glm::dot(f, kangLift(n, u, 1)) >= -1e-12);
  }
  // Kang's lift jumps between +-K_L |u|^2 as the cloth tilts through the flow; the plate's goes to zero.
  const Vec3 u(40, 0, 0);
  for (Real tilt : {1e-6, -1e-6}) {
    const Vec3 n = glm::normalize(Vec3(tilt, 0, 1));
    CHECK(glm::length(kangLift(n, u, 0.01)) == Approx(16.0).epsilon(1e-6));
    CHECK(glm::length(plateLift(n, u, 0.01)) < 1e-4);
  }
  CHECK(glm::dot(kangLift(glm::normalize(Vec3(1e-6, 0, 1)), u, 0.01),
                 kangLift(glm::normalize(Vec3(-1e-6, 0, 1)), u, 0.01)) < -255);
}

TEST_CASE("wind: every node's force is weighted by its share of the cloth's area") {
  const Cloth c = buildGrid(GridSpec::fromSpacing(5, 4, 0.1), 0.01);
  const std::vector<Real> share = nodeAreaShares(c);
  Real sum = 0;
  for (Real s : share) sum += s;
  CHECK(sum == Approx(static_cast<Real>(c.nodeCount())));
  const Real interior = share[c.index(2, 1)];
  CHECK(share[c.index(2, 0)] == Approx(interior / 2));  // edge
  CHECK(share[c.index(0, 0)] == Approx(interior / 4));  // corner
  CHECK(share[c.index(4, 3)] == Approx(interior / 4));
  // A uniform flow onto a flat cloth: force per unit area is the same everywhere.
  WindSettings w;
  w.velocity = Vec3(0, 0, -10);
  std::vector<Vec3> normals(c.nodeCount(), Vec3(0, 0, 1)), f(c.nodeCount(), Vec3(0));
  addWindForces(w, w.velocity, std::vector<Vec3>(c.nodeCount(), Vec3(0)), normals, share, f);
  CHECK(f[c.index(0, 0)].z == Approx(f[c.index(2, 1)].z / 4));
  CHECK(f[c.index(2, 1)].z < 0);
}
