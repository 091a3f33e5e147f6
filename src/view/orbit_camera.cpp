#include "cloth/view/orbit_camera.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

namespace cloth::view {
namespace {
constexpr float kMaxPitch = 1.55f;  // just under 89 degrees
constexpr float kFill = 0.85f;      // framed boxes fill this much of the free view
}  // namespace

glm::vec3 OrbitCamera::forward() const {
  return {-std::sin(yaw) * std::cos(pitch), -std::sin(pitch), -std::cos(yaw) * std::cos(pitch)};
}

glm::vec3 OrbitCamera::eye() const {
  return target - distance * forward();
}

glm::mat4 OrbitCamera::view() const {
  return glm::lookAt(eye(), target, glm::vec3(0, 1, 0));
}

glm::mat4 OrbitCamera::projection(float aspect) const {
  return glm::perspective(fovY, aspect, nearPlane, farPlane);
}

void OrbitCamera::orbit(float dx, float dy, glm::vec2 viewportSize) {
  const float pi = std::numbers::pi_v<float>;
  yaw -= pi * dx / std::max(viewportSize.x, 1.0f);
  pitch = std::clamp(pitch + pi * dy / std::max(viewportSize.y, 1.0f), -kMaxPitch, kMaxPitch);
}

void OrbitCamera::pan(float dx, float dy, float viewportHeight) {
  // A pixel at the target's depth spans 2 d tan(fov/2) / height metres.
  const float metresPerPixel = 2 * distance * std::tan(fovY / 2) / std::max(viewportHeight, 1.0f);
  const glm::vec3 right = glm::normalize(glm::cross(forward(), glm::vec3(0, 1, 0)));
  const glm::vec3 up = glm::cross(right, forward());
  target += (-dx * right + dy * up) * metresPerPixel;
}

void OrbitCamera::zoom(float notches) {
  distance = std::clamp(distance * std::pow(0.9f, notches), 0.05f, 0.5f * farPlane);
}

// Projects the box corners, then scales the distance and shifts the target so their extent fills the
// free part of the view; a few rounds settle it (perspective makes one round approximate).
void OrbitCamera::frame(const glm::vec3& lo, const glm::vec3& hi, float aspect, float leftInset) {
  target = 0.5f * (lo + hi);
  distance = std::clamp(1.2f * std::max(0.5f * glm::length(hi - lo), 0.05f) / std::sin(fovY / 2), 0.05f,
                        0.5f * farPlane);
  const float left = -1 + 2 * std::clamp(leftInset, 0.0f, 0.8f);  // free view in normalised coordinates
  for (int round = 0; round < 8; ++round) {
    const glm::mat4 viewProjection = projection(aspect) * view();
    glm::vec2 pmin(1e9f), pmax(-1e9f);
    for (int corner = 0; corner < 8; ++corner) {
      const glm::vec3 p((corner & 1) ? hi.x : lo.x, (corner & 2) ? hi.y : lo.y, (corner & 4) ? hi.z : lo.z);
      const glm::vec4 clip = viewProjection * glm::vec4(p, 1);
      const glm::vec2 ndc = glm::vec2(clip) / std::max(clip.w, 1e-4f);
      pmin = glm::min(pmin, ndc), pmax = glm::max(pmax, ndc);
    }
    const glm::vec2 free(1 - left, 2), freeCentre(0.5f * (left + 1), 0);
    const float scale = std::max((pmax.x - pmin.x) / free.x, (pmax.y - pmin.y) / free.y) / kFill;
    const glm::vec2 offset = 0.5f * (pmin + pmax) - freeCentre;  // where the box sits, off centre
    const glm::vec3 right = glm::normalize(glm::cross(forward(), glm::vec3(0, 1, 0)));
    const glm::vec3 up = glm::cross(right, forward());
    const float halfHeight = distance * std::tan(fovY / 2);  // at the target's depth
    target += offset.x * halfHeight * aspect * right + offset.y * halfHeight * up;
    distance = std::clamp(distance * scale, 0.05f, 0.5f * farPlane);
  }
}

}  // namespace cloth::view
