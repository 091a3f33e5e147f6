#include "cloth/sim/collision/collider_contacts.h"

#include <catch2/catch.hpp>

#include <vector>

#include "cloth/sim/grid.h"

using namespace cloth::sim;

namespace {

// A 3 x 3 cloth lying at height y, 10 cm between nodes, every node free.
Cloth lyingCloth(Real y) {
  GridSpec spec = GridSpec::fromSpacing(3, 3, 0.1);
  spec.orientation = Orientation::Horizontal;
  spec.origin = Vec3(-0.1, y, -0.1);
  return buildGrid(spec, 0.01);
}

// The stage and what a pass reads, as Simulation::substep holds them.
struct Stage {
  Cloth cloth;
  SimParams params;
  std::vector<Vec3> xStart;
  AabbTree tree;
  ClothEdges edges;
  Workers workers{1};
  ColliderContacts contacts;

  Stage(Cloth c, std::vector<Collider> colliders) : cloth(std::move(c)) {
    params.collision.thickness = 0.005;
    tree.build(cloth.x, cloth.triangles);
    edges = clothEdges(cloth);
    contacts.reset(std::move(colliders), cloth, params, PinMotion{}, 0);
  }
  // One sub-step of h from t: the cloth starts where it is now and is moved by `move` before the pass.
  int pass(Real t, Real h, const Vec3& move, ContactCounts& counts) {
    xStart = cloth.x;
    contacts.beginStep(cloth, params, PinMotion{}, t);
    contacts.beginSubstep(cloth, xStart, params, PinMotion{}, t, h, workers);
    for (Vec3& x : cloth.x) x += move;
    return contacts.collide({cloth, xStart, params.collision, tree, edges, workers}, Friction::On, counts);
  }
};

}  // namespace

TEST_CASE("collider_contacts: nodes sunk into the floor go out to the thickness and rest in the next solve") {
  Stage s(lyingCloth(0.02), {Collider::plane(Vec3(0), Vec3(0, 1, 0))});
  for (Vec3& v : s.cloth.v) v = Vec3(0, -0.1, 0);  // settling: slower than 2 g h
  ContactCounts counts;
  const int moved = s.pass(0, 1.0 / 60, Vec3(0, -0.0185, 0), counts);  // to 1.5 mm above the floor
  CHECK(moved == 9);
  CHECK(counts.colliderContacts == 9);
  for (std::size_t n = 0; n < s.cloth.nodeCount(); ++n) {
    CHECK(s.cloth.x[n].y == Approx(0.005).margin(1e-12));
    CHECK(s.cloth.v[n].y >= 0);  // the approach is gone
    CHECK(s.contacts.contactNormals()[n] == Vec3(0, 1, 0));
  }
  std::vector<RestingContact> resting;
  s.contacts.restOnLastTouches(s.cloth, 1.0 / 60, resting);
  REQUIRE(resting.size() == s.cloth.nodeCount());
  for (const RestingContact& r : resting) CHECK(r.resting());
  // The touches are the last step's only: the step after it, nothing rests unless a pass finds it again.
  s.contacts.restOnLastTouches(s.cloth, 1.0 / 60, resting);
  for (const RestingContact& r : resting) CHECK_FALSE(r.resting());
}

TEST_CASE("collider_contacts: a node coming at the floor fast is an impact, not a resting contact") {
  Stage s(lyingCloth(0.1), {Collider::plane(Vec3(0), Vec3(0, 1, 0))});
  ContactCounts counts;
  s.pass(0, 1.0 / 60, Vec3(0, -0.098, 0), counts);
  for (Vec3& v : s.cloth.v) v = Vec3(0, -5, 0);  // still falling at 5 m/s when the next step begins
  std::vector<RestingContact> resting;
  s.contacts.restOnLastTouches(s.cloth, 1.0 / 60, resting);
  for (const RestingContact& r : resting) CHECK_FALSE(r.resting());
}

TEST_CASE("collider_contacts: a ball on a path through the cloth in one sub-step carries it ahead") {
  // A 5 cm ball moving 0.6 m up in one sub-step of 1/60 s (36 m/s), through where the cloth lies still:
  // at the sub-step's end it is 0.3 m past the cloth, so a closest-point test alone would find nothing.
  GridSpec spec = GridSpec::fromSpacing(3, 3, 0.02);
  spec.orientation = Orientation::Horizontal;
  spec.origin = Vec3(-0.02, 0, -0.02);  // lying at y = 0 round the ball's line, the y axis
  Collider ball = Collider::sphere(Vec3(0, -0.3, 0), 0.05);
  ball.path.keys = {{0, Vec3(0), Vec3(0)}, {1.0 / 60, Vec3(0, 0.6, 0), Vec3(0)}};
  Stage s(buildGrid(spec, 0.01), {ball});
  Aabb clothBox;
  for (const Vec3& x : s.cloth.x) clothBox.grow(x);
  CHECK(s.contacts.farthestMove(0, 1.0 / 60, clothBox) == Approx(0.6));
  // A cloth the ball's sweep (|x| <= 0.05) never comes near needs no sub-steps for it.
  CHECK(s.contacts.farthestMove(0, 1.0 / 60, Aabb{Vec3(0.2, -1, -1), Vec3(1, 1, 1)}) == 0);
  ContactCounts counts;
  s.pass(0, 1.0 / 60, Vec3(0), counts);
  CHECK(counts.colliderContacts > 0);
  for (const Vec3& x : s.cloth.x) {
    INFO("node at " << x.x << ", " << x.y << ", " << x.z);
    CHECK(x.y > 0.3);  // above the ball's centre, not left below it
    CHECK(glm::length(x - Vec3(0, 0.3, 0)) >= 0.05 + 0.005 - 1e-9);
  }
}

TEST_CASE("collider_contacts: the same colliders handed over again keep their features") {
  Stage s(lyingCloth(1), {Collider::box(Vec3(0), Vec3(0.25))});
  const long long searches = s.contacts.featureSearches();
  CHECK_FALSE(s.contacts.replace({Collider::box(Vec3(0), Vec3(0.25))}, s.cloth, s.params, PinMotion{}, 0));
  CHECK(s.contacts.featureSearches() == searches);
  CHECK(s.contacts.replace({Collider::box(Vec3(0), Vec3(0.3))}, s.cloth, s.params, PinMotion{}, 0));
  CHECK(s.contacts.featureSearches() == searches + 1);
  REQUIRE(s.contacts.colliders().size() == 1);
  CHECK(s.contacts.colliders()[0].halfExtents == Vec3(0.3));
}
