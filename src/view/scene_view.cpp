#include "cloth/view/scene_view.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace cloth::view {

OrbitCamera sceneCamera(const sim::Scene& scene, float aspect, float leftInset) {
  OrbitCamera camera;
  camera.frame(glm::vec3(scene.view.lo), glm::vec3(scene.view.hi), aspect, leftInset);
  return camera;
}

std::optional<WindArrow> windArrow(const sim::Aabb& region, const glm::vec3& wind) {
  const float speed = glm::length(wind);
  if (speed < 1e-3f || region.empty()) return std::nullopt;
  const glm::vec3 dir = wind / speed, lo(region.lo), hi(region.hi), extent = hi - lo;
  const float across = std::abs(dir.x) * extent.x + std::abs(dir.y) * extent.y + std::abs(dir.z) * extent.z;
  const float length = std::min(0.01f * speed, 0.6f * across);
  glm::vec3 centre = 0.5f * (lo + hi);
  centre.y = hi.y;  // along the top, above the cloth
  return WindArrow{centre - 0.5f * length * dir, centre + 0.5f * length * dir};
}

}  // namespace cloth::view
