#include <catch2/catch.hpp>

#include <string>

#include <glm/geometric.hpp>

#include "cloth/view/picking.h"
#include "cloth/view/scene_view.h"

using namespace cloth;
using namespace cloth::view;

namespace {

// The viewer's default window and its panel (10 px margin + 390 px at content scale 1).
const Viewport kWindow{1280, 720};
constexpr float kPanelRight = 400;

bool inFreeView(const OrbitCamera& camera, const glm::vec3& p) {
  const auto px = projectToWindow(camera, kWindow, p);
  return px && px->x >= kPanelRight && px->x <= kWindow.width && px->y >= 0 && px->y <= kWindow.height;
}

}  // namespace

TEST_CASE("scene_view: every scene's cloth stays in frame, clear of the panel, at the default camera") {
  for (std::string_view name : sim::sceneNames()) {
    const sim::Scene scene = *sim::findScene(name);
    const OrbitCamera camera = sceneCamera(scene, kWindow.aspect(), kPanelRight / kWindow.width);
    sim::Simulation sim = sim::instantiate(scene);
    int outside = 0, checked = 0;
    for (double frame = 0; frame <= 5.0; frame += 1.0 / 30) {
      while (sim.time() < frame - 1e-9) sim.step();
      for (const sim::Vec3& p : sim.cloth().x) outside += inFreeView(camera, glm::vec3(p)) ? 0 : 1, ++checked;
    }
    INFO(std::string(name) << ": " << outside << " of " << checked << " node positions out of frame");
    CHECK(outside == 0);
  }
}

TEST_CASE("scene_view: the framed box fills most of the free view") {
  const sim::Scene scene = *sim::findScene("hang-vertical");
  const OrbitCamera camera = sceneCamera(scene, kWindow.aspect(), kPanelRight / kWindow.width);
  glm::vec2 lo(1e9f), hi(-1e9f);
  for (int corner = 0; corner < 8; ++corner) {
    const sim::Aabb& b = scene.view;
    const glm::vec3 p((corner & 1) ? b.hi.x : b.lo.x, (corner & 2) ? b.hi.y : b.lo.y,
                      (corner & 4) ? b.hi.z : b.lo.z);
    const glm::vec2 px = *projectToWindow(camera, kWindow, p);
    lo = glm::min(lo, px), hi = glm::max(hi, px);
  }
  CHECK(lo.x >= kPanelRight);
  CHECK(std::max((hi.x - lo.x) / (kWindow.width - kPanelRight), (hi.y - lo.y) / kWindow.height) > 0.75f);
}

TEST_CASE("scene_view: the wind arrow points downwind, sits above the cloth and is in view") {
  const sim::Scene scene = *sim::findScene("flag");
  const auto arrow = windArrow(scene.view, glm::vec3(scene.params.wind.velocity));
  REQUIRE(arrow.has_value());
  CHECK(glm::dot(arrow->tip - arrow->tail, glm::vec3(scene.params.wind.velocity)) > 0);
  CHECK(arrow->tail.y >= 2.0f);  // the flag's top edge
  const OrbitCamera camera = sceneCamera(scene, kWindow.aspect(), kPanelRight / kWindow.width);
  CHECK(inFreeView(camera, arrow->tail));
  CHECK(inFreeView(camera, arrow->tip));
  CHECK_FALSE(windArrow(scene.view, glm::vec3(0)).has_value());
}
