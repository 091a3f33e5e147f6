#include "collider_bench.h"

#include <filesystem>
#include <memory>
#include <optional>

#include "cloth/config/settings.h"
#include "cloth/io/mesh_file.h"
#include "cloth/sim/collision/mesh_shapes.h"
#include "cloth/sim/scenes/scenes.h"

namespace cloth::bench {
namespace {

constexpr double kSettle = 0.4;  // s: landed on the obstacle
constexpr int kSteps = 36;       // 0.6 s at the scenes' 1/60 s step

// ms per step of the scene's cloth lying on its obstacle, over kSteps steps after kSettle.
Timing timeScene(sim::Scene scene, bool quick) {
  scene.params.collision.selfCollision =
      false;  // the colliders' cost; the contact suite has self-collision's
  std::optional<sim::Simulation> sim;
  auto settle = [&] {
    sim.emplace(sim::instantiate(scene));
    while (sim->time() < kSettle) sim->step();
  };
  Timing t = measure(
      settle,
      [&] {
        for (int i = 0; i < kSteps; ++i) sim->step();
      },
      quick ? 3 : 9, 1);
  t.medianMs /= kSteps;
  t.minMs /= kSteps;
  return t;
}

int triangles(const sim::Scene& scene) {
  int n = 0;
  for (const sim::Collider& c : scene.colliders)
    if (c.mesh) n += static_cast<int>(c.mesh->mesh().triangles.size());
  return n;
}

}  // namespace

std::vector<ColliderResult> benchmarkColliders(bool quick) {
  std::vector<ColliderResult> rows;
  const sim::Scene ball = *sim::findScene("ball");  // the sphere: radius 0.3 m at (0, 0.6, 0)
  rows.push_back({"ball scene, analytic sphere", 0, timeScene(ball, quick)});
  for (int subdivisions : quick ? std::vector<int>{2, 4} : std::vector<int>{2, 3, 4, 5}) {
    sim::Scene meshed = ball;
    meshed.colliders[0] = sim::Collider::meshOf(
        std::make_shared<const sim::CollisionMesh>(sim::makeIcosphere(0.3, subdivisions)));
    meshed.params.collision.meshFit = false;
    meshed.params.collision.meshOffset = sim::Vec3(0, 0.6, 0);
    rows.push_back({"ball scene, the sphere as a mesh", triangles(meshed), timeScene(meshed, quick)});
  }
  const sim::Scene drape = *sim::findScene("drape");
  rows.push_back({"drape scene (30^2), table", triangles(drape), timeScene(drape, quick)});
  const std::filesystem::path wuson = "/usr/share/assimp/models/OBJ/WusonOBJ.obj";  // assimp-testmodels
  std::shared_ptr<const sim::CollisionMesh> mesh;
  if (io::loadCollisionMesh(wuson, mesh)) {
    sim::Scene packaged = drape;
    sim::useColliderMeshes(packaged, {mesh});
    rows.push_back({"drape scene (30^2), " + wuson.filename().string(), triangles(packaged),
                    timeScene(packaged, quick)});
  }
  return rows;
}

}  // namespace cloth::bench
