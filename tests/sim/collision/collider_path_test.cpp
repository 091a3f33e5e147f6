#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include <glm/geometric.hpp>
#include <glm/matrix.hpp>
#include <glm/trigonometric.hpp>

#include "cloth/sim/collision/collider.h"
#include "cloth/sim/collision/collider_path.h"
#include "cloth/sim/collision/intersections.h"
#include "cloth/sim/collision/mesh_shapes.h"
#include "cloth/sim/scenes/scenes.h"
#include "cloth/sim/scenes/stats.h"
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

TEST_CASE("collider_path: keys may turn too, about a fixed axis at a steady rate, however many turns") {
  std::string error;
  const auto p = parsePath("0,0,0,0,0,0,0/2,1,0,0,0,720,0", error);  // two turns about y in 2 s
  REQUIRE(p);
  CHECK(p->keys[1].turn == Vec3(0, 720, 0));
  CHECK(p->turnAt(0.5).y == Approx(180));  // linear in the rotation vector: not the short way round
  CHECK(p->offsetAt(0.5).x == Approx(0.25));
  const Mat3 half = p->rotationAt(0.5), quarter = rotationOf(Vec3(0, 90, 0));
  CHECK(glm::length(half * Vec3(1, 0, 0) - Vec3(-1, 0, 0)) < 1e-12);
  CHECK(glm::length(quarter * Vec3(1, 0, 0) - Vec3(0, 0, -1)) < 1e-12);  // right-handed about +y
  CHECK(glm::length(p->rotationAt(1) * Vec3(0.3, 0.2, 0.1) - Vec3(0.3, 0.2, 0.1)) < 1e-12);  // a whole turn
  CHECK(rotationOf(Vec3(0)) == Mat3(1));
  for (const char* bad : {"0,0,0,0,0,0", "0,0,0,0,0,0,0,0", "0,0,0,0,0,nan,0", "0,0,0,0,0,1e308,1e308",
                          "0,2e6,0,0", "0,0,0,0,0,2e6,0"}) {
    INFO(bad);
    CHECK_FALSE(parsePath(bad, error));
  }
}

TEST_CASE("collider_path: any collider but a flag's pole may move, a box and a mesh too") {
  Scene s = *findScene("ball");
  CHECK(setColliderPath(s, "0:0,0,0,0/1,0,0.5,0").empty());
  CHECK(placedOnPath(s.colliders[0], 0.5).center.y == Approx(0.6 + 0.25));
  CHECK_FALSE(setColliderPath(s, "2:0,0,0,0").empty());  // two colliders
  Scene flag = *findScene("flag");
  CHECK(setColliderPath(flag, "0:0,0,0,0/1,1,0,0").find("cannot move") != std::string::npos);
  Scene drape = *findScene("drape");  // its table is a mesh
  CHECK(setColliderPath(drape, "0:0,0,0,0,0,0,0/1,1,0,0,0,90,0").empty());
  Collider box = Collider::box(Vec3(0, 1, 0), Vec3(0.5, 0.1, 0.2));
  box.path.keys = {{0, Vec3(0), Vec3(0)}, {1, Vec3(1, 0, 0), Vec3(0, 90, 0)}};
  const Collider there = placedOnPath(box, 1);
  CHECK(glm::length(there.center - Vec3(1, 1, 0)) < 1e-12);
  // Turned a quarter about y: its long side (x) now lies along z.
  const Aabb b = colliderBounds(there, 0);
  CHECK(b.extent().x == Approx(0.4));
  CHECK(b.extent().z == Approx(1.0));
  CHECK(closestSurface(there, Vec3(1, 1, 0.6)).distance == Approx(0.1));
  CHECK(glm::length(closestSurface(there, Vec3(1, 1, 0.6)).normal - Vec3(0, 0, 1)) < 1e-12);
}

TEST_CASE("collider_path: a turned mesh box has the surface of the turned analytic box") {
  const Vec3 half(0.3, 0.1, 0.2);
  Collider box = Collider::box(Vec3(0.2, 0.5, -0.1), half);
  Collider mesh = Collider::meshOf(std::make_shared<const CollisionMesh>(makeBox(-half, half)));
  mesh.placement.origin = box.center;
  mesh.placement.zUp = true;  // a file with z up, turned upright: the box's y and z swap
  std::swap(box.halfExtents.y, box.halfExtents.z);
  for (Collider* c : {&box, &mesh})
    c->path.keys = {{0, Vec3(0), Vec3(0)}, {1, Vec3(0, 0.1, 0), Vec3(40, 25, -70)}};
  const Collider a = placedOnPath(box, 0.7), b = placedOnPath(mesh, 0.7);
  std::mt19937 rng(4);
  std::uniform_real_distribution<Real> u(-0.6, 0.6);
  for (int k = 0; k < 200; ++k) {
    const Vec3 p = a.center + Vec3(u(rng), u(rng), u(rng));
    const SurfacePoint sa = closestSurface(a, p, 10), sb = closestSurface(b, p, 10);
    INFO(k);
    CHECK(sb.distance == Approx(sa.distance).margin(1e-9));
    const Vec3 local = glm::abs(glm::transpose(a.turn) * sa.normal);  // over a face: along one axis
    if (std::max({local.x, local.y, local.z}) > 1 - 1e-9) CHECK(glm::length(sb.normal - sa.normal) < 1e-6);
    // Carried along from where they stood at 0.3 s, a point keeps its place on either.
    const Collider a0 = placedOnPath(box, 0.3), b0 = placedOnPath(mesh, 0.3);
    CHECK(glm::length(carried(a0, a, p) - carried(b0, b, p)) < 1e-9);
    CHECK(closestSurface(a, carried(a0, a, p), 10).distance ==
          Approx(closestSurface(a0, p, 10).distance).margin(1e-9));
  }
  // Moved only: the start plus the move, to the bit.
  Collider still = box;
  still.path.keys = {{0, Vec3(0)}, {1, Vec3(0.1, 0.2, 0.3)}};
  const Vec3 p(0.1, 0.2, 0.3);
  CHECK(carried(placedOnPath(still, 0.2), placedOnPath(still, 0.6), p) ==
        p + (placedOnPath(still, 0.6).center - placedOnPath(still, 0.2).center));
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
  // moveCollider (the viewer's Ctrl-drag) as fast as a mouse goes, at the fastest handle_speed lets it
  // go in one 1/60 s step: 0.5 m.
  Scene s = *findScene("free-fall");
  s.grid.origin = Vec3(-0.25, 0, -0.25);
  s.grid.width = s.grid.height = 0.5;
  s.params.gravity = Vec3(0);
  s.params.maxHandleSpeed = 30;
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

TEST_CASE("collider_path: a held collider goes where the viewer holds it at most handle_speed") {
  // A mouse flung across a slow frame asks for 0.5 m at once; the ball goes there at 8 m/s (0.133 m a
  // 1/60 s step), as a dragged node would, and stays. Unbounded, a 0.8 m jump went through the curtain.
  Scene s = *findScene("free-fall");
  s.params.gravity = Vec3(0);
  s.colliders = {Collider::sphere(Vec3(0, -1, 0), 0.02)};
  Simulation sim = instantiate(s);
  const Real most = s.params.maxHandleSpeed * s.params.solver.h;
  REQUIRE(sim.moveCollider(0, Vec3(0, 0.5, 0)));
  Real y = -1;
  for (int i = 0; i < 3; ++i) {
    sim.step();
    CHECK(sim.colliders()[0].center.y - y == Approx(most));
    y = sim.colliders()[0].center.y;
  }
  for (int i = 0; i < 3; ++i) sim.step();
  CHECK(sim.colliders()[0].center.y == Approx(-0.5));
  CHECK(sim.colliderOffset(0).y == Approx(0.5));  // what was asked, for the next drag to start from
  // Moved back while on the way: it turns round where it is.
  REQUIRE(sim.moveCollider(0, Vec3(0)));
  sim.step();
  CHECK(sim.colliders()[0].center.y == Approx(-0.5 - most));
}

namespace {

// A still 0.5 m cloth at y = 0 without self-collision, and `c` under it (a mesh where its placement's
// origin says: collider_offset).
Simulation clothOver(const Collider& c, const Vec3& gravity) {
  Scene s = *findScene("free-fall");
  s.grid.origin = Vec3(-0.25, 0, -0.25);
  s.grid.width = s.grid.height = 0.5;
  s.params.gravity = gravity;
  s.params.collision.selfCollision = false;
  s.params.collision.meshFit = false;
  s.params.collision.meshOffset = c.placement.origin;
  s.colliders = {c};
  return instantiate(s);
}

// The angle (degrees) the cloth's first row turned about the vertical from where it started.
Real rowTurn(const Cloth& c) {
  const Vec3 a = c.restX[c.index(c.nu - 1, 0)] - c.restX[c.index(0, 0)];
  const Vec3 b = c.x[c.index(c.nu - 1, 0)] - c.x[c.index(0, 0)];
  return glm::degrees(std::atan2(a.z * b.x - a.x * b.z, a.x * b.x + a.z * b.z));
}

}  // namespace

TEST_CASE("collider_path: a box and a mesh that cross a cloth in one step carry it, sharp edges and all") {
  // As the ball above: a 4 cm cube 0.5 m up in one 1/60 s step (30 m/s), as a box and as a mesh. Its
  // faces carry the nodes in its way, and its corners and edges do not come through between them.
  const Vec3 half(0.02);
  Collider box = Collider::box(Vec3(0, -0.23, 0), half);
  Collider mesh = Collider::meshOf(std::make_shared<const CollisionMesh>(makeBox(-half, half)));
  mesh.placement.origin = box.center;
  for (Collider c : {box, mesh}) {
    INFO((c.shape == ColliderShape::Box ? "box" : "mesh"));
    c.path.keys = {{0, Vec3(0)}, {1.0 / 60, Vec3(0, 0.5, 0)}};
    Simulation sim = clothOver(c, Vec3(0));
    sim.step();
    const Collider& moved = sim.colliders()[0];
    REQUIRE(colliderBounds(moved, 0).center().y == Approx(0.27));
    int carried = 0;
    for (const Vec3& x : sim.cloth().x) {
      CHECK(closestSurface(moved, x).distance >= 0);
      if (std::max(std::abs(x.x), std::abs(x.z)) < 0.02) {
        CHECK(x.y > 0.2);  // on its top, not left at y = 0 behind it
        ++carried;
      }
    }
    CHECK(carried > 0);
    ContactAudit audit;
    CHECK(audit.measure(sim.cloth(), sim.colliders()).colliderPenetrations == 0);
  }
}

TEST_CASE("collider_path: a cloth lying on a turning table turns with it, as a box and as a mesh") {
  // A 1 m table turned a quarter about the vertical in 2 s, a 0.5 m cloth resting on it: friction
  // relative to the turning top holds the cloth where it lies on it (the resting contact's velocity in
  // the implicit solve, Baraff & Witkin 1998 §5, is the table's under the node), so the cloth turns as
  // the table does. A frictionless table turns under it and leaves it where it was.
  const Vec3 half(0.5, 0.05, 0.5);  // its top 5 mm (the contact thickness) under the cloth
  Collider box = Collider::box(Vec3(0, -0.055, 0), half);
  Collider mesh = Collider::meshOf(std::make_shared<const CollisionMesh>(makeBox(-half, half)));
  mesh.placement.origin = box.center;
  const auto [friction, turn] = GENERATE(table<Real, Real>({{0.8, 90}, {0, 0}}));
  for (Collider c : {box, mesh}) {
    INFO((c.shape == ColliderShape::Box ? "box" : "mesh") << ", friction " << friction);
    c.path.keys = {{0, Vec3(0), Vec3(0)}, {2, Vec3(0), Vec3(0, 90, 0)}};
    c.friction = friction;
    Simulation sim = clothOver(c, Vec3(0, -kGravity, 0));
    ContactAudit audit;
    int worst = 0;
    for (int step = 0; step < 150; ++step) {  // 2.5 s: turning, then still
      sim.step();
      worst = std::max(worst, audit.measure(sim.cloth(), sim.colliders()).colliderPenetrations);
    }
    REQUIRE(isFinite(sim.cloth()));
    CHECK(rowTurn(sim.cloth()) == Approx(turn).margin(5));
    CHECK(worst == 0);
    for (const Vec3& x : sim.cloth().x) CHECK(x.y == Approx(0).margin(0.003));  // still on the top
  }
}

TEST_CASE("collider_path: a blade swung through the hanging curtain never passes through it") {
  // A 0.6 m blade 2 cm thick turning twice a second about the vertical, its middle 0.2 m in front of
  // the curtain: each turn its tip (3.8 m/s) sweeps 0.1 m past the curtain's plane. The curtain is
  // struck and pushed aside, every step clear of the blade and of itself.
  Scene s = *findScene("hang-vertical");
  resampleGrid(s, 20, 20);
  Collider blade = Collider::box(Vec3(0, 1.5, 0.2), Vec3(0.3, 0.05, 0.01));
  blade.path.keys = {{0, Vec3(0), Vec3(0)}, {3, Vec3(0), Vec3(0, 6 * 360, 0)}};
  s.colliders = {blade};
  Simulation sim = instantiate(s);
  ContactAudit audit;
  int worstPenetrations = 0, worstIntersections = 0;
  Real nearest = 1;  // m: the closest the blade came to the curtain's plane's nodes at its tip's reach
  for (int step = 0; step < 180; ++step) {
    sim.step();
    const ContactFailures f = audit.measure(sim.cloth(), sim.colliders());
    worstPenetrations = std::max(worstPenetrations, f.colliderPenetrations);
    worstIntersections = std::max(worstIntersections, f.selfIntersections);
    for (const Vec3& x : sim.cloth().x)
      nearest = std::min(nearest, closestSurface(sim.colliders()[0], x).distance);
  }
  REQUIRE(isFinite(sim.cloth()));
  CHECK(nearest < 0.01);  // it did strike the cloth
  CHECK(nearest >= 0);
  CHECK(worstPenetrations == 0);
  CHECK(worstIntersections == 0);
}
