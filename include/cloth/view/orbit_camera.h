#pragma once
// An orbit camera: it looks at a target from a distance, at a yaw and pitch. GL-free.

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace cloth::view {

struct OrbitCamera {
  glm::vec3 target{0, 1, 0};  ///< m
  float distance = 3.0f;      ///< m
  float yaw = 0.45f;          ///< rad, rotation about +y; 0 looks along -z
  float pitch = 0.4f;         ///< rad, positive looks down
  float fovY = 0.8f;          ///< rad
  float nearPlane = 0.01f;    ///< m
  float farPlane = 100.0f;    ///< m

  glm::vec3 eye() const;
  glm::vec3 forward() const;  ///< unit vector from the eye towards the target
  glm::mat4 view() const;
  glm::mat4 projection(float aspect) const;

  /// Rotates by a mouse movement of (dx, dy) pixels in a viewport of the given size: half a turn per
  /// viewport width or height dragged (polyscope's rate); pitch stays within (-89, 89) degrees.
  void orbit(float dx, float dy, glm::vec2 viewportSize);
  /// Moves the target parallel to the view plane so the point under the cursor follows it.
  void pan(float dx, float dy, float viewportHeight);
  /// Wheel zoom: each notch scales the distance by 0.9 (in) or 1/0.9 (out).
  void zoom(float notches);
  /// Keeps yaw and pitch and moves the target and distance so that the box fills the part of the view
  /// right of `leftInset` (a fraction of its width, where a panel covers it), with a margin.
  void frame(const glm::vec3& lo, const glm::vec3& hi, float aspect, float leftInset = 0);
};

}  // namespace cloth::view
