#pragma once
// How a scene is first shown: the camera that frames where its cloth goes, and the wind arrow beside
// it. GL-free.

#include <optional>

#include <glm/vec3.hpp>

#include "cloth/sim/scenes/scenes.h"
#include "cloth/view/orbit_camera.h"

namespace cloth::view {

/// An arrow showing the wind where it acts: pointing downwind at the middle of the cloth's bounding box
/// `cloth`, its tip just upwind of the box, 1 cm long per m/s of wind speed (at least 5 cm, at most
/// 1.5 times the box's size). None in still air.
struct WindArrow {
  glm::vec3 tail{0}, tip{0};
  float speed = 0;  ///< m/s, for its label
};
std::optional<WindArrow> windArrow(const sim::Aabb& cloth, const glm::vec3& wind);

/// The camera a scene opens with: the default yaw and pitch, framing scene.view and the wind arrow at
/// the cloth in the part of a view of the given aspect right of `leftInset` (the fraction of its width
/// a panel covers).
OrbitCamera sceneCamera(const sim::Scene& scene, float aspect, float leftInset);

}  // namespace cloth::view
