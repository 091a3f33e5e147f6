#include <catch2/catch.hpp>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/mesh_shapes.h"

using namespace cloth::sim;

TEST_CASE("mesh_shapes: boxes are closed and face outwards") {
  const TriangleMesh box = makeBox(Vec3(0), Vec3(1, 2, 3));
  CHECK(meshProblem(box).empty());
  Real volume = 0;
  for (const Triangle& t : box.triangles)
    volume += glm::dot(box.vertices[t.v[0]], glm::cross(box.vertices[t.v[1]], box.vertices[t.v[2]])) / 6;
  CHECK(volume == Approx(6));
}

TEST_CASE("mesh_shapes: the drape table stands on the floor about the origin") {
  const TriangleMesh table = makeTable();
  CHECK(table.triangles.size() == 60);
  CHECK(meshProblem(table).empty());
  const Aabb b = boundsOf(table.vertices);
  CHECK(b.lo.y == Approx(0));
  CHECK(b.hi.y == Approx(0.76));
  CHECK(b.lo.x == Approx(-0.35));
  CHECK(b.hi.z == Approx(0.35));
  const CollisionMesh mesh(table);
  CHECK(mesh.signedDistance(Vec3(0, 0.8, 0), 0.1) == Approx(0.04));  // above the top
  CHECK(mesh.signedDistance(Vec3(0, 0.3, 0), 0.5) == Approx(0.26));  // under it, between the legs
}

TEST_CASE("mesh_shapes: the funnel is an open cone's side facing outwards, throat and rim where asked") {
  const Vec3 throatCentre(0, 1.1, 0);
  const TriangleMesh f = makeFunnel(throatCentre, 0.05, 0.3, 0.4, 24);
  CHECK(meshProblem(f).empty());
  CHECK(f.vertices.size() == 48u);
  CHECK(f.triangles.size() == 48u);
  for (const Vec3& v : f.vertices) {
    const Real r = glm::length(Vec3(v.x, 0, v.z));
    const bool throat = std::abs(v.y - 1.1) < 1e-12, rim = std::abs(v.y - 1.5) < 1e-12;
    CHECK((throat || rim));
    CHECK(r == Approx(throat ? 0.05 : 0.3));
  }
  for (const Triangle& t : f.triangles) {  // outward: away from the axis (and downward, the cone widens up)
    const Vec3 &a = f.vertices[t.v[0]], &b = f.vertices[t.v[1]], &c = f.vertices[t.v[2]];
    const Vec3 n = glm::cross(b - a, c - a), centre = (a + b + c) / 3.0;
    CHECK(glm::dot(n, Vec3(centre.x, 0, centre.z)) > 0);
    CHECK(n.y < 0);
  }
  for (bool closed : closedParts(f)) CHECK_FALSE(closed);  // open at both ends: a two-sided surface
}
