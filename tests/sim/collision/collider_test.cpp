#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/collider.h"
#include "cloth/sim/collision/mesh_shapes.h"
#include "cloth/sim/scenes/scenes.h"

using namespace cloth::sim;

TEST_CASE("collider: signed distances and outward normals of sphere, plane and box") {
  const Collider s = Collider::sphere(Vec3(0, 1, 0), 0.5);
  CHECK(closestSurface(s, Vec3(0, 2, 0)).distance == Approx(0.5));
  CHECK(closestSurface(s, Vec3(0, 1.2, 0)).distance == Approx(-0.3));
  CHECK(closestSurface(s, Vec3(0, 2, 0)).normal.y == Approx(1.0));

  const Collider p = Collider::plane(Vec3(0, 0.1, 0), Vec3(0, 2, 0));
  CHECK(closestSurface(p, Vec3(3, -0.4, 7)).distance == Approx(-0.5));
  CHECK(closestSurface(p, Vec3(0, 1, 0)).normal == Vec3(0, 1, 0));

  const Collider b = Collider::box(Vec3(0), Vec3(1, 2, 3));
  CHECK(closestSurface(b, Vec3(2, 0, 0)).distance == Approx(1.0));
  CHECK(closestSurface(b, Vec3(2, 0, 0)).normal == Vec3(1, 0, 0));
  CHECK(closestSurface(b, Vec3(2, 3, 0)).distance == Approx(std::sqrt(2.0)));
  CHECK(closestSurface(b, Vec3(0.9, 0, 0)).distance == Approx(-0.1));  // inside: nearest face
  CHECK(closestSurface(b, Vec3(0.9, 0, 0)).normal == Vec3(1, 0, 0));
  CHECK(closestSurface(b, Vec3(0, -1.95, 0)).normal == Vec3(0, -1, 0));
}

TEST_CASE("collider: bounds hold every point within the margin") {
  const Aabb sb = colliderBounds(Collider::sphere(Vec3(1, 0, 0), 0.5), 0.1);
  CHECK(sb.contains(Vec3(1.59, 0, 0)));
  CHECK_FALSE(sb.contains(Vec3(1.61, 0, 0)));
  const Aabb ground = colliderBounds(Collider::plane(Vec3(0), Vec3(0, 1, 0)), 0.01);
  CHECK(ground.contains(Vec3(1e6, 0.005, -1e6)));
  CHECK_FALSE(ground.contains(Vec3(0, 0.02, 0)));
  const Aabb tilted = colliderBounds(Collider::plane(Vec3(0), Vec3(1, 1, 0)), 0.01);
  CHECK(tilted.contains(Vec3(1e9, 1e9, 1e9)));
}

TEST_CASE("collider: contact response pushes out to the thickness, stops inward motion, applies friction") {
  const SurfacePoint s{-0.02, Vec3(0, 1, 0)};
  Vec3 x(0, -0.02, 0), v(1.0, -2.0, 0);
  REQUIRE(resolveContact(s, 0.005, 0.3, x, v));
  CHECK(x.y == Approx(0.005));
  CHECK(v.y == 0);
  CHECK(v.x == Approx(1.0 - 0.3 * 2.0));  // Coulomb: tangential loss mu |v_n|

  Vec3 slow(0.1, -2.0, 0);
  Vec3 y(0);
  resolveContact(s, 0.005, 0.3, y, slow);
  CHECK(slow == Vec3(0));  // sticks

  Vec3 free(0, 1, 0), away(0, 3, 0);
  CHECK_FALSE(resolveContact({0.5, Vec3(0, 1, 0)}, 0.005, 0.3, free, away));
  CHECK(away.y == 3.0);
}

TEST_CASE("collider: a mesh is fitted onto the ground, then scaled and moved") {
  auto mesh =
      std::make_shared<const CollisionMesh>(makeBox(Vec3(10, 20, 30), Vec3(12, 24, 31)));  // 2 x 4 x 1
  CollisionSettings s;
  MeshPlacement p = meshPlacement(*mesh, s);
  CHECK(p.scale == Approx(0.2));  // largest side 4 -> 0.8 m
  const Vec3 bottom = p.apply(Vec3(11, 20, 30.5));
  CHECK(glm::length(bottom - Vec3(0, -kFloorSink * s.thickness, 0)) ==
        Approx(0).margin(1e-12));  // bottom centre at the origin, sunk into the ground
  CHECK(bottom.y < -s.thickness);
  s.meshScale = 2;
  s.meshOffset = Vec3(1, 0, 0);
  p = meshPlacement(*mesh, s);
  CHECK(p.apply(Vec3(11, 24, 30.5)).y == Approx(1.6 - kFloorSink * s.thickness));
  CHECK(p.apply(Vec3(11, 20, 30.5)).x == Approx(1));
  s.meshFit = false;  // its own coordinates, in metres
  p = meshPlacement(*mesh, s);
  CHECK(p.apply(Vec3(11, 20, 30.5)) == Vec3(23, 40, 61));
}

TEST_CASE("collider: a mesh added where the ball stands is set beside it, on the ground, never inside") {
  Scene ball = *findScene("ball");
  auto box = std::make_shared<const CollisionMesh>(makeBox(Vec3(0), Vec3(1, 1, 1)));
  useColliderMeshes(ball, {box, box});  // two meshes: the second clears the first too
  std::vector<Collider> colliders = ball.colliders;
  placeMeshes(colliders, ball.params.collision);
  std::vector<Aabb> solids;
  for (const Collider& c : colliders)
    if (c.shape != ColliderShape::Plane) solids.push_back(colliderBounds(c, 0));
  REQUIRE(solids.size() == 3);  // the ball and the two meshes
  for (std::size_t i = 0; i < solids.size(); ++i)
    for (std::size_t j = i + 1; j < solids.size(); ++j) CHECK_FALSE(solids[i].overlaps(solids[j]));
  for (const Collider& c : colliders)
    if (c.shape == ColliderShape::Mesh)
      CHECK(colliderBounds(c, 0).lo.y == Approx(-kFloorSink * ball.params.collision.thickness).margin(1e-12));
  // Placed by hand (collider_fit=0) a mesh stays where its coordinates put it, overlapping or not.
  ball.params.collision.meshFit = false;
  placeMeshes(colliders, ball.params.collision);
  CHECK(colliderBounds(colliders.back(), 0).lo.x == Approx(0));
}

TEST_CASE("collider: a node fast enough to pass a thin mesh in one step stops on its near side") {
  Collider sheet =
      Collider::meshOf(std::make_shared<const CollisionMesh>(makeBox(Vec3(-1, 0, -1), Vec3(1, 0.002, 1))));
  sheet.placement = MeshPlacement{};
  const Real thickness = 0.005;
  Vec3 x(0.3, -0.5, 0.2), v(0, -60, 0);  // from 50 cm above to 50 cm below in one 1/60 s step
  const Vec3 from(0.3, 0.5, 0.2);
  const auto contact = meshContact(sheet, from, x, thickness);
  REQUIRE(contact);
  REQUIRE(resolveContact(*contact, thickness, 0.3, x, v));
  CHECK(x.y == Approx(0.002 + thickness));  // on top, one thickness off the surface
  CHECK(x.x == Approx(0.3));
  CHECK(v.y == Approx(0));
  // A node that stays clear is left alone; one within the thickness is moved out along the way it came.
  CHECK_FALSE(meshContact(sheet, Vec3(0, 0.5, 0), Vec3(0, 0.4, 0), thickness));
  const auto near = meshContact(sheet, Vec3(0, 0.01, 0), Vec3(0, 0.004, 0), thickness);
  REQUIRE(near);
  CHECK(near->distance == Approx(0.002));
  CHECK(near->normal == Vec3(0, 1, 0));
}

TEST_CASE("collider: a sphere mesh gives the analytic sphere's drape, within a thickness on average") {
  Scene analytic = *findScene("ball");  // Huang Fig. 6: the sphere of radius 0.3 m at (0, 0.6, 0)
  Scene meshed = analytic;
  meshed.colliders[0] = Collider::meshOf(std::make_shared<const CollisionMesh>(makeIcosphere(0.3, 4)));
  meshed.params.collision.meshFit = false;
  meshed.params.collision.meshOffset = Vec3(0, 0.6, 0);
  Simulation a = instantiate(analytic), b = instantiate(meshed);
  while (a.time() < 1.5) a.step(), b.step();  // landed and draped
  const Real thickness = analytic.params.collision.thickness;
  auto onSphere = [](const Vec3& p) { return glm::length(p - Vec3(0, 0.6, 0)) - 0.3 < 0.01; };
  std::vector<Real> heightsA, heightsB;
  Real clearance = 1;
  int contactsA = 0, contactsB = 0;
  for (std::size_t i = 0; i < a.cloth().nodeCount(); ++i) {
    heightsA.push_back(a.cloth().x[i].y);
    heightsB.push_back(b.cloth().x[i].y);
    clearance = std::min(clearance, glm::length(b.cloth().x[i] - Vec3(0, 0.6, 0)) - 0.3);
    contactsA += onSphere(a.cloth().x[i]) ? 1 : 0;
    contactsB += onSphere(b.cloth().x[i]) ? 1 : 0;
  }
  // The drape's shape, as the heights of its nodes from lowest to highest: where the skirt's folds fall
  // differs between the two (the nodes sliding off the cap stick where a facet stops them), how far
  // the cloth hangs does not.
  std::sort(heightsA.begin(), heightsA.end());
  std::sort(heightsB.begin(), heightsB.end());
  Real worst = 0, mean = 0;
  for (std::size_t i = 0; i < heightsA.size(); ++i) {
    worst = std::max(worst, std::abs(heightsA[i] - heightsB[i]));
    mean += std::abs(heightsA[i] - heightsB[i]) / static_cast<Real>(heightsA.size());
  }
  INFO(contactsA << " and " << contactsB << " nodes on the sphere; heights differ by up to " << worst
                 << " m, by " << mean << " m on average; the mesh run keeps them " << clearance
                 << " m off the true sphere");
  CHECK(contactsA > 150);
  CHECK(std::abs(contactsA - contactsB) <= contactsA / 10);
  CHECK(worst <= 3 * thickness);
  CHECK(mean <= thickness);
  CHECK(clearance >= 0.9 * thickness);
}

TEST_CASE("collider: pushOutside lifts points that sank into a collider to the clearance") {
  const std::vector<Collider> colliders{
      Collider::sphere(Vec3(0), 1.0),
      Collider::meshOf(std::make_shared<const CollisionMesh>(makeBox(Vec3(4), Vec3(5))))};
  std::vector<Collider> placed = colliders;
  placeMeshes(placed, CollisionSettings{.meshFit = false});
  std::vector<glm::vec3> points{{0, 0.98f, 0}, {0, 1.5f, 0}, {4.5f, 4.99f, 4.5f}, {0, 0, 0}};
  Real deepest = 0;
  const int moved = pushOutside(placed, 0.002, 0.1, points, &deepest);
  CHECK(moved == 2);
  CHECK(points[0].y == Approx(1.002f));
  CHECK(points[1].y == 1.5f);
  CHECK(points[2].y == Approx(5.002f));
  CHECK(points[3] == glm::vec3(0));  // a whole radius deep: beyond reach, not a sunken surface
  CHECK(deepest == Approx(-0.02).margin(1e-6));
}

TEST_CASE("collider: pushOutside keeps a surface out of a capsule only where the pins do not hold it") {
  const std::vector<Collider> pole{Collider::capsule(Vec3(0), Vec3(0, 2, 0), 0.01)};
  const std::vector<glm::vec3> sunk{{0.005f, 1, 0}, {0, 1.5f, 0.008f}, {0.5f, 1, 0}};
  std::vector<glm::vec3> points = sunk;
  CHECK(pushOutside(pole, 0.002, 0.1, points) == 0);  // without `held`, a capsule is left out
  CHECK(points == sunk);
  const std::vector<std::uint8_t> held{0, 1, 0};  // the second point runs from a pin on the axis
  CHECK(pushOutside(pole, 0.002, 0.1, points, nullptr, nullptr, held) == 1);
  CHECK(glm::length(glm::vec2(points[0].x, points[0].z)) == Approx(0.012f));
  CHECK(points[1] == sunk[1]);
  CHECK(points[2] == sunk[2]);
}

TEST_CASE("collider: a capsule's surface is its radius off the axis, round at the ends") {
  const Collider pole = Collider::capsule(Vec3(0, 0, 0), Vec3(0, 2, 0), 0.1);
  CHECK(pole.halfLength == Approx(1));
  const SurfacePoint side = closestSurface(pole, Vec3(0.3, 1.2, 0));
  CHECK(side.distance == Approx(0.2));
  CHECK(side.normal.x == Approx(1));
  const SurfacePoint top = closestSurface(pole, Vec3(0, 2.5, 0));
  CHECK(top.distance == Approx(0.4));
  CHECK(top.normal.y == Approx(1));
  const SurfacePoint inside = closestSurface(pole, Vec3(0, 1, 0));  // on the axis
  CHECK(inside.distance == Approx(-0.1));
  CHECK(glm::length(inside.normal) == Approx(1));
  CHECK(glm::dot(inside.normal, pole.normal) == Approx(0).margin(1e-12));
  const Aabb box = colliderBounds(pole, 0.01);
  CHECK(box.lo.y == Approx(-0.11));
  CHECK(box.hi.x == Approx(0.11));
}

TEST_CASE("collider: a pole moves as a pinned node does, and thins to leave the cloth round it clear") {
  PinMotion m;
  m.pivot = Vec3(0, 1, 0);
  m.axis = Vec3(0, 0, 1);
  m.amplitude = 0.5;
  m.frequency = 1;
  Collider pole = Collider::capsule(Vec3(0, 1, 0), Vec3(0, 2, 0), 0.012);
  CHECK(placePole(pole, m, 0.25, 0.05, 0.005).center == pole.center);  // not a pole: left as it is
  pole.pole = true;
  pole.friction = 0;
  const Collider placed = placePole(pole, m, 0.25, 0.05, 0.005);
  CHECK(glm::length(placed.axisEnd() - m.apply(Vec3(0, 2, 0), 0.25)) < 1e-12);
  CHECK(glm::length(placed.axisStart() - Vec3(0, 1, 0)) < 1e-12);  // the grip is the pivot
  CHECK(placed.pole);
  CHECK(placed.friction == 0);
  CHECK(placed.radius == Approx(0.012));                                         // 5 cm spacing: room for it
  CHECK(placePole(pole, m, 0, 0.02, 0.005).radius == Approx(0.005));             // 2 cm: 1 cm - 0.5 cm
  CHECK(placePole(pole, m, 0, 0.01, 0.005).radius == Approx(0.005 - 0.01 / 3));  // 50^2 flag: 1 cm
  // 100^2: 5 mm spacing, so the contact keeps a third of it, and the pole is what is left of half.
  CHECK(poleContactThickness(0.005, 0.005) == Approx(0.005 / 3));
  CHECK(poleContactThickness(0.05, 0.005) == 0.005);
  CHECK(placePole(pole, m, 0, 0.005, 0.005).radius == Approx(0.0025 - 0.005 / 3));
}

TEST_CASE("collider: pushOutside on two threads moves the same points as on one, a mesh's among them") {
  const std::vector<Collider> colliders{
      Collider::sphere(Vec3(0, 0.5, 0), 0.3),
      Collider::meshOf(std::make_shared<const CollisionMesh>(makeIcosphere(0.3, 3))),
      Collider::plane(Vec3(0), Vec3(0, 1, 0))};
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-0.5f, 0.9f);
  std::vector<glm::vec3> points(30000);
  for (glm::vec3& p : points) p = glm::vec3(u(rng), u(rng), u(rng));
  std::vector<glm::vec3> serial = points, parallel = points;
  Real deepSerial = 0, deepParallel = 0;
  Workers two(2);
  const int movedSerial = pushOutside(colliders, 0.01, 0.1, serial, &deepSerial);
  const int movedParallel = pushOutside(colliders, 0.01, 0.1, parallel, &deepParallel, &two);
  CHECK(movedSerial > 1000);
  CHECK(movedParallel == movedSerial);
  CHECK(deepParallel == deepSerial);
  CHECK(parallel == serial);
}
