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
