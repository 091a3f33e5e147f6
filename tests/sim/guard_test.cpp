#include <catch2/catch.hpp>

#include <limits>
#include <string>

#include "cloth/sim/guard.h"
#include "cloth/sim/names.h"
#include "cloth/sim/scenes/scenes.h"
#include "cloth/sim/scenes/stats.h"

using namespace cloth::sim;

namespace {
constexpr Real kNaN = std::numeric_limits<Real>::quiet_NaN();
constexpr Real kInf = std::numeric_limits<Real>::infinity();
}  // namespace

TEST_CASE("guard: parameter validation names the first bad parameter") {
  CHECK(validateParams(SimParams{}).empty());
  SimParams forTheGrid;  // provot_omega below 1: chosen for the grid (provotRelaxationFor)
  forTheGrid.material.provotRelaxation = 0.5;
  CHECK(validateParams(forTheGrid).empty());
  const std::pair<void (*)(SimParams&), std::string> cases[] = {
      {[](SimParams& p) { p.solver.h = kNaN; }, "h"},
      {[](SimParams& p) { p.solver.h = 0; }, "h"},
      {[](SimParams& p) { p.solver.substeps = 0; }, "substeps"},
      {[](SimParams& p) { p.material.kStructural = kInf; }, "k"},
      {[](SimParams& p) { p.material.kShear = -1; }, "k_shear"},
      {[](SimParams& p) { p.material.massPerNode = 0; }, "mass"},
      {[](SimParams& p) { p.material.compression = 0; }, "compression"},
      {[](SimParams& p) { p.material.provotRelaxation = 2.5; }, "provot_omega"},
      {[](SimParams& p) { p.material.provotRelaxation = -0.5; }, "provot_omega"},
      {[](SimParams& p) { p.wind.velocity.y = kNaN; }, "wind"},
      {[](SimParams& p) { p.wind.dragCoefficient = -0.1; }, "K_D"},
      {[](SimParams& p) { p.gravity.x = kInf; }, "gravity"},
      {[](SimParams& p) { p.maxHandleSpeed = 0; }, "handle_speed"},
  };
  for (const auto& [spoil, name] : cases) {
    SimParams p;
    spoil(p);
    const std::string message = validateParams(p);
    INFO(message);
    CHECK(message.find("parameter " + name + " ") == 0);
  }
}

TEST_CASE("guard: a simulation refuses to step with invalid parameters and keeps its state") {
  Simulation sim = instantiate(*findScene("hang-vertical"));
  for (int i = 0; i < 10; ++i) sim.step();
  const std::vector<Vec3> before = sim.cloth().x;
  const Real time = sim.time();
  sim.params().solver.h = kNaN;
  sim.step();
  CHECK(sim.lastStep().refused.find("parameter h") == 0);
  CHECK(sim.cloth().x == before);
  CHECK(sim.time() == time);
  sim.params().solver.h = 0.001;
  sim.step();
  CHECK(sim.lastStep().refused.empty());
  CHECK(sim.time() > time);
}

TEST_CASE("guard: the health check catches NaN, infinities and runaway speed") {
  Simulation sim = instantiate(*findScene("flag"));
  CHECK(isHealthy(sim.cloth()));
  Cloth c = sim.cloth();
  c.x[5].y = kNaN;
  CHECK_FALSE(isHealthy(c));
  c = sim.cloth();
  c.v[7].z = -kInf;
  CHECK_FALSE(isHealthy(c));
  c = sim.cloth();
  c.v[3] = Vec3(0, kRunawaySpeed * 1.01, 0);
  CHECK_FALSE(isHealthy(c));
  c.v[3] = Vec3(0, kRunawaySpeed * 0.99, 0);
  CHECK(isHealthy(c));
}

TEST_CASE("guard: a blowing-up step is undone and counted, and the state stays finite") {
  // Explicit Euler far past its stability limit: every step would explode.
  Scene scene = *findScene("hang-vertical");
  scene.params.solver.integrator = Integrator::Explicit;
  scene.params.solver.h = 0.05;
  scene.params.material.kStructural = 1e5;
  scene.params.material.massPerNode = 1e-5;
  scene.params.material.provotPasses = 0;
  Simulation sim = instantiate(scene);
  for (int i = 0; i < 40; ++i) {
    sim.step();
    REQUIRE(isFinite(sim.cloth()));
    REQUIRE(isHealthy(sim.cloth()));
  }
  CHECK(sim.recoveries() > 0);
  CHECK(sim.time() == Approx(40 * 0.05));
  // Back to sane settings it simulates normally again.
  sim.params() = findScene("hang-vertical")->params;
  const long long before = sim.recoveries();
  for (int i = 0; i < 200; ++i) sim.step();
  CHECK(sim.recoveries() == before);
}

TEST_CASE("guard: kinematic calls with bad input are ignored") {
  Simulation sim = instantiate(*findScene("hang-vertical"));
  sim.pin(-1);
  sim.pin(1 << 30);
  sim.unpin(1 << 30);
  CHECK_FALSE(sim.isPinned(-3));
  REQUIRE(sim.grab(100));
  sim.setHandleTarget(100, Vec3(kNaN, 0, 0));
  sim.step();
  CHECK(isFinite(sim.cloth()));
}
