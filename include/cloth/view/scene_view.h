#pragma once
// How a scene is first shown: the camera that frames where its cloth goes, and the wind arrow beside
// it. GL-free.

#include <optional>

#include <glm/vec3.hpp>

#include "cloth/sim/scenes/scenes.h"
#include "cloth/view/orbit_camera.h"

namespace cloth::view {

/// The camera a scene opens with: the default yaw and pitch, framing scene.view in the part of a view
/// of the given aspect right of `leftInset` (the fraction of its width a panel covers).
OrbitCamera sceneCamera(const sim::Scene& scene, float aspect, float leftInset);

/// An arrow showing the wind: along the top of `region`, centred on it, pointing downwind, 1 cm long
/// per m/s up to 60 % of the region's extent along the wind. None in still air.
struct WindArrow {
  glm::vec3 tail{0}, tip{0};
};
std::optional<WindArrow> windArrow(const sim::Aabb& region, const glm::vec3& wind);

}  // namespace cloth::view
