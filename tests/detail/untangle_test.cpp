#include "cloth/detail/untangle.h"

#include <catch2/catch.hpp>

#include <glm/geometric.hpp>

#include <cmath>
#include <filesystem>
#include <memory>
#include <vector>

#include "cloth/detail/grid_surface.h"
#include "cloth/detail/layer_fade.h"
#include "cloth/detail/refiner.h"
#include "cloth/io/mesh_file.h"
#include "cloth/sim/collision/intersections.h"
#include "cloth/sim/drag_script.h"
#include "cloth/sim/grid.h"
#include "cloth/sim/scenes/scenes.h"
#include "cloth/sim/simulation.h"

using namespace cloth;
using namespace cloth::detail;

namespace {

constexpr double kSpacing = 0.05, kGap = 0.004;  // key spacing; layers 4 mm apart, as contact leaves them
constexpr int kR = 4;

// A strip of 16 x 6 key nodes folded in half at column 7.5: columns 0-7 at z = 0, columns 8-15 back
// over them at z = kGap (`crossing`: the upper half tilted down through the lower one instead).
sim::Cloth foldedStrip(bool crossing = false) {
  sim::Cloth c = sim::buildGrid(sim::GridSpec::fromSpacing(16, 6, kSpacing), 0.01);
  for (int j = 0; j < c.nv; ++j)
    for (int i = 0; i < c.nu; ++i) {
      const int along = i < 8 ? i : 15 - i;
      const double z = i < 8 ? 0.0 : crossing ? kGap * (1 - (i - 8) / 2.5) : kGap;
      c.x[c.index(i, j)] = sim::Vec3(0.8 * kSpacing * along, kSpacing * j, z);
    }
  return c;
}

// The refinement by kR of the key grid drawn on its key triangles, with a bump of `height` (m) up out
// of the lower layer in each of `cells` (key cell columns, in row 2).
SurfaceMesh drawnOnKeys(const sim::Cloth& c, std::vector<int> cells, float height) {
  SurfaceMesh out;
  out.nu = (c.nu - 1) * kR + 1;
  out.nv = (c.nv - 1) * kR + 1;
  for (int J = 0; J < out.nv; ++J)
    for (int I = 0; I < out.nu; ++I) {
      const int ci = std::min(I / kR, c.nu - 2), cj = std::min(J / kR, c.nv - 2);
      const float a = static_cast<float>(I - ci * kR) / kR, b = static_cast<float>(J - cj * kR) / kR;
      const int k = c.index(ci, cj);
      const auto key = [&](int n) { return glm::vec3(c.x[n]); };
      glm::vec3 p = onKeyTriangle(key(k), key(k + 1), key(k + c.nu), key(k + c.nu + 1), a, b);
      for (int bumped : cells)
        if (ci == bumped && cj == 2) p.z += height * std::sin(3.14159265f * a) * std::sin(3.14159265f * b);
      out.positions.push_back(p);
    }
  gridIndices(out.nu, out.nv, out.indices);
  return out;
}

std::vector<glm::vec3> keysOf(const sim::Cloth& c) {
  return {c.x.begin(), c.x.end()};
}

// The surface as a cloth, for the audit.
sim::Cloth drawnCloth(const SurfaceMesh& m) {
  sim::Cloth drawn;
  drawn.x.assign(m.positions.begin(), m.positions.end());
  drawn.kind.assign(drawn.x.size(), sim::NodeKind::Free);
  for (std::size_t t = 0; t < m.triangleCount(); ++t)
    drawn.triangles.push_back(
        {{static_cast<sim::NodeIndex>(m.indices[3 * t]), static_cast<sim::NodeIndex>(m.indices[3 * t + 1]),
          static_cast<sim::NodeIndex>(m.indices[3 * t + 2])}});
  return drawn;
}

// Pairs of the surface's triangles through each other, as the bench's audit of the drawn surface counts.
int drawnIntersections(const SurfaceMesh& m) {
  sim::ContactAudit audit;
  return audit.measure(drawnCloth(m), {}).selfIntersections;
}

}  // namespace

TEST_CASE(
    "untangle: a bump drawn through the layer above is drawn as its key triangles, nothing else moves") {
  const sim::Cloth c = foldedStrip();
  const std::vector<glm::vec3> keys = keysOf(c);
  REQUIRE(drawnIntersections(drawnOnKeys(c, {}, 0)) == 0);  // the key mesh: the layers apart
  SurfaceMesh m = drawnOnKeys(c, {3}, 1.5f * static_cast<float>(kGap));
  const SurfaceMesh given = m;
  const int before = drawnIntersections(m);
  INFO(before << " pairs of drawn triangles through each other");
  REQUIRE(before > 0);
  Untangle untangle;
  const UntangleReport report = untangle.apply(keys, c.nu, c.nv, 1, kR, m);
  CHECK(report.found == before);
  CHECK(report.left == 0);
  CHECK(report.searches == 2);
  CHECK(report.flatNodes == 8);  // the corners of the bumped cell and of the one it pokes through
  CHECK(drawnIntersections(m) == 0);
  int moved = 0;
  for (int J = 0; J < m.nv; ++J)
    for (int I = 0; I < m.nu; ++I) {
      const std::size_t v = static_cast<std::size_t>(J) * m.nu + I;
      const bool inCell = I >= 3 * kR && I <= 4 * kR && J >= 2 * kR && J <= 3 * kR;
      if (!inCell) CHECK(m.positions[v] == given.positions[v]);
      if (inCell) CHECK(m.positions[v].z == Approx(0).margin(1e-7));  // on the key triangles
      moved += m.positions[v] != given.positions[v];
    }
  CHECK(moved == (kR - 1) * (kR - 1));  // the bump's inside
  // Searched again as it is now, nothing is left to do.
  CHECK(untangle.apply(keys, c.nu, c.nv, 1, kR, m).found == 0);
}

TEST_CASE("untangle: where the key mesh itself passes through itself, the drawn surface is left as it is") {
  const sim::Cloth c = foldedStrip(true);  // what a cloth without self-collision can do
  const std::vector<glm::vec3> keys = keysOf(c);
  SurfaceMesh m = drawnOnKeys(c, {}, 0);
  const int before = drawnIntersections(m);
  REQUIRE(before > 0);
  const SurfaceMesh given = m;
  Untangle untangle;
  const UntangleReport report = untangle.apply(keys, c.nu, c.nv, 1, kR, m);
  CHECK(report.found == before);
  CHECK(report.left == before);
  CHECK(report.flatNodes == 0);
  CHECK(m.positions == given.positions);
}

TEST_CASE("untangle: the same surface on one thread and on two") {
  const sim::Cloth c = foldedStrip();
  const std::vector<glm::vec3> keys = keysOf(c);
  SurfaceMesh one = drawnOnKeys(c, {1, 3, 5}, 2.0f * static_cast<float>(kGap)), two = one;
  sim::Workers serial(1), pair(2);
  Untangle a, b;
  const UntangleReport ra = a.apply(keys, c.nu, c.nv, 1, kR, one, &serial);
  const UntangleReport rb = b.apply(keys, c.nu, c.nv, 1, kR, two, &pair);
  CHECK(ra.found > 0);
  CHECK(ra.found == rb.found);
  CHECK(ra.testedCells == rb.testedCells);
  CHECK(one.positions == two.positions);
  CHECK(drawnIntersections(one) == 0);
}

TEST_CASE("untangle: the crumpled heap's drawn surface never passes through itself, as the viewer draws it") {
  // The contact suite's heap: a 20^2 cloth dropped and a corner dragged across the floor (t 1-2 s).
  // Before Untangle its drawn surface (wrinkled spline, r = 5) had 10 pairs through each other in its
  // worst frame; its key mesh has none.
  const sim::Scene scene = *sim::findScene("free-fall");
  sim::Simulation simulation = sim::instantiate(scene);
  sim::ScriptedDrag corner;
  corner.target = sim::Vec3(0.4, 0.05, 0.4);
  corner.start = 1.0;
  corner.end = 2.0;
  sim::DragScript script(sim::dragsOf(scene, {corner}));
  DetailSettings settings;
  settings.mode = DetailMode::Wrinkled;
  settings.refine = 5;
  Refiner refiner;
  SurfaceMesh m;
  int worst = 0, found = 0, frames = 0;
  for (int step = 1; simulation.time() < 2.2; ++step) {
    script.apply(simulation);
    simulation.step();
    if (step % 2 || simulation.time() < 1.0) continue;  // every 1/30 s, once it lies on the floor
    refiner.refine(simulation.cloth(), settings, simulation.time(), m);
    refiner.keepOutside(simulation.cloth(), m, simulation.colliders(),
                        kSurfaceClearance * simulation.params().collision.thickness);
    worst = std::max(worst, drawnIntersections(m));
    found += refiner.untangled().found;
    ++frames;
  }
  INFO(frames << " frames; Untangle found " << found << " pairs in all");
  CHECK(found > 0);  // the heap needs it
  CHECK(worst == 0);
}

TEST_CASE("untangle: the sharp rim of a mesh the cloth falls over does not pass through the drawn surface") {
  // The drape on assimp-testmodels' sphereWithHole: its key triangles keep the hole's rim out, but the
  // rim passed between the drawn vertices, which keepOutside moves off the mesh one by one (2 of the
  // mesh's edges through the drawn surface at 0.63 s and 0.7 s, 1 at 1.13 s).
  std::shared_ptr<const sim::CollisionMesh> mesh;
  const char* file = "/usr/share/assimp/models/STL/sphereWithHole.stl";
  REQUIRE(std::filesystem::exists(file));  // install assimp-testmodels (scripts/install-deps.sh)
  REQUIRE(io::loadCollisionMesh(file, mesh));
  sim::Scene scene = *sim::findScene("drape");
  sim::useColliderMeshes(scene, {mesh});
  sim::Simulation simulation = sim::instantiate(scene);
  DetailSettings settings;
  settings.mode = DetailMode::Wrinkled;
  settings.refine = 5;
  Refiner refiner;
  SurfaceMesh m;
  sim::ContactAudit audit;
  int worst = 0, flattened = 0;
  for (int step = 1; simulation.time() < 1.3; ++step) {
    simulation.step();
    if (step % 2) continue;  // every 1/30 s, as the bench audits it
    refiner.refine(simulation.cloth(), settings, simulation.time(), m);
    refiner.keepOutside(simulation.cloth(), m, simulation.colliders(),
                        kSurfaceClearance * simulation.params().collision.thickness);
    flattened += refiner.piercedCells();
    worst = std::max(worst, audit.measure(drawnCloth(m), simulation.colliders()).colliderPenetrations);
  }
  INFO(flattened << " key cells drawn flat over the run");
  CHECK(flattened > 0);
  CHECK(worst == 0);
}
