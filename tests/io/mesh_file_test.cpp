#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <glm/geometric.hpp>

#include "cloth/config/settings.h"
#include "cloth/io/mesh_file.h"
#include "cloth/sim/scenes/scenes.h"
#include "cloth/sim/scenes/stats.h"
#include "fresh_dir.h"

namespace fs = std::filesystem;
using namespace cloth;

namespace {

// Debian's assimp-testmodels (scripts/install-deps.sh installs it).
const fs::path kModels = "/usr/share/assimp/models";

fs::path freshDir(const std::string& name) {
  return cloth::test::freshDir("mesh", name);
}

void writeText(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// A binary STL of n triangles, the first vertex of the last one set to `last`.
void writeStl(const fs::path& p, std::uint32_t n, float last = 0) {
  std::ofstream out(p, std::ios::binary);
  out << std::string(80, '\0');
  out.write(reinterpret_cast<const char*>(&n), 4);
  std::vector<float> tri(12);
  for (std::uint32_t i = 0; i < n; ++i) {
    const float x = static_cast<float>(i % 1000), y = static_cast<float>(i / 1000);
    tri = {0, 0, 1, i + 1 == n ? last : x, y, 0, x + 1, y, 0, x, y + 1, 0};
    out.write(reinterpret_cast<const char*>(tri.data()), 48);
    out.write("\0\0", 2);
  }
}

std::string messageFor(const fs::path& p) {
  sim::TriangleMesh m;
  const base::Status st = io::loadMesh(p, m);
  return st ? std::string() : st.message();
}

// Whether p is inside the mesh by the parity of crossings along a ray: independent of the normals.
bool insideByParity(const sim::CollisionMesh& mesh, sim::Vec3 p, const sim::Vec3& direction) {
  int crossings = 0;
  for (int k = 0; k < 1000; ++k) {
    const auto hit = mesh.firstCrossing(p, p + 100.0 * direction);
    if (!hit) break;
    ++crossings;
    p = hit->point + 1e-7 * direction;
  }
  return crossings % 2 == 1;
}

}  // namespace

TEST_CASE("mesh_file: the packaged Wuson reads the same from OBJ, PLY and STL") {
  REQUIRE(fs::exists(kModels));  // install assimp-testmodels (scripts/install-deps.sh)
  for (const char* file : {"OBJ/WusonOBJ.obj", "PLY/Wuson.ply", "STL/Wuson.stl"}) {
    sim::TriangleMesh m;
    const auto st = io::loadMesh(kModels / file, m);
    INFO(file << ": " << st.message());
    REQUIRE(st.ok());
    CHECK(m.triangles.size() == 3732);
    CHECK(m.vertices.size() == 2117);  // PLY repeats vertices per face; they are welded
  }
}

TEST_CASE("mesh_file: every bad file gets one line naming the file and the problem") {
  const fs::path d = freshDir("bad");
  writeText(d / "empty.obj", "");
  writeText(d / "garbage.stl", std::string(3000, '\x7f'));
  writeText(d / "nonmanifold.obj",
            "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 0 -1 0\nf 1 2 3\nf 1 2 4\nf 1 2 5\n");
  writeText(d / "points.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\np 1 2 3\n");
  writeStl(d / "nan.stl", 2, std::nanf(""));
  writeStl(d / "huge.stl", static_cast<std::uint32_t>(sim::kMaxMeshTriangles + 1));
  const std::pair<std::string, std::string> cases[] = {
      {"missing.obj", "no such file"},
      {"", "it is a directory"},
      {"empty.obj", "the file is empty"},
      {"garbage.stl", "not a mesh Assimp can read"},
      {"points.obj", "not a mesh Assimp can read"},  // no triangles at all
      {"nan.stl", "not a finite number"},
      {"huge.stl", "1000001 triangles"},
  };
  {  // a fin of three triangles on one edge is an obstacle now: two-sided
    std::shared_ptr<const sim::CollisionMesh> fin;
    REQUIRE(io::loadCollisionMesh(d / "nonmanifold.obj", fin));
    CHECK(fin->kindText().find("two-sided") != std::string::npos);
  }
  for (const auto& [file, words] : cases) {
    const fs::path p = d / file;
    const std::string message = messageFor(p);
    INFO(p << ": " << message);
    CHECK(message.find(words) != std::string::npos);
    CHECK(message.find(p.string()) != std::string::npos);
    CHECK(message.find('\n') == std::string::npos);
  }
  fs::remove_all(d);
}

TEST_CASE("mesh_file: the cloth drapes over a packaged mesh with no key node inside it") {
  std::shared_ptr<const sim::CollisionMesh> wuson;
  REQUIRE(io::loadCollisionMesh(kModels / "OBJ/WusonOBJ.obj", wuson).ok());
  config::Settings s = *config::settingsForScene("drape");
  sim::useColliderMeshes(s.scene, {wuson});
  sim::Simulation sim = sim::instantiate(s.scene);
  double peakStrain = 0;
  while (sim.time() < 2.0) {
    sim.step();
    peakStrain = std::max(peakStrain, sim::maxStrain(sim.cloth(), sim::SpringFamily::Structural));
  }
  // The stretch limit and the contacts agree after the self-contacts' pushes too: with one round
  // there, a feature contact left a spring over the Wuson's back at 0.181 for a step (t = 1.18 s).
  CHECK(peakStrain <= s.scene.params.material.tau + 0.01);
  const sim::Collider* collider = nullptr;
  for (const sim::Collider& c : sim.colliders())
    if (c.shape == sim::ColliderShape::Mesh) collider = &c;
  REQUIRE(collider);
  REQUIRE(collider->mesh == wuson);  // it replaced the table
  const double thickness = s.scene.params.collision.thickness;
  int inside = 0, touching = 0;
  double nearest = 1;
  for (const sim::Vec3& x : sim.cloth().x) {
    const sim::Vec3 p = collider->placement.unapply(x);
    // Inside by the parity of three rays, which does not trust the mesh's normals. All three must
    // agree: this model has holes and inner walls, which can fool one ray.
    inside += insideByParity(*wuson, p, {1, 0.013, 0.021}) && insideByParity(*wuson, p, {-0.017, 1, 0.03}) &&
              insideByParity(*wuson, p, {0.019, 0.011, -1});
    const auto q = wuson->closest(p, 1);
    const double distance = q ? q->distance * collider->placement.scale : 1.0;
    nearest = std::min(nearest, distance);
    touching += distance < 2 * thickness;
  }
  INFO(touching << " of " << sim.cloth().nodeCount() << " key nodes rest on the mesh; the nearest is "
                << nearest << " m from it (thickness " << thickness << " m)");
  CHECK(inside == 0);
  CHECK(nearest >= 0.9 * thickness);  // none sank into a face, from either side
  CHECK(touching > 50);               // it did land on it
  CHECK(sim.recoveries() == 0);
}

namespace {

// The placed bounds of a mesh collider under the given up-axis setting (fitted to 0.8 m, on the ground).
sim::Aabb placedBounds(const std::shared_ptr<const sim::CollisionMesh>& mesh, sim::MeshUp up) {
  sim::CollisionSettings s;
  s.meshUp = up;
  sim::Collider c = sim::Collider::meshOf(mesh);
  c.placement = sim::meshPlacement(*mesh, s);
  return sim::colliderBounds(c, 0);
}

}  // namespace

TEST_CASE("mesh_file: a Z-up STL stands upright, a Y-up OBJ stays as it is, collider_up overrides both") {
  std::shared_ptr<const sim::CollisionMesh> spider, wusonObj, wusonStl;
  REQUIRE(io::loadCollisionMesh(kModels / "STL/Spider_binary.stl", spider).ok());
  REQUIRE(io::loadCollisionMesh(kModels / "OBJ/WusonOBJ.obj", wusonObj).ok());
  REQUIRE(io::loadCollisionMesh(kModels / "STL/Wuson.stl", wusonStl).ok());
  CHECK(spider->fileUp() == sim::UpAxis::Z);
  CHECK(wusonObj->fileUp() == sim::UpAxis::Y);

  // The spider is flat (legs spread, 3.3 units high in the file's z): upright, its height is its
  // smallest side and it stands on the ground (sunk in it by two thicknesses); read as Y-up it stands on its
  // side, 8 units high.
  const sim::Aabb upright = placedBounds(spider, sim::MeshUp::Auto);
  const sim::Vec3 e = upright.extent();
  CHECK(e.y < 0.6 * std::min(e.x, e.z));
  CHECK(e.y == Approx(0.8 * 3.299 / 8.0).epsilon(0.01));  // fitted: the largest side is 0.8 m
  CHECK(upright.lo.y == Approx(-sim::kFloorSink * sim::CollisionSettings{}.thickness).margin(1e-9));
  const sim::Vec3 onItsSide = placedBounds(spider, sim::MeshUp::Y).extent();
  CHECK(onItsSide.y == Approx(0.8).epsilon(1e-6));

  // Debian's Wuson.stl was exported Y-up: collider_up=y places it exactly as its OBJ twin.
  const sim::Aabb obj = placedBounds(wusonObj, sim::MeshUp::Auto);
  const sim::Aabb stl = placedBounds(wusonStl, sim::MeshUp::Y);
  CHECK(glm::length(obj.lo - stl.lo) < 1e-6);
  CHECK(glm::length(obj.hi - stl.hi) < 1e-6);
  CHECK(placedBounds(wusonStl, sim::MeshUp::Z).extent().y != Approx(obj.extent().y));
}

TEST_CASE(
    "mesh_file: a scene's own mesh is loaded once, gives way to the user's, and a missing one says why") {
  sim::Scene scene = *sim::findScene("character");
  REQUIRE(scene.meshFile == sim::kPersonMesh);
  const auto meshes = [](const sim::Scene& s) {
    return std::count_if(s.colliders.begin(), s.colliders.end(),
                         [](const sim::Collider& c) { return c.shape == sim::ColliderShape::Mesh; });
  };
  SECTION("the person joins the floor, once") {
    std::string kind;
    REQUIRE(io::loadSceneMesh(scene, &kind));
    CHECK(meshes(scene) == 1);
    CHECK(scene.meshFile.empty());
    CHECK(kind.find("28796 triangles") != std::string::npos);
    REQUIRE(io::loadSceneMesh(scene));  // nothing left to load
    CHECK(meshes(scene) == 1);
  }
  SECTION("--collider-mesh stands in for the person") {
    std::shared_ptr<const sim::CollisionMesh> wuson;
    REQUIRE(io::loadCollisionMesh(kModels / "OBJ" / "WusonOBJ.obj", wuson));
    sim::useColliderMeshes(scene, {wuson});
    REQUIRE(io::loadSceneMesh(scene));
    REQUIRE(meshes(scene) == 1);
    CHECK(scene.colliders.back().mesh == wuson);
  }
  SECTION("a file that is not there: one message naming the scene and the file, the scene unchanged") {
    scene.meshFile = (freshDir("scene_mesh") / "gone.obj").string();
    const std::size_t before = scene.colliders.size();
    const base::Status st = io::loadSceneMesh(scene);
    REQUIRE_FALSE(st);
    CHECK(st.message().find("scene 'character'") != std::string::npos);
    CHECK(st.message().find("gone.obj") != std::string::npos);
    CHECK(scene.colliders.size() == before);
  }
}
