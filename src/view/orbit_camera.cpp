#include "cloth/view/orbit_camera.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

namespace cloth::view {
namespace {
constexpr float kMaxPitch = 1.55f;          // just under 89 degrees
constexpr float kRadiansPerPixel = 0.008f;  // orbit speed
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

void OrbitCamera::orbit(float dx, float dy) {
  yaw -= dx * kRadiansPerPixel;
  pitch = std::clamp(pitch + dy * kRadiansPerPixel, -kMaxPitch, kMaxPitch);
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

void OrbitCamera::frame(const glm::vec3& lo, const glm::vec3& hi) {
  target = 0.5f * (lo + hi);
  const float radius = std::max(0.5f * glm::length(hi - lo), 0.05f);
  distance = std::min(1.2f * radius / std::sin(fovY / 2), 0.5f * farPlane);
}

}  // namespace cloth::view
