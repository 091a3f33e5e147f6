#include <catch2/catch.hpp>

#include <cmath>

#include <glm/geometric.hpp>

#include "cloth/detail/refiner.h"
#include "cloth/render/framebuffer.h"
#include "cloth/render/gl.h"
#include "cloth/render/gpu_buffers.h"
#include "cloth/sim/grid.h"
#include "gl_context.h"

using namespace cloth;

TEST_CASE("gpu_buffers: surfaces upload whole when their grid changes, in place otherwise") {
  render::test::requireContext();
  render::SceneTarget target;  // a surfaceless context has no framebuffer of its own to draw into
  REQUIRE(target.create(32, 32, 0).ok());
  target.bindForDrawing();
  const sim::Cloth cloth = sim::buildGrid(sim::GridSpec::fromSpacing(5, 4, 0.1), 0.01);
  detail::Refiner refiner;
  detail::SurfaceMesh mesh;
  render::SurfaceBuffers buffers;
  for (int r : {3, 3, 5}) {  // new grid, same grid, new grid
    detail::DetailSettings s;
    s.mode = detail::DetailMode::Spline;
    s.refine = r;
    refiner.refine(cloth, s, 0, mesh);
    buffers.upload(mesh);
    buffers.drawTriangles();
    buffers.drawPoints();
    CHECK(glGetError() == GL_NO_ERROR);
  }
  render::OverlayBuffer lines;
  const std::vector<render::ColoredVertex> few{{glm::vec3(0), glm::vec4(1)}, {glm::vec3(1), glm::vec4(1)}};
  lines.upload(few);
  lines.upload(std::vector<render::ColoredVertex>(100, few[0]));  // grows
  lines.draw(GL_LINES);
  CHECK(glGetError() == GL_NO_ERROR);
}

TEST_CASE("gpu_buffers: the solids are closed meshes with unit normals") {
  for (const render::SolidMesh& m :
       {render::unitSphere(16, 8), render::unitCube(), render::groundSquare(2)}) {
    CHECK(m.positions.size() == m.normals.size());
    CHECK(m.indices.size() % 3 == 0);
    for (const glm::vec3& n : m.normals) CHECK(glm::length(n) == Approx(1.0f));
    for (std::uint32_t i : m.indices) CHECK(i < m.positions.size());
  }
}

TEST_CASE("gpu_buffers: a faceted collider has unit normals, a zero-area triangle included") {
  sim::TriangleMesh mesh;
  mesh.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {2, 0, 0}};
  mesh.triangles = {{{0, 1, 2}}, {{0, 1, 3}}};  // the second lies on a line: no area
  const render::SolidMesh m = render::facetedMesh(mesh);
  REQUIRE(m.normals.size() == 6);
  for (const glm::vec3& n : m.normals) {
    CHECK((std::isfinite(n.x) && std::isfinite(n.y) && std::isfinite(n.z)));
    CHECK(glm::length(n) == Approx(1.0f));
  }
  CHECK(m.normals[0] == glm::vec3(0, 0, 1));  // counter-clockwise seen from +z
}
