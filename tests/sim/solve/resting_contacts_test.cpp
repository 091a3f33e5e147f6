#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/collider.h"
#include "cloth/sim/grid.h"
#include "cloth/sim/scenes/scenes.h"
#include "cloth/sim/simulation.h"
#include "cloth/sim/solve/implicit_cg.h"
#include "cloth/sim/solve/resting_contacts.h"
#include "test_helpers.h"

using namespace cloth::sim;

namespace {

constexpr Real kPi = 3.14159265358979323846;

// A slope of `degrees` whose downhill direction is +x.
Vec3 slopeNormal(Real degrees) {
  const Real a = degrees * kPi / 180;
  return Vec3(std::sin(a), std::cos(a), 0);
}

// One implicit step of two unconnected masses at rest, resting on the slope with friction mu: the
// velocity change of the first.
Vec3 restingStep(Real degrees, Real mu, RestingContact& contact, const Vec3& push = Vec3(0)) {
  const Real m = 0.01, h = 1.0 / 60;
  Cloth c = test::twoMasses(m, Vec3(0), Vec3(1, 0, 0), 1);
  const Stiffness k{0, 0, 0};
  std::vector<Vec3> force(2, Vec3(0, -kGravity * m, 0) + push);
  std::vector<RestingContact> resting(2, RestingContact{slopeNormal(degrees), mu});
  ImplicitCgWork work;
  implicitVelocityChange(c, k, h, 0, force, 50, 1e-12, work, nullptr, nullptr, resting);
  contact = resting[0];
  return work.dv[0];
}

}  // namespace

TEST_CASE("resting_contacts: the filter keeps a sliding node's tangential change and stops a stuck one") {
  const Vec3 n(0, 1, 0), v(0.3, -0.2, 0.1);
  const RestingContact sliding{n, 0.5, false}, stuck{n, 0.5, true};
  CHECK(filterResting(sliding, v) == Vec3(0.3, 0, 0.1));
  CHECK(filterResting(stuck, v) == Vec3(0));
  CHECK(filterResting(RestingContact{}, v) == v);
  CHECK(prescribedChange(sliding, v) == Vec3(0, 0.2, 0));  // its approach goes
  CHECK(prescribedChange(sliding, -v) == Vec3(0));         // leaving: kept
  CHECK(prescribedChange(stuck, v) == -v);                 // stops
}

TEST_CASE(
    "resting_contacts: a node on a slope sticks when mu >= tan(slope) and else slides at Coulomb's rate") {
  const Real h = 1.0 / 60, degrees = 20, tanSlope = std::tan(degrees * kPi / 180);
  const Vec3 n = slopeNormal(degrees);
  RestingContact c;
  // Held: no velocity change at all.
  const Vec3 held = restingStep(degrees, tanSlope + 0.02, c);
  CHECK(c.stuck);
  CHECK(glm::length(held) < 1e-9);
  // Sliding: nothing into the slope, and downhill g h (sin a - mu cos a).
  const Real mu = tanSlope - 0.1;
  const Vec3 slid = restingStep(degrees, mu, c);
  CHECK_FALSE(c.stuck);
  CHECK(std::abs(glm::dot(slid, n)) < 1e-9);
  const Real a = degrees * kPi / 180;
  CHECK(glm::length(slid) == Approx(kGravity * h * (std::sin(a) - mu * std::cos(a))).epsilon(1e-6));
  CHECK(slid.x > 0);
  // Without friction: the full downhill pull.
  CHECK(glm::length(restingStep(degrees, 0, c)) == Approx(kGravity * h * std::sin(a)).epsilon(1e-6));
}

TEST_CASE("resting_contacts: a node pulled off its collider is let go") {
  RestingContact c;
  // Pulled up harder than gravity: the constraint would have to hold it down, so it does not.
  const Vec3 dv = restingStep(0, 0.5, c, Vec3(0, 0.5, 0));
  CHECK_FALSE(c.resting());
  CHECK(dv.y > 0);
}

TEST_CASE("resting_contacts: a cloth on a slope slides below the friction angle and stays above it") {
  // A 10 x 10 cloth of 0.5 m dropped 2 mm (past its 5 mm thickness) onto a 20 degree slope (tan 0.364),
  // 3 s.
  auto slide = [](Real mu) {
    GridSpec spec = GridSpec::fromSpacing(10, 10, 0.05);
    spec.orientation = Orientation::Horizontal;
    Cloth c = buildGrid(spec, 0.002);
    const Vec3 n = slopeNormal(20);
    const Vec3 downhill(std::cos(20 * kPi / 180), -std::sin(20 * kPi / 180), 0);
    // Lay the grid (in the xz plane at y = 0) on the slope, 1 cm above it.
    for (Vec3& p : c.x) p = Vec3(0, 1, 0) + (p.x - 0.225) * downhill + Vec3(0, 0, p.z - 0.225) + 0.007 * n;
    c.restX = c.x;
    SimParams params;
    params.solver.integrator = Integrator::ImplicitCG;
    params.solver.h = 1.0 / 60;
    params.solver.cgMaxIterations = 20;
    params.material.massPerNode = 0.002;
    params.material.tethers = false;
    params.collision.friction = mu;
    Simulation sim(c, params, {Collider::plane(Vec3(0, 1, 0), n)});
    Vec3 start(0);
    for (const Vec3& p : sim.cloth().x) start += p;
    while (sim.time() < 3 - 1e-9) sim.step();
    Vec3 end(0);
    for (const Vec3& p : sim.cloth().x) end += p;
    return glm::dot(end - start, downhill) / static_cast<Real>(sim.cloth().nodeCount());
  };
  const Real a = 20 * kPi / 180;
  // mu 0.3: g (sin a - mu cos a) t^2 / 2 = 2.65 m in 3 s, plus at most the downhill speed it lands with
  // (the 2 mm drop's, along the slope) for 3 s.
  const Real slid = slide(0.3), coulomb = kGravity * (std::sin(a) - 0.3 * std::cos(a)) * 4.5;
  const Real landing = std::sqrt(2 * kGravity * 0.002) * std::sin(a) * 3;
  INFO("slid " << slid << " m at mu 0.3; Coulomb: " << coulomb << " m, + " << landing << " m");
  CHECK(slid > 0.97 * coulomb);
  CHECK(slid < coulomb + landing);
  // mu 0.45 holds it (the previous position-level friction alone held it at 0.3 too).
  CHECK(std::abs(slide(0.45)) < 0.01);
}

TEST_CASE("resting_contacts: a cloth dropped centred on a small ball stays on it") {
  // The drape scene's cloth (1 m, 30 x 30, friction 0.5) on a 0.1 m ball whose top is 0.8 m up. A
  // converged implicit step that does not know the cloth rests on the ball moved it off by 3.5 s
  // (4.5 s at friction 2): its hanging sides pulled the top along.
  Scene scene = *findScene("drape");
  scene.colliders = {Collider::sphere(Vec3(0, 0.7, 0), 0.1), Collider::plane(Vec3(0), Vec3(0, 1, 0))};
  Simulation sim = instantiate(scene);
  auto shareAbove = [&](Real y) {
    int above = 0;
    for (const Vec3& p : sim.cloth().x) above += p.y > y ? 1 : 0;
    return static_cast<Real>(above) / static_cast<Real>(sim.cloth().nodeCount());
  };
  while (sim.time() < 2 - 1e-9) sim.step();
  const Real landed = shareAbove(0.3);
  // Held on the ball inside the solve: some nodes rest, and friction sticks them there.
  CHECK(sim.lastStep().restingNodes > 0);
  CHECK(sim.lastStep().stuckNodes > 0);
  CHECK(sim.lastStep().stuckNodes <= sim.lastStep().restingNodes);
  while (sim.time() < 6 - 1e-9) sim.step();
  INFO("share of the nodes above 0.3 m: " << landed << " at 2 s, " << shareAbove(0.3) << " at 6 s");
  CHECK(landed > 0.7);
  CHECK(shareAbove(0.3) > landed - 0.03);
}
