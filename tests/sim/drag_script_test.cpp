#include "cloth/sim/drag_script.h"

#include <catch2/catch.hpp>

#include "cloth/sim/scenes/scenes.h"
#include "cloth/sim/simulation.h"

using namespace cloth::sim;

TEST_CASE("drag_script: ROW,COL,X,Y,Z,T0,T1 parses - anything else is refused with the expected form") {
  std::string error;
  const auto d = parseDrag("2,3,0.1,-0.2,0.3,0.5,1.5", error);
  REQUIRE(d);
  CHECK(d->row == 2);
  CHECK(d->col == 3);
  CHECK(d->target == Vec3(0.1, -0.2, 0.3));
  CHECK(d->start == 0.5);
  CHECK(d->end == 1.5);
  for (const char* bad : {"1,2,3", "1,2,3,4,5,6,7,8", "a,b,c,d,e,f,g", "0,0,0,0,0,2,1", "0,0,nan,0,0,0,1",
                          "0,0,0,0,0,-1,1", "0,0,0,0,0,1,1x"}) {
    INFO(bad);
    error.clear();
    CHECK_FALSE(parseDrag(bad, error));
    CHECK_FALSE(error.empty());
  }
}

TEST_CASE("drag_script: a drag grabs its node between T0 and T1, pulls it toward the point, then lets go") {
  Simulation sim = instantiate(*findScene("free-fall"));
  std::string error;
  DragScript script({*parseDrag("0,0,-1,2,-1,0.1,0.3", error)});
  CHECK(script.problem(sim).empty());
  const NodeIndex node = sim.cloth().index(0, 0);
  const Vec3 start = sim.cloth().x[node];
  bool held = false;
  while (sim.time() < 0.5) {
    script.apply(sim);
    if (sim.time() > 0.15 && sim.time() < 0.29) held = held || sim.cloth().kind[node] == NodeKind::Driven;
    sim.step();
  }
  CHECK(held);
  CHECK(sim.cloth().kind[node] == NodeKind::Free);  // let go after T1
  CHECK(sim.handles().empty());
  CHECK(sim.cloth().x[node].y > start.y);  // pulled up toward the point while it fell
  CHECK_FALSE(DragScript({*parseDrag("99,0,0,0,0,0,1", error)}).problem(sim).empty());
}

TEST_CASE("drag_script: a moving target goes straight from where it starts to where it ends, then stays") {
  ScriptedDrag d{0, 0, Vec3(0, -1, 0), 1, 3, Vec3(0, 1, 0)};
  CHECK(d.targetAt(0) == Vec3(0, 1, 0));
  CHECK(d.targetAt(2).y == Approx(0));
  CHECK(d.targetAt(3) == Vec3(0, -1, 0));
  CHECK(d.targetAt(9) == Vec3(0, -1, 0));
  d.from.reset();
  CHECK(d.targetAt(1.5) == Vec3(0, -1, 0));  // a --drag's target stands still
}

TEST_CASE("drag_script: a scene's own pulls come first, at its grid, then the user's drags") {
  Scene scene = *findScene("funnel");
  REQUIRE_FALSE(scene.pulls.empty());
  const ScriptedDrag user{1, 2, Vec3(0), 0, 1};
  for (int n : {32, 9}) {  // the middle node whatever the grid
    resampleGrid(scene, n, n);
    const std::vector<ScriptedDrag> all = dragsOf(scene, {user});
    REQUIRE(all.size() == scene.pulls.size() + 1);
    CHECK(all.front().row == (n - 1 + 1) / 2);
    CHECK(all.front().col == (n - 1 + 1) / 2);
    CHECK(all.front().from.has_value());
    CHECK(all.back().row == 1);
    CHECK(all.back().col == 2);
    CHECK(DragScript(all).problem(instantiate(scene)).empty());
  }
  CHECK(dragsOf(*findScene("ball"), {}).empty());
}
