#include <catch2/catch.hpp>

#include <random>
#include <set>
#include <string>

#include "cloth/config/param_table.h"
#include "cloth/config/random_settings.h"
#include "cloth/sim/scenes/scenes.h"

using namespace cloth;
using namespace cloth::config;

TEST_CASE("random_settings: every drawn value lies in its documented range, and draws repeat per seed") {
  std::mt19937 a(7), b(7);
  std::set<std::string> scenes;
  for (int round = 0; round < 30; ++round) {
    Settings s = *settingsForScene("flag"), t = s;
    randomizeSettings(s, a);
    randomizeSettings(t, b);
    for (const ParamSpec& p : paramTable()) {
      CHECK(formatParam(s, p) == formatParam(t, p));  // same seed, same draws
      // Setting the drawn value again must be accepted: it is valid.
      Settings copy = s;
      CHECK(setParam(copy, p, getParam(s, p)).ok());
    }
    CHECK(s.scene.grid.nu <= RandomRanges{}.maxGrid);
    scenes.insert(s.scene.name);
  }
  CHECK(scenes.size() > 3);  // the scene is drawn too
}

TEST_CASE("random_settings: one parameter at a time, never the scene, grid or topology") {
  std::mt19937 rng(3);
  const Settings start = *settingsForScene("ball");
  Settings s = start;
  for (int i = 0; i < 200; ++i) randomizeOneParameter(s, rng);
  CHECK(s.scene.name == start.scene.name);
  CHECK(s.scene.grid.nu == start.scene.grid.nu);
  CHECK(s.scene.grid.singleShear == start.scene.grid.singleShear);
  int changed = 0;
  for (const ParamSpec& p : paramTable()) changed += formatParam(s, p) != formatParam(start, p);
  CHECK(changed > 10);
}

TEST_CASE("random_settings: a random mouse grabs and lets go in turn") {
  std::mt19937 rng(5);
  sim::Simulation sim = sim::instantiate(*sim::findScene("free-fall"));
  sim::NodeIndex held = -1;
  randomDragOrRelease(sim, rng, held, 0.2);
  REQUIRE(held >= 0);
  CHECK(sim.cloth().kind[held] == sim::NodeKind::Driven);
  const sim::NodeIndex was = held;
  randomDragOrRelease(sim, rng, held, 0.2);
  CHECK(held == -1);
  CHECK(sim.cloth().isFree(was));
}
