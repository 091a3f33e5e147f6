#include <catch2/catch.hpp>

#include "cloth/sim/collision/collider.h"
#include "cloth/sim/collision/collider_path.h"
#include "cloth/sim/scenes/scenes.h"
#include "cloth/sim/simulation.h"

using namespace cloth::sim;

TEST_CASE("collider_path: straight between keys, held before the first and after the last") {
  ColliderPath p;
  p.keys = {{1, Vec3(0)}, {2, Vec3(0, 0, 1)}, {4, Vec3(2, 0, 1)}};
  CHECK(p.offsetAt(0) == Vec3(0));
  CHECK(p.offsetAt(1) == Vec3(0));
  CHECK(p.offsetAt(1.5).z == Approx(0.5));
  CHECK(p.offsetAt(3).x == Approx(1));
  CHECK(p.offsetAt(3).z == Approx(1));
  CHECK(p.offsetAt(9) == Vec3(2, 0, 1));
  CHECK(p.topSpeed() == Approx(1));
  CHECK(ColliderPath{}.offsetAt(3) == Vec3(0));
}

TEST_CASE("collider_path: parsed from T,X,Y,Z keys, and bad keys and times that do not increase say why") {
  std::string error;
  const auto p = parsePath("0,0,0,0/0.5,0,0.3,-1", error);
  REQUIRE(p);
  REQUIRE(p->keys.size() == 2);
  CHECK(p->keys[1].time == 0.5);
  CHECK(p->keys[1].offset == Vec3(0, 0.3, -1));
  for (const char* bad :
       {"", "0,0,0", "0,0,0,0,0", "a,0,0,0", "0,0,0,0/0,1,1,1", "1,0,0,0/0,1,1,1", "0,inf,0,0", "0,0,0,0/"}) {
    INFO(bad);
    error.clear();
    CHECK_FALSE(parsePath(bad, error));
    CHECK_FALSE(error.empty());
  }
}

TEST_CASE("collider_path: a scene's ball moves, and boxes, meshes and poles stand still") {
  Scene s = *findScene("ball");
  CHECK(setColliderPath(s, "0:0,0,0,0/1,0,0.5,0").empty());
  CHECK(placedOnPath(s.colliders[0], 0.5).center.y == Approx(0.6 + 0.25));
  CHECK_FALSE(setColliderPath(s, "2:0,0,0,0").empty());  // two colliders
  Scene flag = *findScene("flag");
  CHECK(setColliderPath(flag, "0:0,0,0,0/1,1,0,0").find("cannot move") != std::string::npos);
  Scene drape = *findScene("drape");
  CHECK(setColliderPath(drape, "0:0,0,0,0/1,1,0,0").find("cannot move") != std::string::npos);
}

TEST_CASE("collider_path: a ball that crosses a cloth in one step carries it rather than passing through") {
  // A still, weightless cloth at y = 0; a 2 cm ball under it moves 0.5 m up in one 1/60 s step (30 m/s):
  // even in the sub-steps its speed asks for, it moves 3 radii a sub-step, and without the swept
  // contact it came out above the cloth and pushed the nodes in its way down. Seen from the ball, they
  // entered it: they end on its underside.
  Scene s = *findScene("free-fall");
  s.grid.origin = Vec3(-0.25, 0, -0.25);
  s.grid.width = s.grid.height = 0.5;
  s.params.gravity = Vec3(0);
  s.params.collision.selfCollision = false;
  Collider ball = Collider::sphere(Vec3(0, -0.23, 0), 0.02);
  ball.path.keys = {{0, Vec3(0)}, {1.0 / 60, Vec3(0, 0.5, 0)}};
  s.colliders = {ball};
  Simulation sim = instantiate(s);
  sim.step();
  const Collider& moved = sim.colliders()[0];
  REQUIRE(moved.center.y == Approx(0.27));
  int carried = 0;
  for (const Vec3& x : sim.cloth().x) {
    CHECK(glm::length(x - moved.center) >= moved.radius);  // never inside
    const Real offAxis = std::hypot(x.x, x.z);
    if (offAxis < 0.02) {  // in the ball's way: on its underside, not left at y = 0 behind it
      CHECK(x.y > 0.1);    // carried up (the ball ends at 0.25-0.29; at its rim they slide off it)
      ++carried;
    }
  }
  CHECK(carried > 0);
}

TEST_CASE(
    "collider_path: a ball the viewer moves through the cloth in one step carries it, and stays there") {
  // moveCollider (the viewer's Ctrl-drag) as fast as a mouse goes: 0.5 m in one 1/60 s step.
  Scene s = *findScene("free-fall");
  s.grid.origin = Vec3(-0.25, 0, -0.25);
  s.grid.width = s.grid.height = 0.5;
  s.params.gravity = Vec3(0);
  s.params.collision.selfCollision = false;
  s.colliders = {Collider::sphere(Vec3(0, -0.23, 0), 0.02), Collider::plane(Vec3(0, -1, 0), Vec3(0, 1, 0))};
  Simulation sim = instantiate(s);
  CHECK(sim.moveCollider(1, Vec3(0, 1, 0)));  // a plane may move too
  CHECK(sim.moveCollider(1, Vec3(0)));
  CHECK_FALSE(sim.moveCollider(2, Vec3(0, 1, 0)));  // no such collider
  CHECK_FALSE(sim.moveCollider(0, Vec3(0, std::nan(""), 0)));
  REQUIRE(sim.moveCollider(0, Vec3(0, 0.5, 0)));
  sim.step();
  REQUIRE(sim.colliders()[0].center.y == Approx(0.27));
  int carried = 0;
  for (const Vec3& x : sim.cloth().x) {
    CHECK(glm::length(x - sim.colliders()[0].center) >= 0.02);
    if (std::hypot(x.x, x.z) < 0.02) {
      CHECK(x.y > 0.1);
      ++carried;
    }
  }
  CHECK(carried > 0);
  sim.step();
  CHECK(sim.colliders()[0].center.y == Approx(0.27));
  CHECK(sim.colliderOffset(0).y == Approx(0.5));
}
