#include <catch2/catch.hpp>

#include <glm/geometric.hpp>

#include "cloth/sim/forces.h"
#include "cloth/sim/names.h"
#include "cloth/sim/scenes.h"
#include "cloth/sim/stats.h"
#include "test_helpers.h"

using namespace cloth::sim;

namespace {

SimParams stillParams(Integrator integrator) {
  SimParams p;
  p.gravity = Vec3(0);
  p.wind.dragCoefficient = p.wind.liftCoefficient = 0;
  p.solver.integrator = integrator;
  return p;
}

Real totalEnergy(const Simulation& s) {
  return kineticEnergy(s.cloth()) + springEnergy(s.cloth(), stiffnessOf(s.params().material)) +
         gravityEnergy(s.cloth(), s.params().gravity);
}

const Integrator kAll[] = {Integrator::ApproxImplicit, Integrator::Explicit, Integrator::ImplicitCG};

}  // namespace

TEST_CASE("simulation: a cloth at rest with no gravity stays at rest") {
  for (Integrator integrator : kAll) {
    Simulation sim(buildGrid(GridSpec::fromSpacing(9, 7, 0.05), 0.002), stillParams(integrator));
    const std::vector<Vec3> start = sim.cloth().x;
    for (int i = 0; i < 500; ++i) sim.step();
    INFO(std::string(name(integrator)));
    for (std::size_t i = 0; i < start.size(); ++i) CHECK(glm::length(sim.cloth().x[i] - start[i]) < 1e-12);
    CHECK(kineticEnergy(sim.cloth()) < 1e-20);
  }
}

TEST_CASE("simulation: pinned nodes never move") {
  for (Integrator integrator : kAll) {
    Scene scene = *findScene("hang-vertical");
    scene.params.solver.integrator = integrator;
    Simulation sim = instantiate(scene);
    std::vector<std::pair<NodeIndex, Vec3>> pinned;
    for (std::size_t i = 0; i < sim.cloth().nodeCount(); ++i)
      if (sim.isPinned(static_cast<NodeIndex>(i)))
        pinned.emplace_back(static_cast<NodeIndex>(i), sim.cloth().x[i]);
    REQUIRE(pinned.size() == 2);
    while (sim.time() < 1.0) {
      sim.step();
      for (const auto& [n, p] : pinned) REQUIRE(sim.cloth().x[n] == p);
    }
  }
}

TEST_CASE("simulation: total energy does not grow without external forces") {
  for (Integrator integrator : {Integrator::ApproxImplicit, Integrator::ImplicitCG}) {
    Cloth c = buildGrid(GridSpec::fromSpacing(10, 10, 0.05), 0.002);
    test::jitter(c, 0.01, 5);
    SimParams p = stillParams(integrator);
    p.material.provotPasses = 0;  // pure spring dynamics
    Simulation sim(std::move(c), p);
    Real previous = totalEnergy(sim);
    const Real start = previous;
    for (int i = 0; i < 2000; ++i) {
      sim.step();
      const Real e = totalEnergy(sim);
      INFO(std::string(name(integrator)) << " step " << i);
      REQUIRE(e <= previous * (1 + 1e-9) + 1e-15);
      previous = e;
    }
    CHECK(previous < start);  // it dissipates
  }
}

TEST_CASE("simulation: a hanging cloth never exceeds its starting energy and loses energy every second") {
  // Gravity and two pinned corners, Provot off (it lifts over-stretched nodes, adding potential energy).
  // Implicit Euler with the exact Jacobian loses energy on every step. Kang's update approximates the
  // Hessian by k I per spring, so during part of the cloth's slow stretch oscillation it gains a
  // little (measured: up to 1.4e-4 J in a step, on about a third of the steps), yet it never rises
  // above where it started and sheds energy over every whole second.
  // (At h = 1 ms with every method converged; tethers off, like Provot.)
  for (Integrator integrator : {Integrator::ApproxImplicit, Integrator::ImplicitCG}) {
    Simulation sim = instantiate(*findScene("hang-vertical"));
    sim.params().wind.dragCoefficient = sim.params().wind.liftCoefficient = 0;
    sim.params().material.provotPasses = 0;
    sim.params().material.tethers = false;
    sim.params().solver = SolverSettings{};
    sim.params().solver.integrator = integrator;
    const Real start = totalEnergy(sim);
    Real previousStep = start, previousSecond = start;
    for (int i = 1; i <= 4000; ++i) {
      sim.step();
      const Real e = totalEnergy(sim);
      INFO(std::string(name(integrator)) << " step " << i);
      REQUIRE(e <= start);
      if (integrator == Integrator::ImplicitCG) REQUIRE(e <= previousStep + 1e-12 * std::abs(previousStep));
      if (i % 1000 == 0) {
        REQUIRE(e < previousSecond);
        previousSecond = e;
      }
      previousStep = e;
    }
  }
}

TEST_CASE("simulation: no node ends a step inside a collider") {
  for (std::string_view sceneName : {"ball", "free-fall"}) {
    for (Integrator integrator : kAll) {
      Scene scene = *findScene(sceneName);
      scene.params.solver.integrator = integrator;
      Simulation sim = instantiate(scene);
      int contacts = 0;
      while (sim.time() < 3.0) {
        sim.step();
        contacts += sim.lastStep().colliderContacts;
        const auto clearance = minColliderClearance(sim.cloth(), sim.colliders());
        REQUIRE(clearance.has_value());
        INFO(std::string(sceneName) << " " << std::string(name(integrator)) << " t=" << sim.time());
        REQUIRE(*clearance >= 0);
      }
      CHECK(contacts > 0);  // the cloth did reach the colliders
    }
  }
}

TEST_CASE("simulation: a dragged node moves towards its target no faster than the speed limit") {
  Simulation sim = instantiate(*findScene("hang-vertical"));
  const NodeIndex corner = sim.cloth().index(sim.cloth().nu - 1, sim.cloth().nv - 1);
  REQUIRE(sim.grab(corner));
  const Vec3 target = sim.cloth().x[corner] + Vec3(0, 0, 0.3);  // within the cloth's reach
  sim.setHandleTarget(corner, target);
  const Real maxStep = sim.params().maxHandleSpeed * sim.params().solver.h;
  Vec3 previous = sim.cloth().x[corner];
  for (int i = 0; i < 200; ++i) {
    sim.step();
    CHECK(glm::length(sim.cloth().x[corner] - previous) <= maxStep * (1 + 1e-9));
    previous = sim.cloth().x[corner];
  }
  CHECK(glm::length(sim.cloth().x[corner] - target) < 1e-9);
  sim.release(corner);
  CHECK(sim.cloth().isFree(corner));
  for (int i = 0; i < 400; ++i) sim.step();
  CHECK(sim.cloth().x[corner].z < target.z - 0.05);  // gravity swings it back once released
}

TEST_CASE(
    "simulation: a node dragged past the cloth's reach stops there, at (1 + tau) of its rest distance") {
  Simulation sim = instantiate(*findScene("hang-vertical"));
  const Cloth& c = sim.cloth();
  const NodeIndex corner = c.index(c.nu - 1, c.nv - 1), pin = c.index(c.nu - 1, 0);
  REQUIRE(sim.isPinned(pin));
  REQUIRE(sim.grab(corner));
  sim.setHandleTarget(corner, c.x[corner] + Vec3(0, -2, 0));  // 2 m below: far out of reach
  while (sim.time() < 1.0) sim.step();
  const Real reach = (1 + sim.params().material.tau) * glm::length(c.restX[corner] - c.restX[pin]);
  CHECK(glm::length(c.x[corner] - c.x[pin]) == Approx(reach).epsilon(1e-6));
  sim.params().material.tethers = false;  // without tethers nothing holds it back
  while (sim.time() < 2.0) sim.step();
  CHECK(glm::length(c.x[corner] - c.x[pin]) > 1.5 * reach);
}

TEST_CASE("simulation: nodes can be pinned and unpinned at run time; pinned nodes cannot be grabbed") {
  Simulation sim = instantiate(*findScene("free-fall"));
  const NodeIndex n = sim.cloth().index(3, 3);
  sim.pin(n);
  CHECK_FALSE(sim.grab(n));
  const Vec3 held = sim.cloth().x[n];
  for (int i = 0; i < 100; ++i) sim.step();
  CHECK(sim.cloth().x[n] == held);
  sim.unpin(n);
  for (int i = 0; i < 100; ++i) sim.step();
  CHECK(sim.cloth().x[n].y < held.y);
}

TEST_CASE("simulation: mass, stiffness and time step may change between any two steps") {
  Simulation sim = instantiate(*findScene("hang-vertical"));
  for (int i = 0; i < 300; ++i) {
    sim.params().material.massPerNode = (i % 3 == 0) ? 0.002 : 0.01;
    sim.params().material.kStructural = (i % 2 == 0) ? 50 : 2000;
    sim.params().solver.h = (i % 5 == 0) ? 0.004 : 0.0005;
    sim.params().solver.integrator = kAll[i % 3];
    sim.step();
  }
  CHECK(isFinite(sim.cloth()));
  CHECK(sim.cloth().mass[7] == 0.01);  // the last mass set is the one in use
}

TEST_CASE("simulation: picking returns the cloth node under the ray") {
  Simulation sim = instantiate(*findScene("hang-vertical"));
  const Cloth& c = sim.cloth();
  const NodeIndex target = c.index(4, 6);
  const Ray ray{c.x[target] + Vec3(0.001, -0.001, 2), Vec3(0, 0, -1)};
  const auto pick = sim.pick(ray);
  REQUIRE(pick.has_value());
  CHECK(pick->node == target);
  CHECK(pick->t == Approx(2.0));
  CHECK_FALSE(sim.pick(Ray{Vec3(5, 5, 2), Vec3(0, 0, -1)}).has_value());
}
