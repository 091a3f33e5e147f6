#include "cloth/view/picking.h"

#include "cloth/view/input_event.h"

#include <cmath>

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

namespace cloth::view {

sim::Ray cursorRay(const OrbitCamera& camera, const Viewport& viewport, glm::vec2 cursor) {
  const float x = 2 * cursor.x / viewport.width - 1;  // normalised device coordinates
  const float y = 1 - 2 * cursor.y / viewport.height;
  const glm::mat4 inverse = glm::inverse(camera.projection(viewport.aspect()) * camera.view());
  const glm::vec4 nearPoint = inverse * glm::vec4(x, y, -1, 1);
  const glm::vec4 farPoint = inverse * glm::vec4(x, y, 1, 1);
  const glm::vec3 a = glm::vec3(nearPoint) / nearPoint.w, b = glm::vec3(farPoint) / farPoint.w;
  return sim::Ray{sim::Vec3(camera.eye()), sim::Vec3(glm::normalize(b - a))};
}

std::optional<glm::vec2> projectToWindow(const OrbitCamera& camera, const Viewport& viewport,
                                         const glm::vec3& p) {
  const glm::vec4 clip = camera.projection(viewport.aspect()) * camera.view() * glm::vec4(p, 1);
  if (clip.w <= 0) return std::nullopt;
  const glm::vec2 ndc = glm::vec2(clip) / clip.w;
  return glm::vec2((ndc.x + 1) * 0.5f * viewport.width, (1 - ndc.y) * 0.5f * viewport.height);
}

std::optional<std::size_t> nearestOnScreen(const OrbitCamera& camera, const Viewport& viewport,
                                           std::span<const sim::Vec3> points, glm::vec2 cursor,
                                           float radius) {
  std::optional<std::size_t> best;
  float bestDistance = radius;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto pixel = projectToWindow(camera, viewport, glm::vec3(points[i]));
    if (!pixel) continue;
    const float d = glm::length(*pixel - cursor);
    if (d <= bestDistance) bestDistance = d, best = i;
  }
  return best;
}

DragPlane cameraFacingPlane(const OrbitCamera& camera, const sim::Vec3& point) {
  return {point, sim::Vec3(camera.forward())};
}

std::optional<sim::Vec3> intersect(const sim::Ray& ray, const DragPlane& plane) {
  const double denom = glm::dot(ray.direction, plane.normal);
  if (std::abs(denom) < 1e-9) return std::nullopt;
  const double t = glm::dot(plane.point - ray.origin, plane.normal) / denom;
  if (t < 0) return std::nullopt;
  return ray.at(t);
}

DragConstraint dragConstraintFor(int mods) {
  if (mods & kShift) return DragConstraint::Vertical;
  if (mods & kControl) return DragConstraint::Level;
  return DragConstraint::CameraPlane;
}

std::optional<sim::Vec3> dragGoal(const sim::Ray& ray, const DragPlane& facing, const sim::Vec3& grabbed,
                                  DragConstraint constraint) {
  switch (constraint) {
    case DragConstraint::CameraPlane:
      return intersect(ray, facing);
    case DragConstraint::Level:
      return intersect(ray, DragPlane{grabbed, sim::Vec3(0, 1, 0)});
    case DragConstraint::Vertical: {
      // Nearest points of the line grabbed + s up and the ray o + t d: with w = grabbed - o,
      // s = (b (d.w) - (up.w)) / (1 - b^2), b = up.d (both unit).
      const sim::Vec3 up(0, 1, 0), d = glm::normalize(ray.direction), w = grabbed - ray.origin;
      const double b = glm::dot(up, d), denom = 1 - b * b;
      if (denom < 1e-6) return std::nullopt;  // looking straight down the vertical
      const double s = (b * glm::dot(d, w) - glm::dot(up, w)) / denom;
      return grabbed + s * up;
    }
  }
  return std::nullopt;
}

}  // namespace cloth::view
