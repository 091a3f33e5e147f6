#include "cloth/view/scene_view.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace cloth::view {

std::optional<WindArrow> windArrow(const sim::Aabb& cloth, const glm::vec3& wind) {
  const float speed = glm::length(wind);
  if (speed < 1e-3f || cloth.empty()) return std::nullopt;
  const glm::vec3 dir = wind / speed, lo(cloth.lo), hi(cloth.hi), extent = hi - lo, centre = 0.5f * (lo + hi);
  const float size = std::max({extent.x, extent.y, extent.z});
  const float length = std::clamp(0.01f * speed, std::min(0.05f, 1.5f * size), std::max(1.5f * size, 0.05f));
  // From the centre to the box's face upwind, along the wind, then a small gap.
  const float toFace =
      0.5f * (std::abs(dir.x) * extent.x + std::abs(dir.y) * extent.y + std::abs(dir.z) * extent.z);
  const glm::vec3 tip = centre - (toFace + 0.05f * size) * dir;
  return WindArrow{tip - length * dir, tip, speed};
}

OrbitCamera sceneCamera(const sim::Scene& scene, float aspect, float leftInset) {
  sim::Aabb box = scene.view;
  const sim::Cloth cloth = sim::instantiate(scene).cloth();
  if (const auto arrow = windArrow(sim::boundsOf(cloth.x), glm::vec3(scene.params.wind.velocity))) {
    box.grow(sim::Vec3(arrow->tail));
    box.grow(sim::Vec3(arrow->tip));
  }
  OrbitCamera camera;
  camera.frame(glm::vec3(box.lo), glm::vec3(box.hi), aspect, leftInset);
  return camera;
}

}  // namespace cloth::view
