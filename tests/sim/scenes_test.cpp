#include <catch2/catch.hpp>

#include <string>

#include <glm/geometric.hpp>

#include "cloth/sim/names.h"
#include "cloth/sim/scenes.h"
#include "cloth/sim/stats.h"

using namespace cloth::sim;

TEST_CASE("scenes: every scene runs 5 simulated seconds finite with every integrator") {
  for (std::string_view name : sceneNames()) {
    for (std::string_view integrator : integratorNames()) {
      Scene scene = *findScene(name);
      scene.params.solver.integrator = *parseIntegrator(integrator);
      Simulation sim = instantiate(scene);
      while (sim.time() < 5.0) sim.step();
      INFO(std::string(name) << " with " << std::string(integrator));
      CHECK(isFinite(sim.cloth()));
      CHECK(maxStrain(sim.cloth(), SpringFamily::Structural) <= scene.params.material.tau + 0.01);
    }
  }
}

TEST_CASE("scenes: the flag flutters in the wind") {
  Simulation sim = instantiate(*findScene("flag"));
  const Cloth& c = sim.cloth();
  const NodeIndex corner = c.index(c.nu - 1, c.nv - 1);
  Real zMin = 1e9, zMax = -1e9, keMin = 1e9;
  while (sim.time() < 3.0) {
    sim.step();
    if (sim.time() < 1.0) continue;  // past the start-up transient
    zMin = std::min(zMin, c.x[corner].z);
    zMax = std::max(zMax, c.x[corner].z);
    keMin = std::min(keMin, kineticEnergy(c));
  }
  CHECK(zMax - zMin > 0.05);   // the free corner swings across the flag's plane by more than 5 cm
  CHECK(keMin > 0.01);         // it never comes to rest
  CHECK(c.x[corner].x > 0.3);  // and it streams downwind of the pole
}

TEST_CASE("scenes: the waving flag's pole follows its scripted path") {
  Simulation sim = instantiate(*findScene("waving-flag"));
  const Vec3 start = sim.cloth().x[0];
  Real farthest = 0;
  while (sim.time() < 2.0) {
    sim.step();
    farthest = std::max(farthest, glm::length(sim.cloth().x[0] - start));
    CHECK(glm::length(sim.cloth().x[0] - sim.pinMotion().apply(start, sim.time())) < 1e-9);
  }
  CHECK(farthest > 0.2);
}

TEST_CASE("scenes: names are listed and unknown names are refused") {
  CHECK(sceneNames().size() == 6);
  for (std::string_view n : sceneNames()) CHECK(findScene(n)->name == n);
  CHECK_FALSE(findScene("nope").has_value());
}
