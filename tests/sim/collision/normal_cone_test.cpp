#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/normal_cone.h"

using namespace cloth::sim;

namespace {

constexpr Real kDegree = std::numbers::pi / 180;

bool holds(const NormalCone& cone, const Vec3& d) {
  const Real angle = std::acos(std::clamp(glm::dot(cone.axis, glm::normalize(d)), -1.0, 1.0));
  return angle <= cone.halfAngle + 1e-9;
}

Vec3 tilted(Real degrees, Real azimuth) {
  const Real a = degrees * kDegree;
  return Vec3(std::sin(a) * std::cos(azimuth), std::sin(a) * std::sin(azimuth), std::cos(a));
}

}  // namespace

TEST_CASE("normal_cone: the cone round directions holds them, and is as narrow as they are spread") {
  const std::vector<Vec3> ring = {tilted(30, 0), tilted(30, 2), tilted(30, 4), 3.0 * tilted(0, 0)};
  const NormalCone cone = NormalCone::around(ring);
  for (const Vec3& d : ring) CHECK(holds(cone, d));
  CHECK(cone.halfAngle < 31 * kDegree);
  CHECK(cone.within(60 * kDegree));
  CHECK_FALSE(cone.within(20 * kDegree));
  CHECK(NormalCone::around(std::vector<Vec3>{}).empty());
  // A crease folded flat: both sides' normals point opposite ways, no axis holds them in 90 degrees.
  CHECK_FALSE(NormalCone::around(std::vector<Vec3>{Vec3(0, 1, 0), Vec3(0, -1, 0)}).within(89 * kDegree));
}

TEST_CASE("normal_cone: a merged cone holds both, and never narrows") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> tilt(0, 50), turn(0, 6.28);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<Vec3> a, b;
    for (int k = 0; k < 4; ++k) a.push_back(tilted(tilt(rng), turn(rng)));
    for (int k = 0; k < 4; ++k) b.push_back(tilted(tilt(rng), turn(rng)));
    const NormalCone merged = merge(NormalCone::around(a), NormalCone::around(b));
    for (const Vec3& d : a) CHECK(holds(merged, d));
    for (const Vec3& d : b) CHECK(holds(merged, d));
    CHECK(merged.halfAngle >= NormalCone::around(a).halfAngle - 1e-12);
  }
  CHECK(merge(NormalCone{}, NormalCone::around(std::vector<Vec3>{Vec3(1, 0, 0)})).axis == Vec3(1, 0, 0));
}

TEST_CASE(
    "normal_cone: a cone round a triangle's swept normal bounds holds its normal all along the motion") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<Real> u(-1, 1);
  auto random = [&] { return Vec3(u(rng), u(rng), u(rng)); };
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Vec3 a0 = random(), b0 = random(), c0 = random();
    const Vec3 a1 = a0 + 0.5 * random(), b1 = b0 + 0.5 * random(), c1 = c0 + 0.5 * random();
    const auto bounds = sweptNormalBounds(a0, b0, c0, a1, b1, c1);
    const NormalCone cone = NormalCone::around(bounds);
    if (!cone.within(std::numbers::pi / 2)) continue;  // turned over: the cone says nothing
    for (int k = 0; k <= 20; ++k) {
      const Real t = k / 20.0;
      const Vec3 a = a0 + t * (a1 - a0), b = b0 + t * (b1 - b0), c = c0 + t * (c1 - c0);
      const Vec3 n = glm::cross(b - a, c - a);
      if (glm::length(n) > 1e-12) CHECK(holds(cone, n));
    }
    ++checked;
  }
  CHECK(checked > 100);
}

TEST_CASE("normal_cone: flatTogether answers as merge(a, b).within(limit) on random cones, empty ones too") {
  // The broad phase asks it of many tree nodes a query (AabbTree::overlappingSwept): one cosine in
  // place of merge's arc tangents, the same answer but within rounding of the limit.
  std::mt19937 rng(11);
  std::uniform_real_distribution<Real> unit(-1, 1), angle(0, std::numbers::pi);
  auto cone = [&] {
    Vec3 axis(unit(rng), unit(rng), unit(rng));
    while (glm::length(axis) < 1e-3) axis = Vec3(unit(rng), unit(rng), unit(rng));
    return NormalCone{glm::normalize(axis), angle(rng) / 2};
  };
  int agreed = 0, flat = 0;
  for (const Real limit : {30 * kDegree, 60 * kDegree, 89 * kDegree, 100 * kDegree, 170 * kDegree}) {
    for (int k = 0; k < 20000; ++k) {
      const NormalCone a = cone(), b = k % 3 == 0 ? NormalCone{a.axis + 0.1 * Vec3(unit(rng)), 0.2} : cone();
      const NormalCone bUnit = {glm::normalize(b.axis), b.halfAngle};
      const NormalCone merged = merge(a, bUnit);
      if (std::abs(merged.halfAngle - limit) < 1e-9) continue;  // rounding decides
      const bool expected = merged.within(limit);
      CHECK(flatTogether(a, bUnit, limit) == expected);
      agreed += flatTogether(a, bUnit, limit) == expected;
      flat += expected;
    }
    CHECK(flatTogether(NormalCone{}, NormalCone{Vec3(0, 0, 1), 0.5 * limit}, limit));
    CHECK(!flatTogether(NormalCone{}, NormalCone{Vec3(0, 0, 1), 1.5 * limit}, limit));
    CHECK(!flatTogether(NormalCone::everywhere(), NormalCone{Vec3(0, 0, 1), 0}, limit));
  }
  CHECK(flat > 5000);  // both answers were asked for often
  CHECK(agreed > 90000);
}
