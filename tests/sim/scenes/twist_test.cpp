#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/intersections.h"
#include "cloth/sim/scenes/scenes.h"
#include "cloth/sim/scenes/stats.h"

using namespace cloth::sim;

namespace {

// The angle (rad) the held node `n` has turned about the twist's axis from where it started.
Real turned(const Simulation& sim, NodeIndex n) {
  const PinMotion& m = sim.pinMotion();
  const Vec3 from = sim.cloth().restX[n] - m.pivot, to = sim.cloth().x[n] - m.pivot;
  const Vec3 a = from - glm::dot(from, m.axis) * m.axis, b = to - glm::dot(to, m.axis) * m.axis;
  return std::atan2(glm::dot(glm::cross(a, b), m.axis), glm::dot(a, b));
}

}  // namespace

// Issue #41's twist: the held edges turn opposite ways about the cloth's middle line and draw together
// (scenes.cpp says why they must), and the cloth coils. Through its first 2 s (the edges half a turn
// apart) it holds: never through itself, Provot's limit kept at every step. Past 2.4 s it does not yet
// (the torture bench's twist row, NOT MET: the coil's held contacts stretch it, and then it passes
// through itself).
TEST_CASE("scenes: the twist's edges turn opposite ways and the coiling cloth holds for 2 s") {
  const Scene scene = *findScene("twist");
  REQUIRE(scene.grid.nu == 40);
  Simulation sim = instantiate(scene);
  const Cloth& c = sim.cloth();
  const NodeIndex left = c.index(0, 0), right = c.index(c.nu - 1, 0);
  REQUIRE(c.kind[left] == NodeKind::Pinned);
  REQUIRE(c.kind[right] == NodeKind::Pinned);
  REQUIRE(c.kind[c.index(c.nu / 2, 0)] == NodeKind::Free);
  ContactAudit audit;
  int worstIntersections = 0;
  Real worstStrain = 0;
  for (int step = 0; step < 120; ++step) {  // 2 s
    sim.step();
    worstIntersections = std::max(worstIntersections, audit.measure(c, sim.colliders()).selfIntersections);
    worstStrain =
        std::max({worstStrain, maxStrain(c, SpringFamily::Structural), maxStrain(c, SpringFamily::Shear)});
  }
  REQUIRE(isFinite(c));
  // A turn each in 8 s: 2 s in, each edge has turned a quarter turn, the other way from the other, and
  // the edges are 0.2 m apart (drawn in over the first 2 s).
  const Real quarter = std::numbers::pi / 2;
  CHECK(turned(sim, right) == Approx(quarter).margin(1e-6));
  CHECK(turned(sim, left) == Approx(-quarter).margin(1e-6));
  CHECK(c.x[right].x - c.x[left].x == Approx(0.2).margin(1e-9));
  // Coiled: the free middle of each long edge has been carried far round, off the cloth's flat start.
  const Vec3 mid = c.x[c.index(c.nu / 2, 0)];
  CHECK(glm::length(mid - c.restX[c.index(c.nu / 2, 0)]) > 0.2);
  CHECK(worstIntersections == 0);
  CHECK(worstStrain <= scene.params.material.tau + 0.01);
}

// The coil tightening from 2 s to 2.6 s (the edges 180-234 degrees apart) pushes pairs beside the turning
// edges, whose other nodes are pinned: no node may be flung. The held edges' corners move at 0.39 m/s and
// the cloth follows at about that (fastest 0.77 m/s); before the self-contact pushes' leverage was
// bounded (self_collision.cpp) a node next to a pinned edge left a step at 120 m/s (4 J, at 2.23 s) and
// another at 128 m/s (2.57 s).
TEST_CASE("scenes: the twist's coil never flings a node beside its turning edges") {
  Simulation sim = instantiate(*findScene("twist"));
  const Cloth& c = sim.cloth();
  Real fastest = 0, mostEnergy = 0;
  for (int step = 0; step < 156; ++step) {  // 2.6 s
    sim.step();
    if (step < 120) continue;
    Real energy = 0;
    for (std::size_t i = 0; i < c.nodeCount(); ++i) {
      fastest = std::max(fastest, glm::length(c.v[i]));
      energy += 0.5 * c.mass[i] * glm::dot(c.v[i], c.v[i]);
    }
    mostEnergy = std::max(mostEnergy, energy);
  }
  REQUIRE(isFinite(c));
  CHECK(fastest < 3);       // m/s
  CHECK(mostEnergy < 0.1);  // J (0.8 kg of cloth)
}
