#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/collision_mesh.h"
#include "cloth/sim/collision/mesh_shapes.h"

using namespace cloth::sim;

namespace {

Real signedVolume(const TriangleMesh& m) {
  Real v = 0;
  for (const Triangle& t : m.triangles)
    v += glm::dot(m.vertices[t.v[0]], glm::cross(m.vertices[t.v[1]], m.vertices[t.v[2]])) / 6;
  return v;
}

}  // namespace

TEST_CASE("collision_mesh: the icosphere is closed, outward and on its sphere") {
  const TriangleMesh m = makeIcosphere(0.3, 3);
  CHECK(m.triangles.size() == 1280);
  CHECK(meshProblem(m).empty());
  for (const Vec3& p : m.vertices) CHECK(glm::length(p) == Approx(0.3));
  CHECK(signedVolume(m) == Approx(4.0 / 3 * M_PI * 0.027).epsilon(0.02));  // a little less than the ball
}

TEST_CASE("collision_mesh: signed distance of a fine icosphere is the sphere's, inside and out") {
  const CollisionMesh mesh(makeIcosphere(0.3, 4));
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> u(-0.45, 0.45);
  int checked = 0;
  for (int i = 0; i < 2000; ++i) {
    const Vec3 p(u(rng), u(rng), u(rng));
    const Real exact = glm::length(p) - 0.3;
    if (std::abs(exact) > 0.1) continue;
    INFO("point (" << p.x << ", " << p.y << ", " << p.z << ")");
    CHECK(mesh.signedDistance(p, 0.2) == Approx(exact).margin(1e-3));  // faces lie up to 0.2 mm inside
    ++checked;
  }
  CHECK(checked > 300);
  CHECK(std::isinf(mesh.signedDistance(Vec3(0, 2, 0), 0.5)));  // beyond the search distance
}

TEST_CASE("collision_mesh: pseudo-normals give the right side at a box's edges and corners") {
  const CollisionMesh box(makeBox(Vec3(-1), Vec3(1)));
  CHECK(box.signedDistance(Vec3(1.1, 1.1, 0), 1) == Approx(std::sqrt(0.02)));    // off an edge
  CHECK(box.signedDistance(Vec3(0.95, 0.97, 0), 1) == Approx(-0.03));            // inside near it
  CHECK(box.signedDistance(Vec3(1.2, 1.2, 1.2), 1) == Approx(std::sqrt(0.12)));  // off a corner
  CHECK(box.signedDistance(Vec3(0.9, 0.9, 0.9), 1) == Approx(-0.1));
  const auto q = box.closest(Vec3(1.5, 1.5, 0), 1);
  REQUIRE(q);
  CHECK(q->normal.x == Approx(std::sqrt(0.5)));  // the edge's normal, between its two faces
  CHECK(q->normal.y == Approx(std::sqrt(0.5)));
}

TEST_CASE("collision_mesh: a segment's first crossing, with the normal facing where it came from") {
  const CollisionMesh box(makeBox(Vec3(-1), Vec3(1)));
  const auto in = box.firstCrossing(Vec3(0, 3, 0), Vec3(0, -3, 0));
  REQUIRE(in);
  CHECK(in->point.y == Approx(1));
  CHECK(in->normal == Vec3(0, 1, 0));
  CHECK(in->distance == Approx(1.0 / 3));                             // segment parameter
  const auto out = box.firstCrossing(Vec3(0, 0, 0), Vec3(0, -3, 0));  // from inside
  REQUIRE(out);
  CHECK(out->normal == Vec3(0, 1, 0));  // facing the inside it came from
  CHECK_FALSE(box.firstCrossing(Vec3(0, 3, 0), Vec3(0, 1.5, 0)));
}

TEST_CASE("collision_mesh: a node led round a convex edge within a step cut the corner, not through") {
  const CollisionMesh box(makeBox(Vec3(-1), Vec3(1)));
  bool crossed = true;
  // From beside the side face, below the top, to above the top: the straight path cuts the edge.
  const Vec3 beside(0, 0.9, -1.05), above(0, 1.02, -0.9);
  const auto round = box.contact(beside, above, 0.05, crossed);
  CHECK_FALSE(crossed);
  REQUIRE(round);  // what the node ends near: the top, 2 cm under it
  CHECK(round->distance == Approx(0.02));
  // Through the slab, top to bottom: the faces met are opposite.
  const auto through = box.contact(Vec3(0, 1.05, 0), Vec3(0, -1.05, 0), 0.05, crossed);
  CHECK(crossed);
  REQUIRE(through);
  CHECK(through->normal == Vec3(0, 1, 0));
  // Round the edge but into the solid: a crossing.
  box.contact(beside, Vec3(0, 0.95, -0.5), 0.05, crossed);
  CHECK(crossed);
}

TEST_CASE("collision_mesh: the winding number is 1 inside, 0 outside, 2 where two closed parts overlap") {
  const CollisionMesh ball(makeIcosphere(0.3, 2));
  CHECK(std::abs(ball.windingNumber(Vec3(0))) == Approx(1).margin(1e-9));
  CHECK(std::abs(ball.windingNumber(Vec3(0.1, 0.2, -0.1))) == Approx(1).margin(1e-9));
  CHECK(ball.windingNumber(Vec3(0.5, 0, 0)) == Approx(0).margin(1e-9));
  // A leg run into a body: two closed boxes, one mesh.
  TriangleMesh parts = makeBox(Vec3(-1), Vec3(1));
  append(parts, makeBox(Vec3(0.5, -0.2, -0.2), Vec3(2.5, 0.2, 0.2)));
  REQUIRE(meshProblem(parts).empty());
  const CollisionMesh both(parts);
  CHECK(std::abs(both.windingNumber(Vec3(0.8, 0, 0))) == Approx(2).margin(1e-9));  // in both
  CHECK(std::abs(both.windingNumber(Vec3(1.5, 0, 0))) == Approx(1).margin(1e-9));  // the leg only
  CHECK(std::abs(both.windingNumber(Vec3(0, 0.9, 0))) == Approx(1).margin(1e-9));  // the body only
  CHECK(both.windingNumber(Vec3(1.5, 0.3, 0)) == Approx(0).margin(1e-9));          // beside the leg
}

TEST_CASE("collision_mesh: an open mesh is a two-sided surface with no inside") {
  TriangleMesh sheet{{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 0, 1), Vec3(0, 0, 1)},
                     {{{0, 2, 1}}, {{0, 3, 2}}}};
  REQUIRE(meshProblem(sheet).empty());
  const CollisionMesh mesh(sheet);
  CHECK_FALSE(mesh.closedAt(0));
  CHECK(mesh.signedDistance(Vec3(0.5, 0.1, 0.5), 1) == Approx(0.1));   // above the face (its normal is +y)
  CHECK(mesh.signedDistance(Vec3(0.5, -0.1, 0.5), 1) == Approx(0.1));  // below it: the other side, not inside
  CHECK(mesh.signedDistance(Vec3(1.2, -0.1, 0.5), 1) > 0);             // beyond the rim
  CHECK(mesh.windingNumber(Vec3(0.5, -0.1, 0.5)) == 0);
  const auto below = mesh.closest(Vec3(0.5, -0.1, 0.5), 1);
  REQUIRE(below);
  CHECK(below->onBoundary);  // the side is the query point's
  CHECK(mesh.kindText().find("two-sided") != std::string::npos);
}

TEST_CASE("collision_mesh: closed parts keep their inside beside open and non-manifold parts") {
  TriangleMesh m = makeBox(Vec3(-1), Vec3(1));
  const std::vector<bool> box = closedParts(m);
  CHECK(std::count(box.begin(), box.end(), true) == 12);
  // A fin of three triangles on one edge, beside the box, and a sheet over it.
  const auto first = static_cast<NodeIndex>(m.vertices.size());
  for (const Vec3& v : {Vec3(3, 0, 0), Vec3(4, 0, 0), Vec3(3, 1, 0), Vec3(3, 0, 1), Vec3(3, -1, 0)})
    m.vertices.push_back(v);
  for (NodeIndex tip : {2, 3, 4}) m.triangles.push_back({{first, first + 1, first + tip}});
  REQUIRE(meshProblem(m).empty());  // non-manifold is taken, not refused
  const std::vector<bool> closed = closedParts(m);
  CHECK(std::count(closed.begin(), closed.end(), true) == 12);  // the box's, not the fin's
  const CollisionMesh mesh(m);
  CHECK(mesh.signedDistance(Vec3(0, 0.9, 0), 1) == Approx(-0.1));  // inside the box: negative
  CHECK(std::abs(mesh.windingNumber(Vec3(0, 0.9, 0))) == Approx(1).margin(1e-9));
  CHECK(mesh.signedDistance(Vec3(3.5, 0.2, -0.1), 1) > 0);  // either side of the fin: outside
  CHECK(mesh.signedDistance(Vec3(3.5, 0.2, 0.1), 1) > 0);
  CHECK(mesh.windingNumber(Vec3(3.2, 0.2, 0.1)) == Approx(0).margin(1e-9));
  CHECK(mesh.kindText().find("12 in closed parts") != std::string::npos);
  // One triangle of a box wound the wrong way: its part is no longer a consistent solid.
  TriangleMesh flipped = makeBox(Vec3(-1), Vec3(1));
  std::swap(flipped.triangles[0].v[1], flipped.triangles[0].v[2]);
  const std::vector<bool> f = closedParts(flipped);
  CHECK(std::count(f.begin(), f.end(), true) == 0);
}

TEST_CASE("collision_mesh: meshes that cannot be colliders say why") {
  CHECK(meshProblem(TriangleMesh{}) == "it has no triangles");
  TriangleMesh nan{{Vec3(0), Vec3(1, 0, 0), Vec3(0, std::nan(""), 0)}, {{{0, 1, 2}}}};
  CHECK(meshProblem(nan).find("not a finite number") != std::string::npos);
  TriangleMesh dangling{{Vec3(0), Vec3(1, 0, 0)}, {{{0, 1, 2}}}};
  CHECK(meshProblem(dangling).find("does not exist") != std::string::npos);
  TriangleMesh huge{{Vec3(0), Vec3(1, 0, 0), Vec3(0, 1, 0)}, std::vector<Triangle>(kMaxMeshTriangles + 1)};
  CHECK(meshProblem(huge).find("1000001 triangles") != std::string::npos);
}

TEST_CASE("collision_mesh: welding joins repeated vertices so that faces share edges") {
  TriangleMesh soup{{Vec3(0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0)},
                    {{{0, 1, 2}}, {{3, 4, 5}}}};
  const TriangleMesh w = welded(soup);
  CHECK(w.vertices.size() == 4);
  REQUIRE(w.triangles.size() == 2);
  CHECK(w.triangles[1].v[0] == w.triangles[0].v[1]);  // the shared edge uses the same vertices
  CHECK(w.triangles[1].v[2] == w.triangles[0].v[2]);
}

TEST_CASE("collision_mesh: the nearer-first search finds the closest point the box search finds") {
  // A detailed mesh (an icosphere of 5,120 triangles beside the table and a funnel: closed and open
  // parts), random points in and around it, at reaches from 1 mm to 30 cm: the same closest point,
  // normal, distance and rim flag, and nothing where there is nothing within reach.
  TriangleMesh m = makeIcosphere(0.2, 4);
  append(m, makeTable());
  append(m, makeFunnel(Vec3(0.6, 0, 0), 0.05, 0.3, 0.4, 24));
  const CollisionMesh mesh(m);
  std::mt19937 random(17);
  std::uniform_real_distribution<Real> at(-0.8, 1.0), reach(0.001, 0.3);
  int found = 0, none = 0, otherNormal = 0;
  for (int k = 0; k < 3000; ++k) {
    const Vec3 p(at(random), at(random) * 0.6 + 0.3, at(random));
    const Real r = reach(random);
    const auto box = mesh.closest(p, r), nearer = mesh.nearest(p, r);
    REQUIRE(box.has_value() == nearer.has_value());
    if (!box) {
      ++none;
      continue;
    }
    ++found;
    // Exactly as far. Where the closest point is a corner or edge two triangles share, the other
    // triangle may give it, to the last digits, and read it as on its face or its edge (another
    // pseudo-normal of the same point): the box search's answer there follows the tree's order too.
    CHECK(nearer->distance == box->distance);
    CHECK(glm::length(nearer->point - box->point) <= 1e-12);
    CHECK(nearer->onBoundary == box->onBoundary);
    otherNormal += nearer->normal != box->normal;
  }
  CHECK(found > 300);
  CHECK(none > 300);
  CHECK(otherNormal <= found / 100);
}
