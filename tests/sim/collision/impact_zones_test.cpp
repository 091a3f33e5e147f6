#include "cloth/sim/collision/impact_zones.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <glm/geometric.hpp>

using namespace cloth::sim;

namespace {

// Four nodes of unequal mass, not in one plane.
const std::vector<Vec3> kStart = {Vec3(0, 0, 0), Vec3(0.1, 0, 0), Vec3(0, 0.1, 0.02), Vec3(0.03, 0.01, 0.1)};
const std::vector<Real> kMass = {0.01, 0.02, 0.01, 0.03};
const std::vector<NodeIndex> kAll = {0, 1, 2, 3};

Vec3 turnAboutZ(const Vec3& v, Real angle) {
  return Vec3(v.x * std::cos(angle) - v.y * std::sin(angle), v.x * std::sin(angle) + v.y * std::cos(angle),
              v.z);
}

Real distance(const std::vector<Vec3>& x, int a, int b) {
  return glm::length(x[a] - x[b]);
}

}  // namespace

TEST_CASE("impact_zones: a zone already moving rigidly keeps its motion") {
  // Exactly for a shift; for a turn, to within a small fraction of the motion (the turn is read from
  // the angular momentum of straight paths, Bridson §7.2: exact as the turn per step goes to zero).
  for (Real angle : {0.0, 0.02, 0.1}) {
    INFO("turn " << angle << " rad");
    std::vector<Vec3> intended;
    for (const Vec3& p : kStart) intended.push_back(turnAboutZ(p, angle) + Vec3(0.02, -0.05, 0.01));
    std::vector<Vec3> x(kStart.size());
    moveRigidly(kAll, kStart, intended, kMass, x);
    for (std::size_t i = 0; i < x.size(); ++i) {
      const Real motion = glm::length(intended[i] - kStart[i]);
      CHECK(glm::length(x[i] - intended[i]) <= (angle == 0 ? 1e-12 : 0.05 * angle * motion));
    }
  }
}

TEST_CASE("impact_zones: a zone moves rigidly with its nodes' momentum and angular momentum") {
  // Nodes that wanted to move apart, one of them far: the zone keeps its shape, its mass-weighted
  // motion and its angular momentum about the centre of mass.
  const std::vector<Vec3> intended = {kStart[0] + Vec3(0, -0.05, 0), kStart[1] + Vec3(0, 0.04, 0),
                                      kStart[2] + Vec3(0.01, 0, 0), kStart[3] + Vec3(0, 0, -0.02)};
  std::vector<Vec3> x(kStart.size());
  moveRigidly(kAll, kStart, intended, kMass, x);
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b) CHECK(distance(x, a, b) == Approx(distance(kStart, a, b)).epsilon(1e-9));
  Vec3 wanted(0), got(0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    wanted += kMass[i] * (intended[i] - kStart[i]);
    got += kMass[i] * (x[i] - kStart[i]);
  }
  CHECK(glm::length(got - wanted) < 1e-12);
  // The zone turns the way its momentum turns it: node 1 (wanting +y) rises relative to node 0.
  CHECK(x[1].y - x[0].y > kStart[1].y - kStart[0].y);
}

TEST_CASE("impact_zones: a zone of two nodes, in one line, turns only about an axis across it") {
  const std::vector<NodeIndex> pair = {0, 1};
  const std::vector<Vec3> intended = {kStart[0] + Vec3(0, 0.01, 0), kStart[1] + Vec3(0, -0.01, 0)};
  std::vector<Vec3> x(2);
  moveRigidly(pair, kStart, intended, kMass, x);
  CHECK(distance(x, 0, 1) == Approx(0.1).epsilon(1e-9));
  CHECK(std::isfinite(x[0].x));
  CHECK(x[0].z == Approx(0).margin(1e-12));  // turned about z only
  CHECK(x[0].y > 0);
}

TEST_CASE("impact_zones: zones merge pair by pair and list each node once") {
  ImpactZones zones;
  zones.reset(10);
  CHECK(zones.empty());
  zones.merge(std::vector<NodeIndex>{7, 3});
  zones.merge(std::vector<NodeIndex>{5, 1, 2});
  zones.merge(std::vector<NodeIndex>{2, 7});
  zones.merge(std::vector<NodeIndex>{8, 8});
  const auto z = zones.zones();
  REQUIRE(z.size() == 2);
  CHECK(z[0] == std::vector<NodeIndex>{1, 2, 3, 5, 7});
  CHECK(z[1] == std::vector<NodeIndex>{8});
  CHECK(zones.zoneOf(7) == zones.zoneOf(1));
  CHECK(zones.zoneOf(0) == 0);
}
