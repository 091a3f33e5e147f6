#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <set>
#include <vector>

#include <glm/geometric.hpp>

#include "cloth/sim/forces.h"
#include "cloth/sim/grid.h"
#include "cloth/sim/scenes/scenes.h"
#include "cloth/sim/scenes/stats.h"
#include "cloth/sim/simulation.h"
#include "cloth/sim/solve/small_steps.h"
#include "test_helpers.h"

using namespace cloth::sim;

TEST_CASE("small_steps: no two springs of a colour share a node, and every spring has one colour") {
  GridSpec spec;
  spec.nu = 13;
  spec.nv = 9;
  for (bool single : {false, true}) {
    spec.singleShear = single;
    const Cloth c = buildGrid(spec, 0.01);
    const SpringColours colours = colourSprings(c);
    std::vector<int> seen(c.springs.size(), 0);
    for (std::size_t k = 0; k < colours.colourCount(); ++k) {
      std::set<NodeIndex> nodes;
      for (std::uint32_t s : colours.colour(k)) {
        ++seen[s];
        CHECK(nodes.insert(c.springs[s].a).second);
        CHECK(nodes.insert(c.springs[s].b).second);
      }
    }
    CHECK(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
    CHECK(colours.colourCount() <= 12);  // a grid's structural, shear and bending springs
  }
}

TEST_CASE("small_steps: a soft spring's projection is the spring's impulse in a symplectic Euler step") {
  // k s^2 / m = 1e-4: XPBD's compliance term dominates, dlambda = -C k s^2 / (1 + k s^2 (wa + wb)).
  const Real m = 0.5, k = 50, s = 1e-3, rest = 1, stretch = 0.1;
  Vec3 xa(0), xb(rest + stretch, 0, 0);
  projectSpring(xa, xb, 1 / m, 1 / m, rest, k, 1, s);
  const Real impulse = s * s * k * stretch / m;  // the move of a symplectic Euler step from rest
  CHECK(xa.x == Approx(impulse).epsilon(1e-3));
  CHECK(xb.x - (rest + stretch) == Approx(-impulse).epsilon(1e-3));
  // A stiff spring is pulled almost to its rest length; a kinematic end (w = 0) stays.
  Vec3 ya(0), yb(rest + stretch, 0, 0);
  projectSpring(ya, yb, 0, 1 / m, rest, 1e9, 1, s);
  CHECK(ya == Vec3(0));
  CHECK(yb.x == Approx(rest).epsilon(1e-4));  // within alpha / (k s^2 w) = 1e-3 of the stretch
  // Compressed, it pushes with k times the compression factor.
  Vec3 za(0), zb(rest - stretch, 0, 0), wa(0), wb(rest - stretch, 0, 0);
  projectSpring(za, zb, 1 / m, 1 / m, rest, k, 0.1, s);
  projectSpring(wa, wb, 1 / m, 1 / m, rest, 0.1 * k, 1, s);
  CHECK(za == wa);
  CHECK(zb == wb);
}

TEST_CASE("small_steps: the sweep's kernel moves each spring as the readable projection does") {
  std::mt19937 random(5);
  std::uniform_real_distribution<Real> unit(-1, 1);
  const Real s = 1.0 / 2400, rest = 0.05;
  int compressed = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Vec3 a(unit(random), unit(random), unit(random));
    const Vec3 b =
        a + (rest * (1 + 0.3 * unit(random))) * glm::normalize(Vec3(unit(random), unit(random), 1));
    const Real wa = trial % 7 == 0 ? 0 : 250 * (1 + unit(random)), wb = 250 * (1 + unit(random));
    const Real k = trial % 11 == 0 ? 0 : 400 * (1.5 + unit(random)), compression = trial % 3 == 0 ? 0 : 0.05;
    compressed += glm::length(a - b) < rest;
    Vec3 xa = a, xb = b, ya = a, yb = b;
    projectSpring(xa, xb, wa, wb, rest, k, compression, s);
    projectLink(ya, yb, wa, wb, rest, complianceOf(k, s), complianceOf(k * compression, s));
    INFO("trial " << trial);
    CHECK(glm::length(xa - ya) <= 1e-14);
    CHECK(glm::length(xb - yb) <= 1e-14);
  }
  CHECK(compressed > 500);
}

TEST_CASE("small_steps: the step count splits h into pieces no longer than the small step") {
  CHECK(smallStepCount(1.0 / 60, 1.0 / 2400) == 40);
  CHECK(smallStepCount(1.0 / 60, 1.0 / 960) == 16);
  CHECK(smallStepCount(1.0 / 60, 0.005) == 4);
  CHECK(smallStepCount(1e-3, 1.0 / 960) == 1);
  CHECK(smallStepCount(1e-3, 0) == 1);
  CHECK(smallStepCount(0.05, 1e-4) == kMostSmallSteps);
}

namespace {

// A mass on a spring to a pinned node, stretched and let go, in small steps with theta: the largest
// stretch over its last period after `periods` periods, over the first.
Real amplitudeKept(Real theta, int periods) {
  Cloth c = test::twoMasses(0.01, Vec3(0), Vec3(1.05, 0, 0), 1);
  c.kind[0] = NodeKind::Pinned;
  SimParams p;
  p.gravity = Vec3(0);
  p.material.kStructural = 100;
  p.solver.theta = theta;
  p.solver.smallStep = 1e-3;  // omega s = 0.1: a tenth of a radian a step
  const Real period = 2 * std::numbers::pi * std::sqrt(0.01 / 100);
  SmallStepsWork work;
  Real first = 0, last = 0;
  for (Real t = 0; t < periods * period; t += p.solver.smallStep) {
    stepSmall(c, p, t, p.solver.smallStep, work);
    const Real stretch = std::abs(glm::length(c.x[1] - c.x[0]) - 1);
    if (t < period) first = std::max(first, stretch);
    if (t >= (periods - 1) * period) last = std::max(last, stretch);
  }
  return last / first;
}

}  // namespace

TEST_CASE(
    "small_steps: the midpoint rule (theta 0.5) keeps a spring's oscillation, backward Euler damps it") {
  const Real midpoint = amplitudeKept(0.5, 20), backward = amplitudeKept(1.0, 20);
  INFO("amplitude kept after 20 periods: theta 0.5 " << midpoint << ", theta 1 " << backward);
  CHECK(midpoint >= 0.95);
  CHECK(midpoint <= 1.05);
  CHECK(backward <= 0.5);
}

TEST_CASE("small_steps: the flag at 100^2 gives the same answer on one thread and on two") {
  // The springs of a colour share no node, so any split of a colour gives the same positions.
  Scene scene = *findScene("flag");
  resampleGrid(scene, 100, 100);
  scene.params.solver.smallStep = 1.0 / 240;  // 4 small steps a frame: the test is about threads
  std::vector<Vec3> x[2];
  for (int threads : {1, 2}) {
    scene.params.solver.threads = threads;
    Simulation sim = instantiate(scene);
    for (int i = 0; i < 6; ++i) sim.step();
    REQUIRE(sim.lastStep().smallSteps == 4);
    x[threads - 1] = sim.cloth().x;
  }
  CHECK(x[0] == x[1]);
}

TEST_CASE("small_steps: a step's Provot passes are shared among its small steps, and the limit holds") {
  // The 40^2 flag in its 40 m/s wind holds its springs at the limit: with all its 64 passes in each of
  // its 40 small steps it ran 1,534 passes a step (up to 2,397); shared, two a small step, 102. The
  // step's own limit after them (its 64 passes and the strain projection) keeps every spring within tau.
  Scene scene = *findScene("flag");
  resampleGrid(scene, 40, 40);
  REQUIRE(scene.params.solver.integrator == Integrator::SmallSteps);
  REQUIRE(scene.params.material.provotPasses == 64);
  Simulation sim = instantiate(scene);
  long passes = 0;
  Real worst = 0;
  for (int i = 0; i < 60; ++i) {  // 1 s
    sim.step();
    REQUIRE(sim.lastStep().smallSteps == 40);
    passes += sim.lastStep().provotPasses;
    worst = std::max({worst, maxStrain(sim.cloth(), SpringFamily::Structural),
                      maxStrain(sim.cloth(), SpringFamily::Shear)});
  }
  INFO("Provot passes a step: " << passes / 60.0 << "; largest strain " << worst);
  CHECK(passes / 60.0 <= 200);
  CHECK(worst <= scene.params.material.tau + 0.01);
}

TEST_CASE("small_steps: with shared passes the flag stays within tau + 0.01 at every step of 10 s") {
  // The step's own limit must not count as done what it left over: the strain projection declines a
  // spring more than 10 % over its limit and takes only the structural springs, and with the passes
  // shared the 10^2 flag kept a spring at strain 0.214 for a step at 10 s (the 100^2 flag its shear
  // springs at up to 0.29) while the limit reported none left. Now another round of passes follows.
  Scene scene = *findScene("flag");
  Simulation sim = instantiate(scene);
  Real worst = 0;
  while (sim.time() < 10 - 1e-9) {
    sim.step();
    if (sim.time() < 1) continue;  // the flag unfurls from flat in its first second
    worst = std::max({worst, maxStrain(sim.cloth(), SpringFamily::Structural),
                      maxStrain(sim.cloth(), SpringFamily::Shear)});
  }
  CHECK(worst <= scene.params.material.tau + 0.01);
}
