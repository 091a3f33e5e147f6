#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <glm/geometric.hpp>

#include "cloth/sim/grid.h"
#include "cloth/sim/grid_normals.h"

using namespace cloth::sim;

TEST_CASE("grid_normals: node normals of a flat grid are unit and face the front") {
  for (Orientation o : {Orientation::Vertical, Orientation::Horizontal}) {
    GridSpec spec = GridSpec::fromSpacing(5, 4, 0.1);
    spec.orientation = o;
    Cloth c = buildGrid(spec, 0.01);
    std::vector<Vec3> n(c.nodeCount());
    gridNormals<Vec3>(c.nu, c.nv, c.x, n);
    const Vec3 front = o == Orientation::Vertical ? Vec3(0, 0, 1) : Vec3(0, 1, 0);
    for (std::size_t i = 0; i < c.nodeCount(); ++i) CHECK(glm::dot(n[i], front) == Approx(1.0));
    // Bent cloth: the grid normals agree with the triangles' own normals.
    for (std::size_t i = 0; i < c.nodeCount(); ++i) c.x[i] += 0.05 * std::sin(7.0 * c.uv[i].x) * front;
    gridNormals<Vec3>(c.nu, c.nv, c.x, n);
    for (const Triangle& t : c.triangles) {
      const Vec3 face = glm::normalize(glm::cross(c.x[t.v[1]] - c.x[t.v[0]], c.x[t.v[2]] - c.x[t.v[0]]));
      for (NodeIndex v : t.v) CHECK(glm::dot(n[v], face) > 0.5);
    }
  }
}

TEST_CASE("grid_normals: a crushed grid gets the fallback, and single or double precision agree") {
  const std::vector<glm::vec3> collapsed(6, glm::vec3(1, 2, 3));
  std::vector<glm::vec3> n(6);
  gridNormals<glm::vec3>(3, 2, collapsed, n, glm::vec3(0, 0, 1));
  for (const glm::vec3& v : n) CHECK(v == glm::vec3(0, 0, 1));
  Cloth c = buildGrid(GridSpec::fromSpacing(4, 4, 0.1), 0.01);
  for (Vec3& p : c.x) p.z = 0.2 * std::sin(5 * p.x) * std::cos(3 * p.y);
  std::vector<Vec3> d(c.nodeCount());
  std::vector<glm::vec3> f(c.nodeCount()), fx(c.nodeCount());
  gridNormals<Vec3>(c.nu, c.nv, c.x, d);
  for (std::size_t i = 0; i < c.nodeCount(); ++i) fx[i] = glm::vec3(c.x[i]);
  gridNormals<glm::vec3>(c.nu, c.nv, fx, f);
  for (std::size_t i = 0; i < c.nodeCount(); ++i) CHECK(glm::length(glm::vec3(d[i]) - f[i]) < 1e-5f);
}
